/**
 * The guard of every sensitive route (issue 38): a session only when its user authenticated
 * recently enough, at the level asked; otherwise the sign-in page or the re-authentication page,
 * as JSON for a fetch and as a 303 for a form.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { requireRecentAuth, requireRecentAuthForResponse } from "../../src/index.js"
import { requireRecentSession, type RecentAuthOptions, type RecentSession } from "../../src/session/recent.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, csrfToken, passwordProvider, testConfig } from "../helpers.js"

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)

afterEach(() => {
  vi.useRealTimers()
})

function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(at)
}

async function signIn(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
  expect(response.status).toBe(302)
  return jar
}

async function guard(config: AuthConfig, jar: Jar, options: RecentAuthOptions, headers: Record<string, string> = {}): Promise<RecentSession> {
  const url = new URL("/api/auth/accounts/unlink", ORIGIN)
  const request = new Request(url, { method: "POST", headers: { cookie: jar.header(), ...headers } })
  return requireRecentSession(createContext(await resolveConfig(config), request, url), options)
}

describe("requireRecentSession", () => {
  const config = testConfig({ providers: [passwordProvider()] })

  it("V7.5.1: answers the session of an authentication within session.reauthAge", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 600_000)
    const recent = await guard(config, jar, {})
    expect(recent.ok && recent.current.userId).toBe("user-ada")
  })

  it("V7.5.1: refuses one a second older with ReauthRequired: 403 JSON with the re-authentication page for a fetch", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 601_000)
    const refused = await guard(config, jar, { callbackUrl: `${ORIGIN}/settings` }, { accept: "application/json" })
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.response.status).toBe(403)
    expect(await refused.response.json()).toEqual({ error: "ReauthRequired", url: `${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings`)}` })
  })

  it("V7.5.3: a form post is sent on to the re-authentication page with a 303", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 3_600_000)
    const refused = await guard(config, jar, { maxAge: 60 })
    expect(!refused.ok && refused.response.status).toBe(303)
    expect(!refused.ok && refused.response.headers.get("location")).toBe(`${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(ORIGIN)}`)
  })

  it("refuses a level-1 authentication where level 2 is asked, however recent", async () => {
    const jar = await signIn(config)
    const refused = await guard(config, jar, { level: 2 }, { "x-auth-return-redirect": "1" })
    expect(!refused.ok && refused.error).toBe("ReauthRequired")
    expect(!refused.ok && refused.response.status).toBe(403)
  })

  it("a database session on an adapter without session records (Auth.js's) passes a level-1 check with one warning naming the fix, and never a level-2 one", async () => {
    const { createSessionRecord: _c, getSessionRecord: _g, listSessionRecords: _l, updateSessionRecord: _u, useOnce: _o, ...authJsLike } = MemoryAdapter({ users: [{ id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] })
    const warnings: string[] = []
    const untracked = testConfig({ adapter: authJsLike, session: { strategy: "database" }, providers: [passwordProvider()], logger: { error: () => undefined, warn: (code) => void warnings.push(code) } })
    clockAt(T0)
    const jar = await signIn(untracked)
    clockAt(T0 + 86_400_000)
    const passed = await guard(untracked, jar, {})
    expect(passed.ok && passed.current.userId).toBe("user-ada")
    expect((await guard(untracked, jar, {})).ok).toBe(true)
    expect(warnings).toEqual(["ReauthUntracked"])
    const refused = await guard(untracked, jar, { level: 2 }, { accept: "application/json" })
    expect(!refused.ok && refused.error).toBe("ReauthRequired")
  })

  it("sends a request without a session to the sign-in page: 401 SessionRequired", async () => {
    const refused = await guard(config, new Jar(), {}, { accept: "application/json" })
    expect(!refused.ok && refused.response.status).toBe(401)
    expect(!refused.ok && (await refused.response.json())).toEqual({ error: "SessionRequired", url: `${ORIGIN}/api/auth/signin` })
  })
})

describe("requireRecentAuth (the server's guard for an app's own pages)", () => {
  const config = testConfig({ providers: [passwordProvider()] })
  const page = (jar: Jar): Request => new Request(`${ORIGIN}/settings/security?tab=keys`, { headers: { cookie: jar.header() } })

  it("V7.5.1: answers the session of a recent authentication", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 300_000)
    const recent = await requireRecentAuth(page(jar), config)
    expect(recent.ok && recent.session.user?.email).toBe("ada@example.com")
  })

  it("V7.5.1: sends a stale one to the re-authentication page, back to the page requested", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 301_000)
    expect(await requireRecentAuth(page(jar), config, { maxAge: 300 })).toEqual({ ok: false, url: `${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings/security?tab=keys`)}` })
  })

  it("checks callbackUrl as every callback URL: another site's is not where the browser returns", async () => {
    clockAt(T0)
    const jar = await signIn(config)
    clockAt(T0 + 601_000)
    const refused = await requireRecentAuth(page(jar), config, { callbackUrl: "https://evil.example/phish" })
    expect(refused).toEqual({ ok: false, url: `${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(ORIGIN)}` })
  })

  it("sends a request without a session to the sign-in page", async () => {
    expect(await requireRecentAuth(page(new Jar()), config)).toEqual({ ok: false, url: `${ORIGIN}/api/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings/security?tab=keys`)}` })
  })

  it("level 2 for a user with no second factor and no passkey: to {basePath}/mfa/setup", async () => {
    const jar = await signIn(config)
    expect(await requireRecentAuth(page(jar), config, { level: 2 })).toEqual({ ok: false, url: `${ORIGIN}/api/auth/mfa/setup` })
  })

  it("level 2 for a user with a confirmed TOTP factor: to the re-authentication page", async () => {
    const adapter = MemoryAdapter()
    await adapter.createAuthFactor({ id: "f1", userId: "user-ada", type: "totp", secret: "sealed", createdAt: new Date(), confirmedAt: new Date() })
    const withFactor = testConfig({ providers: [passwordProvider()], adapter, session: { strategy: "jwt" } })
    const jar = await signIn(withFactor)
    const refused = await requireRecentAuth(page(jar), withFactor, { level: 2 })
    expect(!refused.ok && refused.url).toMatch(`${ORIGIN}/api/auth/reauth?callbackUrl=`)
  })

  it("forwards the cookies the read sets to setCookie, and reads a forged cookie as no session", async () => {
    const cookies: string[] = []
    const forged = new Request(`${ORIGIN}/settings`, { headers: { cookie: "authjs.session-token=forged" } })
    const refused = await requireRecentAuthForResponse(forged, config, (cookie) => void cookies.push(cookie))
    expect(!refused.ok && refused.url).toMatch(`${ORIGIN}/api/auth/signin`)
    expect(cookies.some((cookie) => cookie.startsWith("authjs.session-token=;"))).toBe(true)
  })
})
