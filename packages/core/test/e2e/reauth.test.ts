// Re-authentication at a real OpenID Provider (issue 38): the linked account's `sub` at the same
// provider proves the signed-in user again, asked for with `prompt=login` and `max_age=0` (OpenID
// Connect Core §3.1.2.1) and proven by the ID token's `auth_time` (§2); the session stays the same
// one with a new authTime. Another account, or a login time from before the request, is refused.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Page } from "@portcullis/test-kit/browser"
import { decodeJwt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuditEvent, AuthConfig, SessionAssurance } from "../../src/types.js"
import { APP, Harness, e2eConfig, idpProvider, oauthProvider, useIdp } from "./harness.js"

const idp = useIdp({ consent: "auto" })
const CALLBACK = `${APP}/settings`
const BOB = { login: "bob@example.net", password: "bob-password" }

afterEach(() => {
  vi.useRealTimers()
})

function setup(providers: AuthConfig["providers"] = [idpProvider(idp())]): { h: Harness; config: AuthConfig & { errors: string[] }; audits: AuditEvent[] } {
  const audits: AuditEvent[] = []
  const config = e2eConfig(providers, { adapter: MemoryAdapter(), session: { strategy: "jwt" }, events: { audit: (event) => void audits.push(event) } })
  return { h: new Harness(config), config, audits }
}

async function userId(h: Harness): Promise<string | undefined> {
  return ((await h.session()) as { user?: { id?: string } } | null)?.user?.id
}

async function assurance(h: Harness): Promise<SessionAssurance | undefined> {
  return ((await h.session()) as { assurance?: SessionAssurance } | null)?.assurance
}

async function sessionIds(h: Harness): Promise<string[]> {
  const response = await h.browser.request(`${APP}/api/auth/sessions`)
  return ((await response.json()) as { id: string }[]).map((session) => session.id)
}

/** Alice signed in, then 20 minutes pass (the app's and the provider's clock alike). */
async function staleSession(ctx: ReturnType<typeof setup>, provider = "idp"): Promise<number> {
  const start = Date.now()
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(start)
  await ctx.h.signIn(provider)
  vi.setSystemTime(start + 20 * 60_000)
  return start
}

/** Presses the page's provider button: the browser goes to the provider's login page. */
async function startReauth(h: Harness, provider = "idp"): Promise<Page> {
  return h.browser.navigate(`${APP}/api/auth/reauth/${provider}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await h.csrfToken(), callbackUrl: CALLBACK }),
    initiator: `${APP}/api/auth/reauth`,
  })
}

describe("re-authentication at an OpenID provider", () => {
  it("V7.5.1, OIDC Core §3.1.2.1: asks for a fresh login (prompt=login, max_age=0) and raises the same session with a new authTime", async () => {
    const ctx = setup()
    const start = await staleSession(ctx)
    const before = await sessionIds(ctx.h)
    const alice = await userId(ctx.h)
    const offered = await ctx.h.browser.request(`${APP}/api/auth/reauth`, { headers: { accept: "application/json" } })
    expect(await offered.json()).toEqual({ methods: [{ type: "oidc", provider: "idp", name: "Demo IdP" }] })
    const login = await startReauth(ctx.h)
    const authorize = idp().requests.find((request) => request.path === "/auth" && request.search.includes("max_age"))
    const params = new URLSearchParams(authorize?.search)
    expect([params.get("prompt"), params.get("max_age")]).toEqual(["login", "0"])
    // The provider remembers Alice, yet asks her to log in again.
    expect(login.body).toContain('name="password"')
    const landed = await ctx.h.login(login)
    expect(landed.url).toBe(CALLBACK)
    expect(await assurance(ctx.h)).toMatchObject({ authTime: Math.floor(start / 1000) + 20 * 60, signedInAt: Math.floor(start / 1000), methods: ["fed"] })
    expect(await sessionIds(ctx.h)).toEqual(before)
    expect(ctx.audits.at(-1)).toMatchObject({ type: "reauth", outcome: "success", provider: "idp", userId: alice })
  })

  it("V7.5.3: logging in as another account at the provider is refused as wrongUser; nothing is linked and the session stays", async () => {
    const ctx = setup()
    const start = await staleSession(ctx)
    const alice = await userId(ctx.h)
    const landed = await ctx.h.login(await startReauth(ctx.h), BOB)
    expect(new URL(landed.url).searchParams.get("error")).toBe("wrongUser")
    expect(await assurance(ctx.h)).toMatchObject({ authTime: Math.floor(start / 1000) })
    expect(await userId(ctx.h)).toBe(alice)
    const store = ctx.config.adapter as ReturnType<typeof MemoryAdapter>
    expect(await store.getUserByAccount({ provider: "idp", providerAccountId: "bob" })).toBeNull()
    expect(ctx.audits.at(-1)).toMatchObject({ type: "reauth", outcome: "failure", reason: "wrongUser", userId: alice })
  })

  it.each([
    ["older than the request less 30 s", (claims: Record<string, unknown>) => ({ ...claims, auth_time: Math.floor(Date.now() / 1000) - 120 })],
    ["missing", ({ auth_time: _dropped, ...claims }: Record<string, unknown>) => claims],
  ])("OIDC Core §2: an ID token whose auth_time is %s is refused and the session stays", async (_case, change) => {
    const ctx = setup()
    const start = await staleSession(ctx)
    idp().onTokenResponse(async ({ body }) => ({ body: { ...body, id_token: await idp().signJwt(change(decodeJwt(String(body.id_token)))) } }))
    const landed = await ctx.h.login(await startReauth(ctx.h))
    expect(new URL(landed.url).searchParams.get("error")).toBe("OAuthCallbackError")
    expect(ctx.config.errors.at(-1)).toMatch(/auth_time/)
    expect(ctx.audits.at(-1)).toMatchObject({ type: "reauth", outcome: "failure", reason: "providerError", provider: "idp" })
    expect(await assurance(ctx.h)).toMatchObject({ authTime: Math.floor(start / 1000) })
  })

  it("offers a plain OAuth 2.0 provider only with reauth: \"prompt\" (sent prompt=login, no max_age), and no provider with reauth: false", async () => {
    const off = setup([idpProvider(idp(), { reauth: false })])
    await off.h.signIn("idp")
    expect(await (await off.h.browser.request(`${APP}/api/auth/reauth`, { headers: { accept: "application/json" } })).json()).toMatchObject({ methods: [] })
    const ctx = setup([oauthProvider(idp(), { reauth: "prompt" })])
    const start = await staleSession(ctx, "idp-oauth")
    expect(await (await ctx.h.browser.request(`${APP}/api/auth/reauth`, { headers: { accept: "application/json" } })).json()).toEqual({ methods: [{ type: "oidc", provider: "idp-oauth", name: "Demo OAuth" }] })
    idp().clearRequests()
    const landed = await ctx.h.login(await startReauth(ctx.h, "idp-oauth"))
    const params = new URLSearchParams(idp().requests.find((request) => request.path === "/auth")?.search)
    expect([params.get("prompt"), params.get("max_age")]).toEqual(["login", null])
    expect(landed.url).toBe(CALLBACK)
    expect(await assurance(ctx.h)).toMatchObject({ authTime: Math.floor(start / 1000) + 20 * 60 })
  })
})
