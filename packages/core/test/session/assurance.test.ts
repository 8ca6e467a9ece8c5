/**
 * `session.assurance` (issue 37, stage 1): how the user authenticated, how strongly, when last and
 * since when, on every session, JWT and database alike; kept where no `jwt` / `session` callback
 * and no `update()` reach it; given to sessions that predate it without signing anyone out; raised
 * by a re-authentication; and the one recent-authentication check.
 */
import { decode as authjsDecode, encode as authjsEncode } from "authjs-core/jwt"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { getSession } from "../../src/index.js"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import type { SessionAssurance } from "../../src/model.js"
import { isRecentAuth } from "../../src/session/assurance.js"
import { decode } from "../../src/session/jwt.js"
import { raiseAssurance } from "../../src/session/start.js"
import { revokeUserSessions } from "../../src/sessions.js"
import type { AuthConfig, JWT, Session } from "../../src/types.js"
import { Jar, ORIGIN, SECRET, call, clockAt, csrfToken, passwordProvider, sessionOf, signInWithPassword, storeSession, testConfig } from "../helpers.js"

const NAME = "authjs.session-token"
const ADA = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)
const seconds = (ms: number): number => Math.floor(ms / 1000)
const HOUR = 3_600_000
/** A claim's tag: some MAC (its checking is tested by the attacks on it). */
const TAGGED: unknown = expect.any(String)

afterEach(() => {
  vi.useRealTimers()
})

const signIn = signInWithPassword

async function update(config: AuthConfig, jar: Jar, data: unknown): Promise<Session | null> {
  const body = JSON.stringify({ csrfToken: await csrfToken(config, jar), data })
  const response = await call(config, jar, "/api/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body })
  expect(response.status).toBe(200)
  return (await response.json()) as Session | null
}

async function claims(jar: Jar): Promise<JWT> {
  const token = await decode({ token: jar.cookies.get(NAME), secret: SECRET, salt: NAME })
  if (token === null) throw new Error("no session cookie")
  return token
}

function requestWith(jar: Jar): Request {
  return new Request(new URL("/api/auth/session", ORIGIN), { headers: { cookie: jar.header() } })
}

/** Calls `raiseAssurance` as a later route would, and keeps the cookies it queues in `jar`. */
async function raise(config: AuthConfig, jar: Jar, add: string[], how: "add" | "proved" = "add"): Promise<SessionAssurance | null> {
  const url = new URL("/api/auth/session", ORIGIN)
  const context = createContext(await resolveConfig(config), requestWith(jar), url)
  const raised = await raiseAssurance(context, how === "add" ? { add } : { proved: add })
  for (const cookie of context.setCookies) {
    if (cookie.value === "") jar.cookies.delete(cookie.name)
    else jar.cookies.set(cookie.name, cookie.value)
  }
  return raised
}

/** A `{ ...token, ...session }` jwt callback and a `{ ...session, ...newSession }` session callback: the careless pair. */
function spreadingCallbacks(): AuthConfig["callbacks"] {
  return {
    jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token),
    session: ({ session, newSession }) => ({ ...session, ...(typeof newSession === "object" ? newSession : {}) }),
  }
}

const FORGED = { assurance: { level: 2, methods: ["pwd", "otp", "mfa"], authTime: seconds(T0) + 60, signedInAt: 1 }, sessionId: "someone-elses" }

