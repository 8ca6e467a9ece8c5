/**
 * The audit trail (`events.audit`) beyond the ways in, which `test/flow-table.test.ts` drives:
 * sign-out, session revocations (from the list, everywhere, by the app), passkeys added and
 * removed, the refusals a route answers itself (the `signIn` callback's redirect, the per-target
 * limits), and the event's own rules: one per operation, the client address only when the app
 * names one, the user agent cut as session records cut it, a throwing handler that changes
 * nothing, and no marking at all without a handler.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import { auditAs, auditSuccess } from "../../src/audit/audit.js"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import { revokeSessions, revokeUserSessions } from "../../src/sessions.js"
import type { AuditEvent, AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"
import { SoftAuthenticator } from "../webauthn/authenticator.js"
import { options, passkeyProvider } from "../webauthn/harness.js"

type Audited = AuthConfig & { audits: AuditEvent[]; errors: string[] }

/** A configuration whose audit events (and logged errors) are kept. */
function audited(overrides: Partial<AuthConfig> = {}): Audited {
  const audits: AuditEvent[] = []
  const errors: string[] = []
  const config = testConfig({
    // The user `authorize` answers is not stored: JWT sessions (with session records, which the memory adapter keeps).
    adapter: MemoryAdapter(),
    session: { strategy: "jwt", revocationCheckInterval: 0 },
    providers: [passwordProvider()],
    logger: { error: (error) => errors.push(`${error.code}: ${error.message} ${String((error.cause as Error | undefined)?.message)}`), warn: () => undefined },
    ...overrides,
    events: {
      audit: (event) => {
        audits.push(event)
      },
      ...overrides.events,
    },
  })
  return { ...config, audits, errors }
}

/** Posts ada's password form, `password` as given. */
async function postPassword(config: AuthConfig, jar: Jar, password = PASSWORD, headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password, csrfToken: await csrfToken(config, jar), callbackUrl: "/after" }, headers })
}

async function signedIn(config: AuthConfig, headers: Record<string, string> = {}): Promise<Jar> {
  const jar = new Jar()
  expect(location(await postPassword(config, jar, PASSWORD, headers)).pathname).toBe("/after")
  return jar
}

/** The events sent since `from`, as `type outcome reason`. */
function since(config: Audited, from: number): string[] {
  return config.audits.slice(from).map((event) => [event.type, event.outcome, event.reason].filter(Boolean).join(" "))
}

describe("signing out (ASVS V16.3.1)", () => {
  it("sends one signOut success naming the user whose session ended", async () => {
    const config = audited()
    const jar = await signedIn(config)
    const from = config.audits.length
    const response = await call(config, jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(config, jar) } })
    expect(response.status).toBe(302)
    expect(config.audits.slice(from)).toEqual([{ type: "signOut", outcome: "success", userId: "user-ada", at: expect.any(Number) as number }])
  })

  it("sends a signOut failure, invalidRequest, for a forged CSRF token, and the session stays", async () => {
    const config = audited()
    const jar = await signedIn(config)
    const from = config.audits.length
    await call(config, jar, "/api/auth/signout", { form: { csrfToken: "forged" } })
    expect(since(config, from)).toEqual(["signOut failure invalidRequest"])
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { id: "user-ada" } })
  })
})

describe("session revocations (ASVS V16.3.1)", () => {
  async function revoke(config: AuthConfig, jar: Jar, target: Record<string, string>): Promise<Response> {
    return call(config, jar, "/api/auth/sessions/revoke", { form: { ...target, csrfToken: await csrfToken(config, jar) } })
  }

  it("sends one sessionRevoke per request: revoked for others, signOutEverywhere for all, whatever the count", async () => {
    const config = audited()
    const here = await signedIn(config)
    await signedIn(config)
    await signedIn(config)
    let from = config.audits.length
    expect(await (await revoke(config, here, { others: "true" })).json()).toEqual({ revoked: 2 })
    expect(config.audits.slice(from)).toEqual([{ type: "sessionRevoke", outcome: "success", reason: "revoked", userId: "user-ada", at: expect.any(Number) as number }])
    from = config.audits.length
    await revoke(config, here, { all: "true" })
    // The asking session ends as a sign-out, inside the one revocation: no signOut event of its own.
    expect(since(config, from)).toEqual(["sessionRevoke success signOutEverywhere"])
  })

  it("sends a sessionRevoke failure, signInRequired, without a session, from the route and from revokeSessions()", async () => {
    const config = audited()
    const jar = new Jar()
    expect((await revoke(config, jar, { others: "true" })).status).toBe(401)
    expect(await revokeSessions(new Request(`${ORIGIN}/`), config, { others: true })).toBeNull()
    expect(since(config, 0)).toEqual(["sessionRevoke failure signInRequired", "sessionRevoke failure signInRequired"])
  })

  it("sends a sessionRevoke success, admin, for revokeUserSessions, with no request to name a client", async () => {
    const config = audited({ clientAddress: () => "203.0.113.7" })
    await signedIn(config)
    const from = config.audits.length
    expect(await revokeUserSessions(config, "user-ada")).toBe(1)
    expect(config.audits.slice(from)).toEqual([{ type: "sessionRevoke", outcome: "success", reason: "admin", userId: "user-ada", at: expect.any(Number) as number }])
  })
})

