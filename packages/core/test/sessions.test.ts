// Listing and ending sessions through Auth(): GET /sessions and POST /sessions/revoke on both
// session strategies, with credentials users the store does not keep (every sign-in has a
// record), the server functions of @portcullis/core/sessions, and hostile requests.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import type { Adapter } from "../src/adapters.js"
import { listSessions, revokeSessions, revokeUserSessions } from "../src/sessions.js"
import { describeDevice } from "../src/session/device.js"
import type { AuthConfig } from "../src/types.js"
import { call, csrfToken, Jar, ORIGIN, PASSWORD, passwordProvider, setCookies, testConfig } from "./helpers.js"

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"

type Revoked = { userId: string; sessionId: string; reason: string }

type App = AuthConfig & { revoked: Revoked[]; errors: string[]; ada: string; store: Adapter }

/**
 * Two users, ada and bob. With JWT sessions the store does not keep them (`authorize` answers them
 * from elsewhere); database sessions need users the store keeps, so there they are stored first.
 */
async function config(strategy: "jwt" | "database", store: Adapter = MemoryAdapter()): Promise<App> {
  const revoked: Revoked[] = []
  const errors: string[] = []
  const users: Record<string, { id: string; name: string; email: string }> = {
    ada: { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" },
    bob: { id: "user-bob", name: "Bob", email: "bob@example.com" },
  }
  if (strategy === "database") {
    for (const [name, user] of Object.entries(users)) users[name] = { ...user, id: (await store.createUser?.({ ...user, emailVerified: null }))?.id ?? user.id }
  }
  return {
    ...testConfig({
      adapter: store,
      session: { strategy, revocationCheckInterval: 0 },
      providers: [passwordProvider({ authorize: ({ username, password }) => (password === PASSWORD ? (users[String(username)] ?? null) : null) })],
      events: { sessionRevoked: (message) => void revoked.push(message) },
      logger: { error: (error) => void errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    }),
    revoked,
    errors,
    ada: users.ada?.id ?? "",
    store,
  }
}

/** A device: a cookie jar and a user agent. */
class Device {
  readonly jar = new Jar()
  constructor(
    readonly config: AuthConfig,
    readonly agent: string,
  ) {}

  request(path: string, init: Parameters<typeof call>[3] = {}): Promise<Response> {
    return call(this.config, this.jar, path, { ...init, headers: { "user-agent": this.agent, ...init.headers } })
  }

  async signIn(username = "ada"): Promise<this> {
    const token = await csrfToken(this.config, this.jar)
    const response = await this.request("/api/auth/callback/credentials", { form: { csrfToken: token, username, password: PASSWORD } })
    expect(response.headers.get("location")).not.toContain("error")
    return this
  }

  async session(): Promise<unknown> {
    return (await this.request("/api/auth/session")).json()
  }

  async list(): Promise<Array<Record<string, unknown>>> {
    const response = await this.request("/api/auth/sessions")
    expect(response.status).toBe(200)
    return (await response.json()) as Array<Record<string, unknown>>
  }

  async revoke(body: Record<string, unknown>, csrf = true): Promise<Response> {
    const token = csrf ? await csrfToken(this.config, this.jar) : undefined
    return this.request("/api/auth/sessions/revoke", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, csrfToken: token }) })
  }
}