describe("isRecentAuth", () => {
  const at = (authTime: number, level: 1 | 2 = 1): SessionAssurance => ({ level, methods: level === 2 ? ["pwd", "otp", "mfa"] : ["pwd"], authTime, signedInAt: 1000 })

  it("is true within maxAge (default 600 s, session.reauthAge's default) and false after it (NIST SP 800-63B rev 4 §2.2.3 re-authentication)", () => {
    expect(isRecentAuth(at(10_000), {}, 10_600)).toBe(true)
    expect(isRecentAuth(at(10_000), {}, 10_601)).toBe(false)
    expect(isRecentAuth(at(10_000), { maxAge: 60 }, 10_060)).toBe(true)
    expect(isRecentAuth(at(10_000), { maxAge: 60 }, 10_061)).toBe(false)
  })

  it("asks for the level too: a level-1 session is never recent enough for level 2", () => {
    expect(isRecentAuth(at(10_000, 1), { level: 2 }, 10_001)).toBe(false)
    expect(isRecentAuth(at(10_000, 2), { level: 2 }, 10_001)).toBe(true)
    expect(isRecentAuth(at(10_000, 2), { level: 1 }, 10_001)).toBe(true)
  })

  it("is false for a session that predates the assurance (authTime 0), and for a time ahead of the clock beyond 15 s of skew", () => {
    expect(isRecentAuth(at(0), { maxAge: Number.MAX_SAFE_INTEGER }, 10)).toBe(false)
    expect(isRecentAuth(at(10_015), {}, 10_000)).toBe(true)
    expect(isRecentAuth(at(10_016), {}, 10_000)).toBe(false)
  })
})

describe("session.reauthAge", () => {
  it("defaults to 600 seconds and is refused with a Configuration error naming it when not a positive number", async () => {
    expect((await resolveConfig(testConfig())).session.reauthAge).toBe(600)
    expect((await resolveConfig(testConfig({ session: { reauthAge: 120 } }))).session.reauthAge).toBe(120)
    for (const reauthAge of [0, -1, "600", Number.NaN]) {
      await expect(resolveConfig(testConfig({ session: { reauthAge } as never }))).rejects.toThrow("`session.reauthAge` must be a positive number of seconds.")
    }
  })
})

describe("session.assurance on a JWT session", () => {
  it("after a credentials sign-in: level 1, methods [pwd], authTime and signedInAt the sign-in, on GET /session, getSession() and the session callback", async () => {
    clockAt(T0)
    const seen: unknown[] = []
    const config = testConfig({ providers: [passwordProvider()], callbacks: { session: ({ session }) => (seen.push(session.assurance), session) } })
    const jar = await signIn(config)
    const expected = { level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) }
    expect((await sessionOf(config, jar))?.assurance).toEqual(expected)
    expect((await getSession(requestWith(jar), config))?.assurance).toEqual(expected)
    expect(seen).toEqual([expected, expected])
    // The claim the cookie carries, which Auth.js's own decode opens too, tagged by core.
    expect((await authjsDecode({ token: jar.cookies.get(NAME), secret: SECRET, salt: NAME }))?.assurance).toEqual({ ...expected, tag: TAGGED })
  })

  it("attack: update() posting { assurance: { level: 2, authTime: now } } through `{ ...token, ...session }` callbacks gets nothing (reserved claims, ASVS V7.2.4)", async () => {
    clockAt(T0)
    const config = testConfig({ adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [passwordProvider()], callbacks: spreadingCallbacks() })
    const jar = await signIn(config)
    const before = await claims(jar)
    const answered = await update(config, jar, FORGED)
    const expected = { level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) }
    expect(answered?.assurance).toEqual(expected)
    expect((await sessionOf(config, jar))?.assurance).toEqual(expected)
    const after = await claims(jar)
    expect(after.assurance).toEqual({ ...expected, tag: (before.assurance as { tag: string }).tag })
    expect(after.sessionId).toBe(before.sessionId)
  })

  it("attack: a jwt callback that deletes sessionId and rewrites assurance, at sign-in and on every read, changes neither", async () => {
    clockAt(T0)
    const config = testConfig({
      adapter: MemoryAdapter(),
      session: { strategy: "jwt", revocationCheckInterval: 0 },
      providers: [passwordProvider()],
      callbacks: {
        jwt: ({ token }) => {
          const { sessionId: _dropped, ...rest } = token
          return { ...rest, assurance: FORGED.assurance }
        },
      },
    })
    const jar = await signIn(config)
    expect((await claims(jar)).assurance).toMatchObject({ level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) })
    expect((await sessionOf(config, jar))?.assurance).toMatchObject({ level: 1, methods: ["pwd"] })
    expect(typeof (await claims(jar)).sessionId).toBe("string")
    // Still revocable: the record the cookie names is the one the sign-in made.
    expect(await revokeUserSessions(config, ADA.id)).toBe(1)
    expect(await sessionOf(config, jar)).toBeNull()
  })

  it("signedInAt never moves: a renewal after updateAge and an update() keep it, and authTime with it", async () => {
    clockAt(T0)
    const config = testConfig({ providers: [passwordProvider()], session: { updateAge: 60 }, callbacks: spreadingCallbacks() })
    const jar = await signIn(config)
    const sealed = jar.cookies.get(NAME)
    clockAt(T0 + 2 * HOUR)
    expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) })
    expect(jar.cookies.get(NAME)).not.toBe(sealed)
    await update(config, jar, { theme: "dark" })
    expect((await claims(jar)).assurance).toMatchObject({ level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) })
  })
})

