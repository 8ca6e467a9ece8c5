// OpenID Connect Back-Channel Logout as a relying party, against the real OpenID Provider, whose
// own logout posts the tokens: a valid one ends the sessions it names, on every instance sharing
// the store (database sessions at once, JWT sessions within revocationCheckInterval); an invalid
// one is answered 400 and ends nothing.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuditEvent, AuthConfig } from "../../src/types.js"
import { encode } from "../../src/session/jwt.js"
import { APP, CLIENT, Harness, PROVIDER_IDS, SECRET, e2eConfig, idpProvider, startIdp } from "./harness.js"
import type { DevIdp } from "@portcullis/dev-idp"

const BACKCHANNEL = `${APP}/api/auth/backchannel-logout/idp`

let idp: DevIdp | undefined
afterEach(async () => {
  await idp?.close()
  idp = undefined
})

/** The provider, whose logout tokens go to `deliver` (the app in process). */
async function provider(deliver: (request: Request) => Promise<Response>): Promise<DevIdp> {
  idp = await startIdp({
    consent: "auto",
    fetch: deliver,
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: PROVIDER_IDS.map((id) => `${APP}/api/auth/callback/${id}`),
        backchannel_logout_uri: BACKCHANNEL,
      },
    ],
  })
  return idp
}

function appConfig(running: DevIdp, adapter: Adapter, session: AuthConfig["session"], audits: AuditEvent[] = []): AuthConfig & { errors: string[] } {
  return e2eConfig([idpProvider(running, { backchannelLogout: true })], { adapter, session, events: { audit: (event) => void audits.push(event) } })
}

async function post(config: AuthConfig, body: URLSearchParams): Promise<Response> {
  return Auth(new Request(BACKCHANNEL, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }), config)
}