describe("refusals a route answers itself (ASVS V16.3.1, V16.3.3)", () => {
  it("sends a signIn failure, denied, when the signIn callback redirects elsewhere", async () => {
    const config = audited({ callbacks: { signIn: () => "/not-today" } })
    const response = await postPassword(config, new Jar())
    expect(location(response).pathname).toBe("/not-today")
    expect(config.audits).toEqual([{ type: "signIn", outcome: "failure", reason: "denied", provider: "credentials", at: expect.any(Number) as number }])
  })

  it("tells a paused password sign-in (rateLimited) from a wrong password, which the browser cannot", async () => {
    const config = audited({ rateLimit: { credentials: { failures: 1 } } })
    const jar = new Jar()
    const wrong = await postPassword(config, jar, "wrong password")
    const paused = await postPassword(config, jar, PASSWORD)
    expect(location(paused).searchParams.get("error")).toBe(location(wrong).searchParams.get("error"))
    expect(since(config, 0)).toEqual(["signIn failure invalidCredentials", "signIn failure rateLimited"])
  })

  it("sends an emailLinkRequest failure, rateLimited, when the address's mail allowance is spent, though the browser hears it was sent", async () => {
    const sent: string[] = []
    const email = { id: "email", name: "Email", type: "email" as const, sendVerificationRequest: ({ url }: { url: string }) => void sent.push(url) }
    const config = audited({ providers: [email], rateLimit: { mailPerAddress: { limit: 1 } } })
    const ask = async (jar: Jar) => call(config, jar, "/api/auth/signin/email", { form: { email: "ada@example.com", csrfToken: await csrfToken(config, jar) } })
    const first = await ask(new Jar())
    const second = await ask(new Jar())
    expect(location(second).pathname).toBe(location(first).pathname)
    expect(sent).toHaveLength(1)
    expect(since(config, 0)).toEqual(["emailLinkRequest success", "emailLinkRequest failure rateLimited"])
    expect(config.audits.every((event) => event.provider === "email")).toBe(true)
  })
})

describe("a failure answered where every failure is answered (ASVS V16.3.1)", () => {
  it("sends the failure of the operation the route starts: a forged CSRF token on the email form is an emailLinkRequest's, on a password form a signIn's", async () => {
    const email = { id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => undefined }
    const config = audited({ providers: [email, passwordProvider()] })
    const jar = new Jar()
    await csrfToken(config, jar)
    await call(config, jar, "/api/auth/signin/email", { form: { email: "ada@example.com", csrfToken: "forged" } })
    await call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD, csrfToken: "forged" } })
    await call(config, jar, "/api/auth/callback/no-such-provider", { form: { csrfToken: "forged" } })
    expect(config.audits.map(({ type, outcome, reason, provider }) => ({ type, outcome, reason, provider }))).toEqual([
      { type: "emailLinkRequest", outcome: "failure", reason: "invalidRequest", provider: "email" },
      { type: "signIn", outcome: "failure", reason: "invalidRequest", provider: "credentials" },
      // A provider id no configuration has is not repeated into the trail.
      { type: "signIn", outcome: "failure", reason: "invalidRequest", provider: undefined },
    ])
  })
})

describe("passkeys added and removed (ASVS V16.3.1)", () => {
  it("sends passkeyAdd (then the signIn of the session it starts), passkeyRemove, and lastSignInMethod for the last one", async () => {
    const config = audited({ providers: [passkeyProvider() as never] })
    const jar = new Jar()
    const register = async (query = "") => {
      const data = JSON.stringify(await new SoftAuthenticator(ORIGIN).create((await options(config, jar, query)).options))
      return call(config, jar, "/api/auth/callback/passkey", { form: { action: "register", data, csrfToken: await csrfToken(config, jar), callbackUrl: `${ORIGIN}/account` } })
    }
    expect((await register("?action=register&email=grace%40example.com")).status).toBe(302)
    const { user } = (await (await call(config, jar, "/api/auth/session")).json()) as { user: { id: string } }
    expect((await register()).status).toBe(302)
    const remove = async (credentialId: string) =>
      call(config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "delete", credentialId, csrfToken: await csrfToken(config, jar) } })
    const listed = (await (await call(config, jar, "/api/auth/webauthn-credentials/passkey")).json()) as { passkeys: { id: string }[] }
    expect(listed.passkeys).toHaveLength(2)
    expect((await remove(listed.passkeys[0]?.id ?? "")).status).toBe(200)
    expect((await remove(listed.passkeys[1]?.id ?? "")).status).toBe(409)
    expect(since(config, 0)).toEqual(["signIn success", "passkeyAdd success", "signIn success", "passkeyRemove success", "passkeyRemove failure lastSignInMethod"])
    expect(config.audits.slice(1).every((event) => event.userId === user.id && event.provider === "passkey")).toBe(true)
  })

  it("sends a passkeyRemove failure, signInRequired, without a session; a rename is not audited", async () => {
    const config = audited({ providers: [passkeyProvider() as never] })
    const jar = new Jar()
    const change = async (action: string) =>
      call(config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action, credentialId: "abc", name: "Phone", csrfToken: await csrfToken(config, jar) } })
    await change("delete")
    await change("rename")
    expect(since(config, 0)).toEqual(["passkeyRemove failure signInRequired"])
  })
})