describe("a session that predates the assurance", () => {
  it("sealed by Auth.js: level 1, no methods, authTime 0, signedInAt its first read, re-sealed at once; the new cookie opens with Auth.js's decode", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const jar = new Jar()
    jar.cookies.set(NAME, await authjsEncode({ token: { sub: ADA.id, name: ADA.name, email: ADA.email }, secret: SECRET, salt: NAME }))
    clockAt(T0)
    const first = { level: 1, methods: [], authTime: 0, signedInAt: seconds(T0) }
    const response = await call(config, jar, "/api/auth/session")
    expect(((await response.json()) as Session).assurance).toEqual(first)
    expect(response.headers.getSetCookie().some((header) => header.startsWith(`${NAME}=`))).toBe(true)
    expect(await authjsDecode({ token: jar.cookies.get(NAME), secret: SECRET, salt: NAME })).toMatchObject({ sub: ADA.id, assurance: first })
    clockAt(T0 + HOUR)
    expect((await sessionOf(config, jar))?.assurance).toEqual(first)
  })

  it("attack: an assurance claim sealed before the upgrade (as a `{ ...token, ...session }` callback sealed what update() posted) counts for nothing", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const jar = new Jar()
    clockAt(T0)
    const planted = { level: 2, methods: ["pwd", "otp", "mfa"], authTime: seconds(T0), signedInAt: seconds(T0) - 60, tag: "forged" }
    for (const assurance of [planted, { level: 2, methods: ["mfa"], authTime: seconds(T0), signedInAt: 1 }]) {
      jar.cookies.set(NAME, await authjsEncode({ token: { sub: ADA.id, assurance }, secret: SECRET, salt: NAME }))
      expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: [], authTime: 0, signedInAt: seconds(T0) })
    }
    // A tag core made, on a claim changed beside it (a level its methods do not make, an added field), does not check.
    const genuine = (await claims(await signIn(config))).assurance as Record<string, unknown>
    for (const changed of [{ ...genuine, level: 2 }, { ...genuine, extra: true }]) {
      jar.cookies.set(NAME, await authjsEncode({ token: { sub: ADA.id, assurance: changed }, secret: SECRET, salt: NAME }))
      expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: [], authTime: 0, signedInAt: seconds(T0) })
    }
    // A tag made under another secret does not check either.
    const other = testConfig({ secret: "QW5vdGhlciBzZWNyZXQgb2YgdGhpcnR5LXR3byBieXRlcyE=", providers: [passwordProvider()] })
    const elsewhere = await signIn(other)
    const foreign = await decode({ token: elsewhere.cookies.get(NAME), secret: "QW5vdGhlciBzZWNyZXQgb2YgdGhpcnR5LXR3byBieXRlcyE=", salt: NAME })
    jar.cookies.set(NAME, await authjsEncode({ token: { sub: ADA.id, assurance: foreign?.assurance }, secret: SECRET, salt: NAME }))
    expect((await sessionOf(config, jar))?.assurance).toMatchObject({ methods: [], authTime: 0 })
  })

  it("sealed by this package before the change (a sessionId, no assurance) keeps its record and gets the same", async () => {
    const adapter = MemoryAdapter()
    const config = testConfig({ adapter, session: { strategy: "jwt", revocationCheckInterval: 0 }, providers: [passwordProvider()] })
    clockAt(T0)
    const jar = await signIn(config)
    const { assurance: _new, ...older } = await claims(jar)
    const { iat: _iat, exp: _exp, jti: _jti, ...kept } = older
    jar.cookies.set(NAME, await authjsEncode({ token: kept, secret: SECRET, salt: NAME }))
    clockAt(T0 + HOUR)
    expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: [], authTime: 0, signedInAt: seconds(T0 + HOUR) })
    expect((await claims(jar)).sessionId).toBe(older.sessionId)
    expect((await claims(jar)).assurance).toMatchObject({ signedInAt: seconds(T0 + HOUR), tag: TAGGED })
  })

  it("an Auth.js database row gets a record holding signedInAt its first read (level 1, no methods), which later reads keep", async () => {
    const adapter = MemoryAdapter({ users: [ADA] })
    await adapter.createSession({ sessionToken: "authjs-row", userId: ADA.id, expires: new Date(T0 + 10 * 24 * HOUR) })
    const config = testConfig({ adapter, session: { strategy: "database" }, providers: [], legacySessionCookies: { until: new Date(T0 + 30 * 24 * HOUR) } })
    const jar = new Jar()
    jar.cookies.set(NAME, "authjs-row")
    clockAt(T0)
    const first = { level: 1, methods: [], authTime: 0, signedInAt: seconds(T0) }
    expect((await sessionOf(config, jar))?.assurance).toEqual(first)
    const [record] = await adapter.listSessionRecords({ userId: ADA.id })
    expect(record).toMatchObject({ sessionToken: "authjs-row", signedInAt: new Date(T0), authTime: null, authMethods: [] })
    clockAt(T0 + HOUR)
    expect((await sessionOf(config, jar))?.assurance).toEqual(first)
  })

  it("a database session whose record predates the fields gets them on its first read, stored at once", async () => {
    const adapter = MemoryAdapter({ users: [ADA] })
    await storeSession(adapter, { sessionToken: "ours-row", userId: ADA.id, expires: new Date(T0 + 10 * 24 * HOUR) })
    const config = testConfig({ adapter, session: { strategy: "database" }, providers: [] })
    const jar = new Jar()
    jar.cookies.set(NAME, "ours-row")
    clockAt(T0)
    expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: [], authTime: 0, signedInAt: seconds(T0) })
    expect(await adapter.getSessionRecord("record-ours-row")).toMatchObject({ signedInAt: new Date(T0), authTime: null, authMethods: [] })
  })
})