describe.each(["jwt", "database"] as const)("sessions (%s strategy)", (strategy) => {
  it("lists the user's sessions on every device: opaque ids, times, device, provider, which is current; never a token", async () => {
    const store = MemoryAdapter()
    const app = await config(strategy, store)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    await new Device(app, FIREFOX_LINUX).signIn("bob")

    const listed = await laptop.list()
    expect(listed).toHaveLength(2)
    expect(listed[0]).toMatchObject({ current: true, device: "Chrome on macOS", clientAddress: null, provider: { id: "credentials", name: "Password" } })
    expect(listed[1]).toMatchObject({ current: false, device: "Safari on iPhone" })
    for (const entry of listed) {
      expect(Object.keys(entry).sort()).toEqual(["clientAddress", "createdAt", "current", "device", "expires", "id", "lastSeenAt", "provider"])
      for (const time of [entry.createdAt, entry.lastSeenAt, entry.expires]) expect(new Date(String(time)).toISOString()).toBe(time)
    }
    const text = JSON.stringify(listed)
    for (const cookie of [...laptop.jar.cookies.values(), ...phone.jar.cookies.values()]) expect(text).not.toContain(cookie)
    expect((await phone.list()).map((entry) => entry.current)).toEqual([true, false])
    expect(await store.listSessionRecords({ userId: app.ada })).toHaveLength(2)
  })

  it("lists the client address each session signed in from, as the per-client limits see it (an IPv6 client by its /64)", async () => {
    const app = await config(strategy)
    const hooked: AuthConfig = { ...app, clientAddress: (request) => request.headers.get("x-test-client") ?? undefined }
    const laptop = new Device(hooked, CHROME_MAC)
    const token = await csrfToken(hooked, laptop.jar)
    await laptop.request("/api/auth/callback/credentials", { form: { csrfToken: token, username: "ada", password: PASSWORD }, headers: { "x-test-client": "2001:db8:1:2:aaaa::7" } })
    const phone = new Device(hooked, SAFARI_IPHONE)
    const phoneToken = await csrfToken(hooked, phone.jar)
    await phone.request("/api/auth/callback/credentials", { form: { csrfToken: phoneToken, username: "ada", password: PASSWORD }, headers: { "x-test-client": "not an address" } })
    const listed = await laptop.list()
    expect(listed.map((entry) => entry.clientAddress)).toEqual(["2001:db8:1:2::/64", null])
  })

  it("ends another device's session by its id: refused on that device's next request, with a sessionRevoked event", async () => {
    const app = await config(strategy)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    const other = (await laptop.list()).find((entry) => entry.current === false)
    const response = await laptop.revoke({ id: other?.id })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ revoked: 1 })
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(app.revoked).toEqual([{ userId: app.ada, sessionId: other?.id, reason: "revoked" }])
    expect((await laptop.list()).map((entry) => entry.current)).toEqual([true])
    // Again: nothing left to end.
    expect(await (await laptop.revoke({ id: other?.id })).json()).toEqual({ revoked: 0 })
  })

  it("answers revoked: 0 for another user's session id or an unknown one, and ends nothing", async () => {
    const app = await config(strategy)
    const ada = await new Device(app, CHROME_MAC).signIn()
    const bob = await new Device(app, FIREFOX_LINUX).signIn("bob")
    const bobs = (await bob.list())[0]?.id
    const foreign = await ada.revoke({ id: bobs })
    const unknown = await ada.revoke({ id: "no-such-session" })
    expect([foreign.status, unknown.status]).toEqual([200, 200])
    expect(await foreign.json()).toEqual(await unknown.json())
    expect(await bob.session()).toMatchObject({ user: { name: "Bob" } })
    expect(app.revoked).toEqual([])
  })

  it("ends every other session with others: true, keeping this one", async () => {
    const app = await config(strategy)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    const tablet = await new Device(app, FIREFOX_LINUX).signIn()
    expect(await (await laptop.revoke({ others: true })).json()).toEqual({ revoked: 2 })
    expect(await phone.session()).toBeNull()
    expect(await tablet.session()).toBeNull()
    expect(await laptop.session()).not.toBeNull()
    expect(app.revoked.map((event) => event.reason)).toEqual(["revoked", "revoked"])
  })

  it("signs out everywhere with all: true, this session included (its cookie cleared), to the callbackUrl", async () => {
    const app = await config(strategy)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    const response = await laptop.revoke({ all: true, callbackUrl: "/goodbye" })
    expect(await response.json()).toEqual({ revoked: 2, url: `${ORIGIN}/goodbye` })
    expect([...setCookies(response)].filter(([name]) => name.includes("session-token"))).toEqual([[expect.stringContaining("session-token"), ""]])
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
    expect(app.revoked.map((event) => event.reason).sort()).toEqual(["signOut", "signOutEverywhere"])
  })

  it("ending this session by its own id signs this device out", async () => {
    const app = await config(strategy)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const mine = (await laptop.list())[0]?.id
    expect(await (await laptop.revoke({ id: mine })).json()).toEqual({ revoked: 1 })
    expect(await laptop.session()).toBeNull()
  })

  it("moves lastSeenAt on a read once it is five minutes old, not on every read", async () => {
    const store = MemoryAdapter()
    const app = await config(strategy, store)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const [record] = await store.listSessionRecords({ userId: app.ada })
    if (record === undefined) throw new Error("no record")
    const old = new Date(Date.now() - 10 * 60 * 1000)
    await store.updateSessionRecord({ id: record.id, lastSeenAt: old })
    await laptop.session()
    const seen = (await store.getSessionRecord(record.id))?.lastSeenAt
    if (strategy === "jwt") {
      // The revocation check's lookup carries it.
      expect(seen?.getTime()).toBeGreaterThan(Date.now() - 5_000)
    } else {
      // A database session writes it with its sliding expiry (once per updateAge): not yet.
      expect(seen).toEqual(old)
    }
    const recent = new Date(Date.now() - 60 * 1000)
    await store.updateSessionRecord({ id: record.id, lastSeenAt: recent })
    await laptop.session()
    expect((await store.getSessionRecord(record.id))?.lastSeenAt).toEqual(recent)
  })

  it("answers the server functions as the routes do, and revokeUserSessions ends every session of a user", async () => {
    const app = await config(strategy)
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    const request = (device: Device) => new Request(`${ORIGIN}/page`, { headers: { cookie: device.jar.header() } })
    const listed = await listSessions(request(laptop), app)
    expect(listed?.map((entry) => [entry.device, entry.current])).toEqual([["Chrome on macOS", true], ["Safari on iPhone", false]])
    expect(await listSessions(new Request(`${ORIGIN}/page`), app)).toBeNull()
    expect(await revokeSessions(request(laptop), app, { others: true })).toEqual({ revoked: 1 })
    expect(await phone.session()).toBeNull()
    await expect(revokeSessions(request(laptop), app, { id: 42 } as never)).rejects.toMatchObject({ code: "UnknownAction" })
    const cookies: string[] = []
    const everywhere = await revokeSessions(request(laptop), app, { all: true }, (cookie) => cookies.push(cookie), { redirectTo: "/bye" })
    expect(everywhere).toEqual({ revoked: 1, url: `${ORIGIN}/bye` })
    expect(cookies.some((cookie) => cookie.includes("session-token=;"))).toBe(true)

    const again = await new Device(app, CHROME_MAC).signIn()
    await new Device(app, FIREFOX_LINUX).signIn()
    expect(await revokeUserSessions(app, app.ada)).toBe(2)
    expect(await again.session()).toBeNull()
    expect(app.revoked.filter((event) => event.reason === "admin")).toHaveLength(2)
    expect(await revokeUserSessions(app, "nobody")).toBe(0)
  })
})