describe("back-channel logout", () => {
  it("ends a database session when the provider's session ends there, audited as a sessionRevoke (ASVS V16.3.1)", async () => {
    const adapter = MemoryAdapter()
    const running = await provider((request) => Auth(request, config))
    const audits: AuditEvent[] = []
    const config = appConfig(running, adapter, { strategy: "database" }, audits)
    const harness = new Harness(config)
    await harness.signIn()
    expect(await harness.session()).toMatchObject({ user: { email: "alice@example.com" } })

    await running.endSessions("alice")
    expect(running.backchannelLogouts).toEqual([expect.objectContaining({ clientId: CLIENT.id, sub: "alice", error: undefined })])
    expect(typeof running.backchannelLogouts[0]?.sid).toBe("string")
    expect(await harness.session()).toBeNull()
    const [signedIn, revoked] = audits
    expect(revoked).toEqual({ type: "sessionRevoke", outcome: "success", reason: "backchannelLogout", provider: signedIn?.provider, userId: signedIn?.userId, at: expect.any(Number) as number })
  })

  it("ends a JWT session on both instances: at once where every read looks, within the interval where reads look every second", async () => {
    const adapter = MemoryAdapter()
    const running = await provider((request) => Auth(request, first))
    const first = appConfig(running, adapter, { strategy: "jwt", revocationCheckInterval: 0 })
    const second = appConfig(running, adapter, { strategy: "jwt", revocationCheckInterval: 1 })
    const harness = new Harness(first)
    await harness.signIn()
    const cookie = harness.browser.cookies(`${APP}/`).map(({ name, value }) => `${name}=${value}`).join("; ")
    // The other instance reads the same cookie (same secret, same store): signed in, and now looked at.
    const onSecond = async (): Promise<unknown> => (await Auth(new Request(`${APP}/api/auth/session`, { headers: { cookie } }), second)).json()
    expect(await onSecond()).toMatchObject({ user: { email: "alice@example.com" } })

    await running.endSessions("alice")
    expect(running.backchannelLogouts.map((record) => record.error)).toEqual([undefined])
    expect(await harness.session()).toBeNull()
    // Within the second instance's interval it may still answer from what it saw; after it, never.
    // The interval is read from Date: move it past the second instead of sleeping through it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1100 })
    try {
      expect(await onSecond()).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it("answers 400 and ends nothing for each invalid token, and refuses a replayed jti, each audited (ASVS V16.3.1)", async () => {
    const adapter = MemoryAdapter()
    const running = await provider((request) => Auth(request, config))
    const audits: AuditEvent[] = []
    const config = appConfig(running, adapter, { strategy: "database" }, audits)
    const harness = new Harness(config)
    await harness.signIn()
    const now = Math.floor(Date.now() / 1000)
    const invalid = [
      running.logoutToken({ clientId: CLIENT.id, sub: "alice" }, { key: "foreign" }),
      running.logoutToken({ clientId: "someone-else", sub: "alice" }),
      running.logoutToken({ clientId: CLIENT.id, sub: "alice", nonce: "n" }),
      running.logoutToken({ clientId: CLIENT.id, sub: "alice", iat: now - 3600 }),
      running.logoutToken({ clientId: CLIENT.id, sub: "alice", events: undefined }),
      running.logoutToken({ clientId: CLIENT.id, sub: "alice" }, { alg: "none" }),
    ]
    for (const token of invalid) {
      const response = await post(config, new URLSearchParams({ logout_token: await token }))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: "InvalidLogoutToken" })
    }
    expect(await harness.session()).toMatchObject({ user: { email: "alice@example.com" } })

    const replayed = await running.logoutToken({ clientId: CLIENT.id, sub: "nobody-here", jti: "one-jti" })
    const first = await post(config, new URLSearchParams({ logout_token: replayed }))
    expect(first.status).toBe(200)
    expect(first.headers.get("cache-control")).toContain("no-store")
    expect((await post(config, new URLSearchParams({ logout_token: replayed }))).status).toBe(400)
    expect((await post(config, new URLSearchParams())).status).toBe(400)
    expect(await harness.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect(audits.slice(1).map((event) => [event.type, event.outcome, event.reason, event.userId])).toEqual([
      ...invalid.map(() => ["sessionRevoke", "failure", "invalidRequest", undefined]),
      ["sessionRevoke", "success", "backchannelLogout", undefined],
      ["sessionRevoke", "failure", "replayed", undefined],
      ["sessionRevoke", "failure", "invalidRequest", undefined],
    ])
  })

  it("ends only the sessions of the provider session a sid names", async () => {
    const adapter = MemoryAdapter()
    const running = await provider((request) => Auth(request, config))
    const config = appConfig(running, adapter, { strategy: "database" })
    const laptop = new Harness(config)
    const phone = new Harness(config)
    await laptop.signIn()
    await phone.signIn()
    const response = await post(config, new URLSearchParams({ logout_token: await running.logoutToken({ clientId: CLIENT.id, sub: "alice", sid: "not-a-session-of-ours" }) }))
    expect(response.status).toBe(200)
    expect(await laptop.session()).not.toBeNull()
    expect(await phone.session()).not.toBeNull()
  })

  it("ends the user's sessions from before the switch from Auth.js, read since or not, whose provider session it cannot tell", async () => {
    const adapter = MemoryAdapter()
    const running = await provider((request) => Auth(request, config))
    const config = e2eConfig([idpProvider(running, { backchannelLogout: true })], {
      adapter,
      session: { strategy: "jwt", revocationCheckInterval: 0 },
      legacySessionCookies: { until: new Date(Date.now() + 24 * 60 * 60 * 1000) },
    })
    const harness = new Harness(config)
    await harness.signIn()
    const userId = ((await harness.session()) as { user: { id: string } }).user.id
    // Sealed as Auth.js seals a session (its cookie name as the salt, no sessionId), for the same user.
    const preSwitch = async (): Promise<string> => `authjs.session-token=${await encode({ token: { sub: userId, email: "alice@example.com" }, secret: SECRET, salt: "authjs.session-token" })}`
    const read = (cookie: string): Promise<Response> => Auth(new Request(`${APP}/api/auth/session`, { headers: { cookie } }), config)
    const original = await preSwitch()
    const first = await read(original)
    expect(await first.json()).toMatchObject({ user: { id: userId } })
    // What the browser holds after that read: the session re-sealed with its record, or else the original.
    const moved = first.headers.getSetCookie().find((line) => line.startsWith("authjs.session-token=ey"))?.split(";")[0] ?? original
    const dormant = await preSwitch()

    await running.endSessions("alice")
    expect(running.backchannelLogouts.map((record) => record.error)).toEqual([undefined])
    expect(await harness.session()).toBeNull()
    expect(await (await read(moved)).json()).toBeNull()
    expect(await (await read(dormant)).json()).toBeNull()
  })

  it("signs in a credentials user the store does not keep, with a session record like any other", async () => {
    const { passwordProvider, PASSWORD, call, csrfToken, Jar } = await import("../helpers.js")
    const store = MemoryAdapter()
    const config = e2eConfig([passwordProvider()], { adapter: store, session: { strategy: "jwt" } })
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/callback/credentials", { method: "POST", form: { csrfToken: token, username: "ada", password: PASSWORD } })
    expect(response.headers.get("location")).not.toContain("error")
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await store.listSessionRecords({ userId: "user-ada" })).toEqual([expect.objectContaining({ userId: "user-ada", provider: "credentials", sessionToken: null, revokedAt: null })])
  })

  it("is refused at start without an adapter that keeps session records, naming what is missing", async () => {
    const running = await provider(() => Promise.resolve(new Response(null)))
    const noAdapter = e2eConfig([idpProvider(running, { backchannelLogout: true })])
    expect((await Auth(new Request(`${APP}/api/auth/providers`), noAdapter)).status).toBe(503)
    expect(noAdapter.errors.join("\n")).toMatch(/needs an `adapter` with session records/)
    const { useOnce: _useOnce, ...withoutUseOnce } = MemoryAdapter()
    const missing = e2eConfig([idpProvider(running, { backchannelLogout: true })], { adapter: withoutUseOnce })
    expect((await Auth(new Request(`${APP}/api/auth/providers`), missing)).status).toBe(503)
    expect(missing.errors.join("\n")).toMatch(/missing methods.*useOnce/)
  })
})
