// RFC 7009 revocation on sign-out (`revokeTokensOnSignOut`) against the real OpenID Provider:
// the provider's tokens are revoked once no session holds them, never while another device's
// session does, and a failing or slow revocation never holds a sign-out up.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/types.js"
import { APP, Harness, e2eConfig, idpProvider, useIdp } from "./harness.js"

/** `POST /sessions/revoke` from `device`, with its CSRF token. */
async function revokeSessions(device: Harness, target: Record<string, unknown>): Promise<Response> {
  return device.browser.request(`${APP}/api/auth/sessions/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken: await device.csrfToken(), ...target }),
  })
}

const idp = useIdp({ consent: "auto" })

async function signOut(harness: Harness): Promise<number> {
  const started = Date.now()
  const page = await harness.browser.navigate(`${APP}/api/auth/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await harness.csrfToken(), callbackUrl: `${APP}/bye` }),
    initiator: `${APP}/api/auth/signout`,
  })
  expect(page.url).toBe(`${APP}/bye`)
  expect(await harness.session()).toBeNull()
  return Date.now() - started
}

function withAdapter(store = MemoryAdapter()): { config: AuthConfig & { errors: string[] }; store: ReturnType<typeof MemoryAdapter> } {
  return { config: e2eConfig([idpProvider(idp(), { revokeTokensOnSignOut: true })], { adapter: store, session: { strategy: "database" } }), store }
}

describe("revokeTokensOnSignOut", () => {
  it("revokes the refresh and access tokens a session cookie keeps when it signs out (no adapter)", async () => {
    const harness = new Harness(e2eConfig([idpProvider(idp(), { revokeTokensOnSignOut: true, tokensInCookie: true })]))
    await harness.signIn()
    await signOut(harness)
    expect(idp().revocations.map((record) => [record.tokenTypeHint, record.status])).toEqual(
      expect.arrayContaining([["refresh_token", 200], ["access_token", 200]]),
    )
    expect(idp().revocations.some((record) => record.revoked === "refresh_token")).toBe(true)
  })

  it("keeps the grant while another device is signed in, and revokes it with the last sign-out, clearing the account's tokens", async () => {
    const { config, store } = withAdapter()
    const laptop = new Harness(config)
    const phone = new Harness(config)
    await laptop.signIn()
    await phone.signIn()
    const userId = ((await laptop.session()) as { user: { id: string } }).user.id

    await signOut(laptop)
    expect(idp().revocations).toEqual([])
    const before = (await store.listAccountsByUserId(userId))[0]
    expect(typeof before?.refresh_token).toBe("string")

    await signOut(phone)
    expect(idp().revocations.find((record) => record.tokenTypeHint === "refresh_token")).toMatchObject({ token: before?.refresh_token, revoked: "refresh_token" })
    const after = (await store.listAccountsByUserId(userId))[0]
    expect(after?.refresh_token).toBeUndefined()
    expect(after?.access_token).toBeUndefined()
    expect(config.errors).toEqual([])
  })

  it("revokes the grant when the user signs out everywhere from one device, ending the other device's session too", async () => {
    const { config } = withAdapter()
    const laptop = new Harness(config)
    const phone = new Harness(config)
    await laptop.signIn()
    await phone.signIn()
    const response = await revokeSessions(laptop, { all: true, callbackUrl: `${APP}/bye` })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ revoked: 2 })
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
    expect(idp().revocations.map((record) => [record.tokenTypeHint, record.status])).toEqual(expect.arrayContaining([["refresh_token", 200]]))
    expect(config.errors).toEqual([])
  })

  it("keeps the grant when the user ends only their other sessions", async () => {
    const { config } = withAdapter()
    const laptop = new Harness(config)
    const phone = new Harness(config)
    await laptop.signIn()
    await phone.signIn()
    const response = await revokeSessions(laptop, { others: true })
    expect(await response.json()).toEqual({ revoked: 1 })
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).not.toBeNull()
    expect(idp().revocations).toEqual([])
  })

  it("signs out all the same when the provider refuses the revocation, logging it without the token", async () => {
    const { config, store } = withAdapter()
    const harness = new Harness(config)
    await harness.signIn()
    const userId = ((await harness.session()) as { user: { id: string } }).user.id
    const token = (await store.listAccountsByUserId(userId))[0]?.refresh_token ?? ""
    idp().onRevocationResponse(() => ({ status: 503, body: { error: "temporarily_unavailable" } }))
    await signOut(harness)
    expect(config.errors.join("\n")).toMatch(/OAuthSignInError|revok/i)
    expect(token.length).toBeGreaterThan(10)
    expect(config.errors.join("\n")).not.toContain(token)
  })

  it("does not wait for a provider that is slow to revoke", async () => {
    const { config } = withAdapter()
    const harness = new Harness(config)
    await harness.signIn()
    idp().delay("revocation", 10_000)
    expect(await signOut(harness)).toBeLessThan(6_000)
  })

  it("is refused at start with neither an adapter nor tokensInCookie", async () => {
    const { Auth } = await import("../../src/index.js")
    const config = e2eConfig([idpProvider(idp(), { revokeTokensOnSignOut: true })])
    expect((await Auth(new Request(`${APP}/api/auth/providers`), config)).status).toBe(503)
    expect(config.errors.join("\n")).toMatch(/revokeTokensOnSignOut/)
  })
})