describe("sessions routes, hostile requests", () => {
  it("answers 401 SignInRequired when signed out, to both routes", async () => {
    const app = await config("jwt")
    const device = new Device(app, CHROME_MAC)
    const listed = await device.request("/api/auth/sessions")
    expect(listed.status).toBe(401)
    expect(await listed.json()).toMatchObject({ error: "SignInRequired" })
    const revoked = await device.revoke({ others: true })
    expect(revoked.status).toBe(401)
    expect(await revoked.json()).toMatchObject({ error: "SignInRequired" })
  })

  it("refuses a revocation without the CSRF token (403), ending nothing", async () => {
    const app = await config("database")
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const phone = await new Device(app, SAFARI_IPHONE).signIn()
    const response = await laptop.revoke({ others: true }, false)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
    const forged = await laptop.request("/api/auth/sessions/revoke", { form: { csrfToken: "forged", others: "true" } })
    expect(forged.status).toBe(403)
    expect(await phone.session()).not.toBeNull()
  })

  it("answers 400 for a target of the wrong type or shape, never 500", async () => {
    const app = await config("jwt")
    const laptop = await new Device(app, CHROME_MAC).signIn()
    const bodies: Record<string, unknown>[] = [
      {},
      { id: 42 },
      { id: ["a"] },
      { id: { $ne: null } },
      { id: "" },
      { id: "x".repeat(10_000) },
      { others: false },
      { others: "yes" },
      { all: 1 },
      { id: "a", others: true },
      { others: true, all: true },
    ]
    for (const body of bodies) {
      const response = await laptop.revoke(body)
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(await response.json()).toMatchObject({ error: "UnknownAction" })
    }
    for (const raw of ["[1,2]", "null", "not json", '"others"']) {
      const response = await laptop.request("/api/auth/sessions/revoke", { method: "POST", headers: { "content-type": "application/json" }, body: raw })
      expect(response.status).toBe(400)
    }
    const huge = await laptop.request("/api/auth/sessions/revoke", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "a".repeat(2_000_000) }) })
    expect(huge.status).toBe(400)
    expect(app.revoked).toEqual([])
  })

  it("answers wrong methods and paths with 405 and 404", async () => {
    const app = await config("jwt")
    const device = await new Device(app, CHROME_MAC).signIn()
    const postList = await device.request("/api/auth/sessions", { method: "POST", form: { others: "true" } })
    expect(postList.status).toBe(405)
    expect(postList.headers.get("allow")).toBe("GET, HEAD")
    const getRevoke = await device.request("/api/auth/sessions/revoke")
    expect(getRevoke.status).toBe(405)
    expect(getRevoke.headers.get("allow")).toBe("POST")
    expect((await device.request("/api/auth/sessions/elsewhere")).status).toBe(404)
  })

  it("answers 503 Configuration from these routes only, for an adapter without session records or no adapter", async () => {
    const store = MemoryAdapter()
    const { createSessionRecord: _c, getSessionRecord: _g, listSessionRecords: _l, updateSessionRecord: _u, useOnce: _o, ...authJsLike } = store
    for (const adapter of [authJsLike, undefined]) {
      const app = await config("jwt", adapter)
      if (adapter === undefined) delete app.adapter
      const device = await new Device(app, CHROME_MAC).signIn()
      expect(await device.session()).toMatchObject({ user: { name: "Ada Lovelace" } })
      const response = await device.request("/api/auth/sessions")
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ error: "Configuration" })
      expect(app.errors.join("\n")).toMatch(adapter === undefined ? /needs an adapter that keeps session records: add an adapter/ : /add the adapter methods createSessionRecord, getSessionRecord, listSessionRecords, updateSessionRecord, useOnce/)
      await expect(listSessions(new Request(`${ORIGIN}/`, { headers: { cookie: device.jar.header() } }), app)).rejects.toMatchObject({ code: "Configuration" })
      await expect(revokeUserSessions(app, app.ada)).rejects.toMatchObject({ code: "Configuration" })
    }
  })
})

describe("describeDevice", () => {
  it.each([
    [CHROME_MAC, "Chrome on macOS"],
    [SAFARI_IPHONE, "Safari on iPhone"],
    [FIREFOX_LINUX, "Firefox on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
    ["Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1", "Chrome on iPad"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
    ["curl/8.5.0", "Unknown device"],
    ["<script>alert(1)</script> Firefox/1", "Firefox"],
    ["", "Unknown device"],
    [null, "Unknown device"],
  ])("%s is %s", (agent, expected) => {
    expect(describeDevice(agent)).toBe(expected)
  })

  it("answers fast for a long hostile user agent", () => {
    const started = performance.now()
    describeDevice(`Version/1 ${"a ".repeat(100_000)}`)
    expect(performance.now() - started).toBeLessThan(100)
  })
})