describe("session.assurance on a database session", () => {
  it("lives on the session record, and update() through a `{ ...session, ...newSession }` callback cannot change it", async () => {
    clockAt(T0)
    const adapter = MemoryAdapter({ users: [ADA] })
    const config = testConfig({ adapter, session: { strategy: "database" }, providers: [passwordProvider()], callbacks: spreadingCallbacks() })
    const jar = await signIn(config)
    const expected = { level: 1, methods: ["pwd"], authTime: seconds(T0), signedInAt: seconds(T0) }
    expect((await sessionOf(config, jar))?.assurance).toEqual(expected)
    const [record] = await adapter.listSessionRecords({ userId: ADA.id })
    expect(record).toMatchObject({ signedInAt: new Date(T0), authTime: new Date(T0), authMethods: ["pwd"] })
    expect((await update(config, jar, FORGED))?.assurance).toEqual(expected)
    expect((await getSession(requestWith(jar), config))?.assurance).toEqual(expected)
  })

  it("adds no store call to a read: after the first, each read within revocationCheckInterval calls getSessionAndUser alone", async () => {
    clockAt(T0)
    const memory = MemoryAdapter({ users: [ADA] })
    const calls: string[] = []
    const counted = Object.fromEntries(
      Object.entries(memory).map(([name, method]) => [name, (...args: unknown[]) => (calls.push(name), (method as (...a: unknown[]) => unknown)(...args))]),
    ) as typeof memory
    const config = testConfig({ adapter: counted, session: { strategy: "database" }, providers: [passwordProvider()] })
    const jar = await signIn(config)
    await sessionOf(config, jar)
    calls.length = 0
    clockAt(T0 + 20_000)
    for (let read = 0; read < 3; read++) expect((await sessionOf(config, jar))?.assurance).toMatchObject({ methods: ["pwd"] })
    expect(calls).toEqual(["getSessionAndUser", "getSessionAndUser", "getSessionAndUser"])
  })

  it("with an adapter that keeps no session records: the lowest, its times unknown (0)", async () => {
    const { createSessionRecord: _c, getSessionRecord: _g, listSessionRecords: _l, updateSessionRecord: _u, useOnce: _o, ...plain } = MemoryAdapter({ users: [ADA] })
    const config = testConfig({ adapter: plain, session: { strategy: "database" }, providers: [passwordProvider()] })
    const jar = await signIn(config)
    expect((await sessionOf(config, jar))?.assurance).toEqual({ level: 1, methods: [], authTime: 0, signedInAt: 0 })
  })
})