describe("re-authentication (ASVS V16.3.1, V7.5.1)", () => {
  it("sends one reauth per attempt: success with the methods, invalidCredentials for a wrong password, wrongUser for another user's", async () => {
    const config = audited({ providers: [passwordProvider({ authorize: ({ username, password }) => (password === PASSWORD ? { id: `user-${String(username)}` } : null) })] })
    const jar = await signedIn(config)
    const from = config.audits.length
    const reauth = async (username: string, password: string, browser = jar) =>
      call(config, browser, "/api/auth/reauth/credentials", { form: { username, password, csrfToken: await csrfToken(config, browser), callbackUrl: "/after" } })
    await reauth("ada", PASSWORD)
    await reauth("ada", "wrong password")
    await reauth("bob", PASSWORD)
    expect(since(config, from)).toEqual(["reauth success", "reauth failure invalidCredentials", "reauth failure wrongUser"])
    expect(config.audits[from]).toMatchObject({ userId: "user-ada", provider: "credentials", methods: ["pwd"] })
    expect(config.audits.at(-1)).toMatchObject({ userId: "user-ada", provider: "credentials" })
  })
})

describe("what an event carries (ASVS V16.2.1)", () => {
  it("sends signIn pending for a first factor whose user owes a second, then secondFactor failures with their reasons: replayed, locked", async () => {
    const { sealFactorSecret } = await import("../../src/factors/sealed-secret.js")
    const { newTotpSecret, totpCode, totpStep } = await import("../../src/factors/totp.js")
    const secret = newTotpSecret()
    const adapter = MemoryAdapter({ authFactors: [{ id: "t1", userId: "user-ada", type: "totp", secret: await sealFactorSecret([SECRET], secret, "user-ada"), createdAt: new Date(), confirmedAt: new Date() }] })
    const config = audited({ adapter, mfa: {} })
    const code = await totpCode(secret, totpStep())
    for (const expected of ["success", "replayed"]) {
      const jar = new Jar()
      await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
      await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "totp", code } })
      expect(config.audits.filter((event) => event.type === "secondFactor").at(-1), expected).toMatchObject(expected === "success" ? { outcome: "success" } : { outcome: "failure", reason: expected })
    }
    await adapter.updateAuthFactor({ id: "t1", lockedAt: new Date() })
    const jar = new Jar()
    await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
    await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "totp", code: "000000" } })
    expect(config.audits.filter((event) => event.type === "signIn").map((event) => event.outcome)).toEqual(["pending", "success", "pending", "pending"])
    expect(config.audits.at(-1)).toMatchObject({ type: "secondFactor", outcome: "failure", reason: "locked", userId: "user-ada", provider: "credentials" })
    expect(config.errors).toEqual([])
  })

  it("carries the client address only when the app names one, and the user agent cut to 256 characters as session records keep it", async () => {
    const agent = `Mozilla/5.0 ${"x".repeat(400)}`
    const without = audited()
    await signedIn(without, { "user-agent": agent })
    expect(without.audits[0]?.clientAddress).toBeUndefined()
    expect(without.audits[0]?.userAgent).toBe(agent.slice(0, 256))
    const named = audited({ clientAddress: () => "203.0.113.7" })
    await signedIn(named)
    expect(named.audits[0]).toMatchObject({ clientAddress: "203.0.113.7" })
    expect(named.audits[0]?.userAgent).toBeUndefined()
  })

  it("never changes the outcome when the handler throws: the sign-in completes and the throw is logged, redacted", async () => {
    const config = audited({
      events: {
        audit: () => {
          throw new Error(`audit store down, password was ${PASSWORD}`)
        },
      },
    })
    const jar = await signedIn(config)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { id: "user-ada" } })
    expect(config.errors).toEqual([expect.stringMatching(/^EventError: The `events.audit` handler threw\./)])
    expect(config.errors.join("")).not.toContain(PASSWORD)
  })

  it("marks nothing and builds no event for an app without events.audit", async () => {
    const internal = await resolveConfig(testConfig({ secret: SECRET }))
    const context = createContext(internal, new Request(`${ORIGIN}/api/auth/signout`), new URL(`${ORIGIN}/api/auth/signout`))
    auditAs(context, "signOut")
    expect(context.audit).toBeUndefined()
    await auditSuccess(context, "user-ada")
    expect(context.audit).toBeUndefined()
  })
})
