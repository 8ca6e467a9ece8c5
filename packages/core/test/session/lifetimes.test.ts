/**
 * Sessions that end (issue 38, stage 1): `session.absoluteMaxAge` ends a session that long after
 * its sign-in however often it is used, renewed or re-authenticated, and `session.idleTimeout`
 * ends one left unread that long; JWT and database alike, their records revoked with the reason.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import { encode } from "../../src/session/jwt.js"
import { raiseAssurance } from "../../src/session/start.js"
import type { AuthConfig, SessionRevocationReason } from "../../src/types.js"
import { Jar, ORIGIN, SECRET, clockAt, configError, passwordProvider, sessionOf, signInWithPassword, testConfig } from "../helpers.js"

const NAME = "authjs.session-token"
const ADA = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0)
const MINUTE = 60_000
const HOUR = 60 * MINUTE

afterEach(() => {
  vi.useRealTimers()
})

/** Re-authenticates the session's user as the re-authentication page will (`raiseAssurance`), keeping its cookies. */
async function reauthenticate(config: AuthConfig, jar: Jar): Promise<void> {
  const url = new URL("/api/auth/session", ORIGIN)
  const context = createContext(await resolveConfig(config), new Request(url, { headers: { cookie: jar.header() } }), url)
  expect(await raiseAssurance(context, { add: ["pwd"] })).not.toBeNull()
  jar.store(new Response(null, { headers: context.setCookies.map((cookie) => ["set-cookie", `${cookie.name}=${cookie.value}`] as [string, string]) }))
}

/** The configuration under test, with the store (database) and the revocations it reports. */
function setup(mode: "jwt" | "jwt with records" | "database", session: AuthConfig["session"]) {
  const adapter = MemoryAdapter({ users: [ADA] })
  const revoked: SessionRevocationReason[] = []
  const config = testConfig({
    providers: [passwordProvider()],
    ...(mode === "jwt" ? {} : { adapter }),
    session: { strategy: mode === "database" ? "database" : "jwt", ...session },
    events: { sessionRevoked: ({ reason }) => void revoked.push(reason) },
  })
  return { config, adapter, revoked }
}

describe.each(["jwt", "jwt with records", "database"] as const)("session.absoluteMaxAge (%s)", (strategy) => {
  it("V7.3.2: a session used every 4 minutes, renewed and re-authenticated, is refused at absoluteMaxAge + 1 s", async () => {
    const { config, adapter, revoked } = setup(strategy, { absoluteMaxAge: HOUR / 1000, updateAge: 300 })
    clockAt(T0)
    const jar = await signInWithPassword(config)
    for (let at = 4 * MINUTE; at < HOUR; at += 4 * MINUTE) {
      clockAt(T0 + at)
      expect((await sessionOf(config, jar))?.user?.email, `read at ${String(at / MINUTE)} min`).toBe("ada@example.com")
      if (at === 32 * MINUTE) await reauthenticate(config, jar)
    }
    clockAt(T0 + HOUR - 1000)
    expect(await sessionOf(config, jar)).not.toBeNull()
    clockAt(T0 + HOUR + 1000)
    expect(await sessionOf(config, jar)).toBeNull()
    expect(jar.cookies.has(NAME)).toBe(false)
    if (strategy !== "jwt") {
      // Revoked with its reason: a copy of the cookie is refused on every instance too.
      expect(revoked).toEqual(["expired"])
      const [record] = await adapter.listSessionRecords({ userId: ADA.id })
      expect(record?.revokedAt).toEqual(new Date(T0 + HOUR + 1000))
      if (strategy === "database") expect(await adapter.getSessionAndUser(record?.sessionToken ?? "")).toBeNull()
    }
  })
})

describe.each(["jwt", "database"] as const)("session.idleTimeout (%s)", (strategy) => {
  it("V7.3.1: renews within half the timeout while read, and refuses the session once unread for idleTimeout", async () => {
    const { config, adapter, revoked } = setup(strategy, { idleTimeout: 600 })
    clockAt(T0)
    const jar = await signInWithPassword(config)
    const cookie = jar.cookies.get(NAME)
    clockAt(T0 + 5 * MINUTE)
    expect(await sessionOf(config, jar)).not.toBeNull()
    // min(updateAge, idleTimeout / 2): the cookie (or row) moved at 5 minutes, the day-long updateAge notwithstanding.
    if (strategy === "jwt") expect(jar.cookies.get(NAME)).not.toBe(cookie)
    else expect((await adapter.getSessionAndUser(cookie ?? ""))?.session.expires).toEqual(new Date(T0 + 5 * MINUTE + 30 * 24 * HOUR))
    clockAt(T0 + 14 * MINUTE)
    expect(await sessionOf(config, jar)).not.toBeNull()
    clockAt(T0 + 23 * MINUTE)
    expect(await sessionOf(config, jar)).not.toBeNull()
    // Unread from 23 minutes on: ten minutes later it has ended.
    clockAt(T0 + 33 * MINUTE)
    expect(await sessionOf(config, jar)).toBeNull()
    expect(jar.cookies.has(NAME)).toBe(false)
    if (strategy === "database") expect(revoked).toEqual(["idle"])
  })

  it("V7.3.1: a JWT read that cannot set cookies does not count as activity (a database read moves the row)", async () => {
    const { config } = setup(strategy, { idleTimeout: 600 })
    clockAt(T0)
    const jar = await signInWithPassword(config)
    const { getSession } = await import("../../src/index.js")
    for (const at of [4, 8, 9]) {
      clockAt(T0 + at * MINUTE)
      expect(await getSession(new Request(`${ORIGIN}/page`, { headers: { cookie: jar.header() } }), config)).not.toBeNull()
    }
    clockAt(T0 + 10 * MINUTE)
    if (strategy === "jwt") expect(await sessionOf(config, jar)).toBeNull()
    else expect(await sessionOf(config, jar)).not.toBeNull()
  })
})

describe("lifetimes: configuration and sessions from before the upgrade", () => {
  it("absoluteMaxAge defaults to 30 days, idleTimeout is off; an idleTimeout under a minute is refused", async () => {
    expect((await resolveConfig(testConfig())).session).toMatchObject({ absoluteMaxAge: 30 * 24 * 3600, idleTimeout: undefined })
    expect(await configError(testConfig({ session: { idleTimeout: 59 } }))).toMatch(/^Configuration: `session.idleTimeout` must be at least 60 seconds/)
    expect(await configError(testConfig({ session: { absoluteMaxAge: 0 } }))).toMatch(/^Configuration: `session.absoluteMaxAge` must be a positive number of seconds/)
  })

  it("V7.3.2: a session sealed before the upgrade 29 days ago keeps working: its sign-in time is its first read", async () => {
    clockAt(T0 - 29 * 24 * HOUR)
    const old = await encode({ token: { sub: ADA.id, name: ADA.name }, secret: SECRET, salt: NAME })
    clockAt(T0)
    const config = testConfig({ providers: [passwordProvider()] })
    const jar = new Jar()
    jar.cookies.set(NAME, old)
    expect((await sessionOf(config, jar))?.assurance).toMatchObject({ signedInAt: T0 / 1000 })
    clockAt(T0 + 29 * 24 * HOUR)
    expect((await sessionOf(config, jar))?.user?.name).toBe(ADA.name)
  })
})