describe("raiseAssurance", () => {
  it("JWT: adds the methods, reaches level 2 with mfa, moves authTime, keeps signedInAt and the session id", async () => {
    clockAt(T0)
    const config = testConfig({ adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [passwordProvider()] })
    const jar = await signIn(config)
    const { sessionId } = await claims(jar)
    clockAt(T0 + HOUR)
    const raised: SessionAssurance = { level: 2, methods: ["pwd", "otp", "mfa"], authTime: seconds(T0 + HOUR), signedInAt: seconds(T0) }
    expect(await raise(config, jar, ["otp", "mfa"])).toEqual(raised)
    expect((await sessionOf(config, jar))?.assurance).toEqual(raised)
    expect(await claims(jar)).toMatchObject({ sessionId, assurance: { ...raised, tag: TAGGED } })
    expect(isRecentAuth(raised, { maxAge: 600, level: 2 }, seconds(T0 + HOUR) + 600)).toBe(true)
  })

  it("database: updates the record; another instance sees it once revocationCheckInterval has passed", async () => {
    clockAt(T0)
    const adapter = MemoryAdapter({ users: [ADA] })
    const config = testConfig({ adapter, session: { strategy: "database" }, providers: [passwordProvider()] })
    // Another instance: its own caches, the same store.
    const other = testConfig({ adapter: { ...adapter }, session: { strategy: "database" }, providers: [passwordProvider()] })
    const jar = await signIn(config)
    expect((await sessionOf(other, jar))?.assurance).toMatchObject({ methods: ["pwd"] })
    clockAt(T0 + HOUR)
    const raised: SessionAssurance = { level: 2, methods: ["pwd", "otp", "mfa"], authTime: seconds(T0 + HOUR), signedInAt: seconds(T0) }
    expect(await raise(config, jar, ["otp", "mfa"])).toEqual(raised)
    expect((await sessionOf(config, jar))?.assurance).toEqual(raised)
    const [record] = await adapter.listSessionRecords({ userId: ADA.id })
    expect(record).toMatchObject({ signedInAt: new Date(T0), authTime: new Date(T0 + HOUR), authMethods: ["pwd", "otp", "mfa"] })
    clockAt(T0 + HOUR + 31_000)
    expect((await sessionOf(other, jar))?.assurance).toEqual(raised)
  })

  it("V7.5.1: a re-authentication's proof replaces the methods: a password after a second factor is level 1 again, so a level-2 check does not pass on it", async () => {
    clockAt(T0)
    const config = testConfig({ adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: [passwordProvider()] })
    const jar = await signIn(config)
    expect(await raise(config, jar, ["otp", "mfa"])).toMatchObject({ level: 2 })
    clockAt(T0 + HOUR)
    const reproved: SessionAssurance = { level: 1, methods: ["pwd"], authTime: seconds(T0 + HOUR), signedInAt: seconds(T0) }
    expect(await raise(config, jar, ["pwd"], "proved")).toEqual(reproved)
    expect((await sessionOf(config, jar))?.assurance).toEqual(reproved)
    expect(isRecentAuth(reproved, { level: 2 }, seconds(T0 + HOUR))).toBe(false)
  })

  it("answers null for a request without a session", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    expect(await raise(config, new Jar(), ["otp", "mfa"])).toBeNull()
  })
})
