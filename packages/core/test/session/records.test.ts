/**
 * Sessions that existed before the switch from Auth.js (moved by `legacySessionCookies`): a JWT
 * sealed as Auth.js seals it (its cookie name as the salt, no `sessionId`) and a database row
 * Auth.js wrote (no session record). Each gets one session record on its first read, whatever
 * the number of parallel reads, and is from then on listed and ended like any other session;
 * without a record after `until` (or without the option) it is refused. OWASP ASVS V7.4.5
 * (terminate all other active sessions) and V7.4.1 (a terminated session cannot be used again).
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import type { AdapterSessionRecord } from "../../src/adapters.js"
import { Auth } from "../../src/index.js"
import { encode } from "../../src/session/jwt.js"
import { revokeUserSessions } from "../../src/sessions.js"
import type { AuthConfig } from "../../src/types.js"
import { call, csrfToken, Jar, PASSWORD, passwordProvider, SECRET, setCookies, testConfig } from "../helpers.js"

const DAY = 24 * 60 * 60 * 1000
/** On http (the helpers' origin) Auth.js's cookie name is ours: only the missing record tells a pre-switch session. */
const COOKIE = "authjs.session-token"
const ADA = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" }

type Strategy = "jwt" | "database"

type App = AuthConfig & { store: ReturnType<typeof MemoryAdapter> }

function app(strategy: Strategy, overrides: Partial<AuthConfig> = {}): App {
  const store = MemoryAdapter({ users: [{ ...ADA, emailVerified: null }] })
  const config = testConfig({
    adapter: store,
    session: { strategy, revocationCheckInterval: 0 },
    providers: [passwordProvider({ authorize: ({ password }) => (password === PASSWORD ? ADA : null) })],
    legacySessionCookies: { until: new Date(Date.now() + 30 * DAY) },
    ...overrides,
  })
  return { ...config, store }
}

/** A browser Auth.js signed in before the switch: its JWT (sealed as Auth.js does) or its database row, under Auth.js's name. */
async function preSwitch(config: App, strategy: Strategy, name = COOKIE): Promise<Jar> {
  const jar = new Jar()
  if (strategy === "jwt") {
    jar.cookies.set(name, await encode({ token: { sub: ADA.id, name: ADA.name, email: ADA.email, picture: null }, secret: SECRET, salt: name }))
  } else {
    const sessionToken = crypto.randomUUID()
    await config.store.createSession({ sessionToken, userId: ADA.id, expires: new Date(Date.now() + 20 * DAY) })
    jar.cookies.set(name, sessionToken)
  }
  return jar
}

async function session(config: AuthConfig, jar: Jar): Promise<{ user?: { id?: string } } | null> {
  return (await (await call(config, jar, "/api/auth/session")).json()) as { user?: { id?: string } } | null
}

async function signIn(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
  expect(response.headers.get("location")).not.toContain("error")
  return jar
}

async function revoke(config: AuthConfig, jar: Jar, target: Record<string, unknown>): Promise<unknown> {
  const body = JSON.stringify({ ...target, csrfToken: await csrfToken(config, jar) })
  const response = await call(config, jar, "/api/auth/sessions/revoke", { method: "POST", headers: { "content-type": "application/json" }, body })
  expect(response.status).toBe(200)
  return response.json()
}

async function list(config: AuthConfig, jar: Jar): Promise<Array<{ id: string; current: boolean }>> {
  const response = await call(config, jar, "/api/auth/sessions")
  expect(response.status).toBe(200)
  return (await response.json()) as Array<{ id: string; current: boolean }>
}

async function records(config: App): Promise<AdapterSessionRecord[]> {
  return config.store.listSessionRecords({ userId: ADA.id })
}

describe.each(["jwt", "database"] as const)("a pre-switch %s session", (strategy) => {
  it("gets a session record on its first read and is listed by GET /sessions as the current session (ASVS V7.4.5)", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    expect(await session(config, jar)).toMatchObject({ user: { id: ADA.id } })
    expect(await records(config)).toHaveLength(1)
    const listed = await list(config, jar)
    expect(listed).toHaveLength(1)
    expect(listed[0]?.current).toBe(true)
    expect(await records(config)).toHaveLength(1)
  })

  it("parallel first reads carrying one legacy cookie create one record", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    const header = jar.header()
    const reads = await Promise.all(Array.from({ length: 8 }, () => call(config, Object.assign(new Jar(), { cookies: new Map(jar.cookies) }), "/api/auth/session")))
    for (const response of reads) expect(await response.json()).toMatchObject({ user: { id: ADA.id } })
    expect(jar.header()).toBe(header)
    expect(await records(config)).toHaveLength(1)
  })

  it("is ended by another device's `others: true`, and its cookie replayed afterwards is refused (ASVS V7.4.1)", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    const replay = new Map(jar.cookies)
    expect(await session(config, jar)).toMatchObject({ user: { id: ADA.id } })
    const laptop = await signIn(config)
    expect((await list(config, laptop)).map((entry) => entry.current)).toEqual([true, false])
    expect(await revoke(config, laptop, { others: true })).toEqual({ revoked: 1 })
    expect(await session(config, jar)).toBeNull()
    expect(await session(config, Object.assign(new Jar(), { cookies: replay }))).toBeNull()
    expect(await session(config, laptop)).toMatchObject({ user: { id: ADA.id } })
  })

  it("signing out on its first request ends it: a copy of its cookie is refused afterwards (ASVS V7.4.1)", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    const copy = Object.assign(new Jar(), { cookies: new Map(jar.cookies) })
    const response = await call(config, jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(config, jar) } })
    expect(response.status).toBe(302)
    expect(await session(config, copy)).toBeNull()
  })

  it("is ended by `all: true` from another device and by revokeUserSessions", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    expect(await session(config, jar)).toMatchObject({ user: { id: ADA.id } })
    const laptop = await signIn(config)
    expect(await revoke(config, laptop, { all: true })).toMatchObject({ revoked: 2 })
    expect(await session(config, jar)).toBeNull()

    const other = app(strategy)
    const again = await preSwitch(other, strategy)
    expect(await session(other, again)).toMatchObject({ user: { id: ADA.id } })
    expect(await revokeUserSessions(other, ADA.id)).toBe(1)
    expect(await session(other, again)).toBeNull()
  })

  it("not yet read when the user signs out everywhere is refused when it comes back (ASVS V7.4.5)", async () => {
    const config = app(strategy)
    const dormant = await preSwitch(config, strategy)
    const laptop = await signIn(config)
    await revoke(config, laptop, { others: true })
    expect(await session(config, dormant)).toBeNull()
    expect(await session(config, laptop)).toMatchObject({ user: { id: ADA.id } })
    // A new sign-in afterwards is not affected: only sessions from before the revocation are.
    expect(await session(config, await signIn(config))).toMatchObject({ user: { id: ADA.id } })
  })

  it("without a record is refused once `until` has passed, and without `legacySessionCookies`", async () => {
    for (const overrides of [{ legacySessionCookies: { until: new Date(Date.now() - 1000) } }, { legacySessionCookies: undefined }]) {
      const config = app(strategy, overrides)
      const jar = await preSwitch(config, strategy)
      expect(await session(config, jar)).toBeNull()
      expect(await records(config)).toEqual([])
    }
  })

  it("read once before `until` keeps its record after it, so a renewal never carries it on without one", async () => {
    const config = app(strategy)
    const jar = await preSwitch(config, strategy)
    expect(await session(config, jar)).toMatchObject({ user: { id: ADA.id } })
    const later = { ...config, legacySessionCookies: { until: new Date(Date.now() - 1000) } }
    expect(await session(later, jar)).toMatchObject({ user: { id: ADA.id } })
    expect(await revokeUserSessions(later, ADA.id)).toBe(1)
    expect(await session(later, jar)).toBeNull()
  })
})

describe("a pre-switch JWT session on https", () => {
  it("is moved from Auth.js's __Secure- cookie to our __Host- one, with a record naming it", async () => {
    const config = app("jwt")
    const jar = await preSwitch(config, "jwt", "__Secure-authjs.session-token")
    const read = () => Auth(new Request("https://app.example/api/auth/session", { headers: { cookie: jar.header() } }), config)
    const response = await read()
    jar.store(response)
    expect(await response.json()).toMatchObject({ user: { id: ADA.id } })
    expect(setCookies(response).get("__Secure-authjs.session-token")).toBe("")
    expect(jar.cookies.has("__Host-authjs.session-token")).toBe(true)
    expect(await records(config)).toHaveLength(1)
    expect(await revokeUserSessions(config, ADA.id)).toBe(1)
    expect(await (await read()).json()).toBeNull()
  })
})
