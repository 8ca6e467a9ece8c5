/**
 * `legacySessionCookies`: a browser signed in by Auth.js's own published `@auth/core` (installed
 * as `authjs-core`), with a JWT or a database session, stays signed in after the app moves to
 * us and is moved to our `__Host-` cookie on that same response; the legacy names never outrank
 * ours, stop at `until`, and never cause a 5xx.
 */
import { Auth as AuthjsAuth, type AuthConfig as AuthjsConfig } from "authjs-core"
import AuthjsCredentials from "authjs-core/providers/credentials"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, getSession, getSessionForResponse } from "../../src/index.js"
import { decode } from "../../src/session/jwt.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, SECRET, setCookies, testConfig } from "../helpers.js"

const HTTPS = "https://app.example"
const HTTP = "http://localhost:3000"
const OURS = "__Host-authjs.session-token"
const AUTHJS = "__Secure-authjs.session-token"
const DAY = 24 * 60 * 60 * 1000
const FUTURE = new Date(Date.now() + 30 * DAY)
const ADA = { id: "user-ada", name: "Ada", email: "ada@example.com" }

/** Sends one request to a handler with the jar's cookies, and stores what the response sets. */
async function send(handler: (request: Request) => Promise<Response>, jar: Jar, url: string, form?: Record<string, string>): Promise<Response> {
  const headers = new Headers()
  if (jar.cookies.size > 0) headers.set("cookie", jar.header())
  if (form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
  const response = await handler(new Request(url, { method: form === undefined ? "GET" : "POST", headers, body: form === undefined ? undefined : new URLSearchParams(form).toString() }))
  jar.store(response)
  return response
}

const authjs = (config: AuthjsConfig) => (request: Request) => AuthjsAuth(request, config)
const ours = (config: AuthConfig) => (request: Request) => Auth(request, config)

async function authjsCsrf(config: AuthjsConfig, jar: Jar, origin: string): Promise<string> {
  return ((await (await send(authjs(config), jar, `${origin}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
}

/** A browser signed in with a JWT session by Auth.js's own Auth(), through its credentials provider. */
async function authjsJwtBrowser(origin: string, claims: Record<string, unknown> = {}): Promise<Jar> {
  const config: AuthjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    // Auth.js 0.41 remembers, for the whole process, that some configuration had an email
    // provider, and from then on refuses every configuration without an adapter.
    adapter: MemoryAdapter() as unknown as AuthjsConfig["adapter"],
    session: { strategy: "jwt" },
    providers: [AuthjsCredentials({ credentials: { username: {} }, authorize: (input) => (input.username === "ada" ? ADA : null) })],
    callbacks: { jwt: ({ token }) => ({ ...token, ...claims }) },
  }
  const jar = new Jar()
  const csrfToken = await authjsCsrf(config, jar, origin)
  const response = await send(authjs(config), jar, `${origin}/api/auth/callback/credentials`, { csrfToken, username: "ada" })
  expect(response.status).toBe(302)
  return jar
}

/** A browser signed in with a database session by Auth.js's own Auth(), through an email link, in `adapter`. */
async function authjsDatabaseBrowser(origin: string, adapter: Adapter): Promise<Jar> {
  let link = ""
  const config: AuthjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    adapter: adapter as AuthjsConfig["adapter"],
    session: { strategy: "database" },
    providers: [{ id: "email", type: "email", name: "Email", from: "auth@app.example", maxAge: 3600, options: {}, sendVerificationRequest: ({ url }) => void (link = url) }],
  }
  const jar = new Jar()
  const csrfToken = await authjsCsrf(config, jar, origin)
  await send(authjs(config), jar, `${origin}/api/auth/signin/email`, { csrfToken, email: ADA.email })
  expect(link).toContain("/api/auth/callback/email")
  const response = await send(authjs(config), jar, link)
  expect(response.status).toBe(302)
  return jar
}

function jwtConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ legacySessionCookies: { until: FUTURE }, ...overrides })
}

function databaseConfig(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ adapter, session: { strategy: "database" }, providers: [], legacySessionCookies: { until: FUTURE }, ...overrides })
}

/** The `Set-Cookie` header a response sets for `name`. */
function setCookieHeader(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`))
}

async function sessionOf(config: AuthConfig, jar: Jar, origin = HTTPS): Promise<{ response: Response; body: { user?: { id?: string; email?: string | null } } | null }> {
  const response = await send(ours(config), jar, `${origin}/api/auth/session`)
  expect(response.status).toBe(200)
  return { response, body: (await response.json()) as { user?: { id?: string; email?: string | null } } | null }
}

describe("a JWT session cookie written by Auth.js", () => {
  it("on https signs the browser in and moves it to our __Host- cookie on the same response", async () => {
    const jar = await authjsJwtBrowser(HTTPS)
    expect([...jar.cookies.keys()]).toContain(AUTHJS)
    const config = jwtConfig()
    const { response, body } = await sessionOf(config, jar)
    expect(body).toMatchObject({ user: { id: ADA.id, name: ADA.name, email: ADA.email } })
    const set = setCookies(response)
    expect(set.get(AUTHJS)).toBe("")
    expect(setCookieHeader(response, AUTHJS)).toMatch(/; Secure/)
    const moved = set.get(OURS) ?? ""
    expect(await decode({ token: moved, secret: SECRET, salt: OURS })).toMatchObject({ sub: ADA.id, email: ADA.email })
    expect(setCookieHeader(response, OURS)).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax/)
    // The next request carries only our cookie, and is still signed in.
    expect([...jar.cookies.keys()]).not.toContain(AUTHJS)
    expect((await sessionOf(config, jar)).body).toMatchObject({ user: { id: ADA.id } })
  })

  it("chunked by Auth.js (name.0, name.1) is read whole, moved, and every chunk expired", async () => {
    const blob = Buffer.from(crypto.getRandomValues(new Uint8Array(4500))).toString("base64")
    const jar = await authjsJwtBrowser(HTTPS, { blob })
    expect([...jar.cookies.keys()]).toEqual(expect.arrayContaining([`${AUTHJS}.0`, `${AUTHJS}.1`]))
    const config = jwtConfig({ callbacks: { session: ({ session, token }) => ({ ...session, blob: token.blob }) } })
    const { response, body } = await sessionOf(config, jar)
    expect(body).toMatchObject({ user: { id: ADA.id }, blob })
    const set = setCookies(response)
    expect(set.get(`${AUTHJS}.0`)).toBe("")
    expect(set.get(`${AUTHJS}.1`)).toBe("")
    expect(set.get(`${OURS}.0`)).toBeTruthy()
    expect([...jar.cookies.keys()].filter((name) => name.startsWith(AUTHJS))).toEqual([])
    expect((await sessionOf(config, jar)).body).toMatchObject({ user: { id: ADA.id }, blob })
  })

  it("is read by getSessionForResponse, which hands the move to its sink, and by getSession", async () => {
    const jar = await authjsJwtBrowser(HTTPS)
    const config = jwtConfig()
    const request = () => new Request(`${HTTPS}/page`, { headers: { cookie: jar.header() } })
    const sunk: string[] = []
    expect(await getSessionForResponse(request(), config, (cookie) => sunk.push(cookie))).toMatchObject({ user: { id: ADA.id } })
    expect(sunk.some((cookie) => cookie.startsWith(`${OURS}=ey`))).toBe(true)
    expect(sunk.some((cookie) => cookie.startsWith(`${AUTHJS}=;`) && cookie.includes("Max-Age=0"))).toBe(true)
    expect(await getSession(request(), config)).toMatchObject({ user: { id: ADA.id } })
  })

  it("is read before `until`, and ignored once it has passed or without the option", async () => {
    const jar = await authjsJwtBrowser(HTTPS)
    const before = new Jar()
    before.cookies.set(AUTHJS, jar.cookies.get(AUTHJS) ?? "")
    expect((await sessionOf(jwtConfig({ legacySessionCookies: { until: new Date(Date.now() + 60_000) } }), before)).body).toMatchObject({ user: { id: ADA.id } })
    const { response, body } = await sessionOf(jwtConfig({ legacySessionCookies: { until: new Date(Date.now() - 1000) } }), jar)
    expect(body).toBeNull()
    expect(setCookies(response).has(OURS)).toBe(false)
    expect((await sessionOf(testConfig(), jar)).body).toBeNull()
  })

  it("attack: a planted legacy cookie beside a valid current session never wins", async () => {
    const config = jwtConfig()
    const victim = await authjsJwtBrowser(HTTPS)
    expect((await sessionOf(config, victim)).body).toMatchObject({ user: { id: ADA.id } })
    expect(victim.cookies.has(OURS)).toBe(true)
    // A sibling subdomain plants the attacker's own Auth.js session under the legacy name.
    const attacker = await authjsJwtBrowser(HTTPS, { sub: "user-mallory", email: "mallory@example.com" })
    victim.cookies.set(AUTHJS, attacker.cookies.get(AUTHJS) ?? "")
    const { response, body } = await sessionOf(config, victim)
    expect(body).toMatchObject({ user: { id: ADA.id, email: ADA.email } })
    expect(setCookies(response).has(OURS)).toBe(false)
  })

  it("attack: beside a current cookie that does not open, a planted legacy one is not read either", async () => {
    const config = jwtConfig()
    const planted = (await authjsJwtBrowser(HTTPS, { sub: "user-mallory" })).cookies.get(AUTHJS) ?? ""
    const jar = new Jar()
    jar.cookies.set(OURS, "not-a-session")
    jar.cookies.set(AUTHJS, planted)
    const { response, body } = await sessionOf(config, jar)
    expect(body).toBeNull()
    expect(setCookies(response).get(OURS)).toBe("")
    // Alone, the same cookie is a session: the refusal above is the rule, not a bad cookie.
    const alone = new Jar()
    alone.cookies.set(AUTHJS, planted)
    expect((await sessionOf(config, alone)).body).toMatchObject({ user: { id: "user-mallory" } })
  })

  it("signing out clears the legacy cookie", async () => {
    const config = jwtConfig()
    const jar = await authjsJwtBrowser(HTTPS)
    const csrf = ((await (await send(ours(config), jar, `${HTTPS}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    const response = await send(ours(config), jar, `${HTTPS}/api/auth/signout`, { csrfToken: csrf })
    expect(response.status).toBe(302)
    expect(setCookies(response).get(AUTHJS)).toBe("")
    expect([...jar.cookies.keys()]).not.toContain(AUTHJS)
    expect((await sessionOf(config, jar)).body).toBeNull()
  })
})

describe("a database session cookie written by Auth.js", () => {
  it("on https signs the browser in and moves the same session to our __Host- cookie", async () => {
    const adapter = MemoryAdapter()
    const jar = await authjsDatabaseBrowser(HTTPS, adapter)
    const token = jar.cookies.get(AUTHJS) ?? ""
    expect(token).not.toBe("")
    const config = databaseConfig(adapter)
    const { response, body } = await sessionOf(config, jar)
    expect(body).toMatchObject({ user: { email: ADA.email } })
    const set = setCookies(response)
    expect(set.get(OURS)).toBe(token)
    expect(set.get(AUTHJS)).toBe("")
    expect(setCookieHeader(response, AUTHJS)).toMatch(/; Secure/)
    expect((await sessionOf(config, jar)).body).toMatchObject({ user: { email: ADA.email } })
  })

  it("under next-auth v4's names (https and http) signs in too: the token is the session row's id", async () => {
    const adapter = MemoryAdapter()
    const token = (await authjsDatabaseBrowser(HTTPS, adapter)).cookies.get(AUTHJS) ?? ""
    for (const [origin, legacy, current] of [
      [HTTPS, "__Secure-next-auth.session-token", OURS],
      [HTTP, "next-auth.session-token", "authjs.session-token"],
    ] as const) {
      const jar = new Jar()
      jar.cookies.set(legacy, token)
      const { response, body } = await sessionOf(databaseConfig(adapter), jar, origin)
      expect(body).toMatchObject({ user: { email: ADA.email } })
      expect(setCookies(response).get(current)).toBe(token)
      expect(setCookies(response).get(legacy)).toBe("")
    }
  })

  it("on http keeps Auth.js's name, which is ours there, while next-auth v4's moves to it", async () => {
    const adapter = MemoryAdapter()
    const jar = await authjsDatabaseBrowser(HTTP, adapter)
    const token = jar.cookies.get("authjs.session-token") ?? ""
    expect(token).not.toBe("")
    expect((await sessionOf(databaseConfig(adapter), jar, HTTP)).body).toMatchObject({ user: { email: ADA.email } })
    const v4 = new Jar()
    v4.cookies.set("next-auth.session-token", token)
    const { response, body } = await sessionOf(databaseConfig(adapter), v4, HTTP)
    expect(body).toMatchObject({ user: { email: ADA.email } })
    expect(setCookies(response).get("authjs.session-token")).toBe(token)
  })

  it("attack: a planted legacy cookie holding another session never outranks the current one", async () => {
    const adapter = MemoryAdapter()
    const config = databaseConfig(adapter)
    const victim = await authjsDatabaseBrowser(HTTPS, adapter)
    expect((await sessionOf(config, victim)).body).toMatchObject({ user: { email: ADA.email } })
    const mallory = await adapter.createUser({ id: "user-mallory", email: "mallory@example.com", emailVerified: null })
    await adapter.createSession({ sessionToken: "mallory-session", userId: mallory.id, expires: new Date(Date.now() + DAY) })
    victim.cookies.set(AUTHJS, "mallory-session")
    const { response, body } = await sessionOf(config, victim)
    expect(body).toMatchObject({ user: { email: ADA.email } })
    expect(setCookies(response).get(OURS)).not.toBe("mallory-session")
  })

  it("is read before `until` and ignored once it has passed", async () => {
    const adapter = MemoryAdapter()
    const jar = await authjsDatabaseBrowser(HTTPS, adapter)
    const token = jar.cookies.get(AUTHJS) ?? ""
    expect((await sessionOf(databaseConfig(adapter, { legacySessionCookies: { until: "2999-01-01" } }), jar)).body).toMatchObject({ user: { email: ADA.email } })
    const late = new Jar()
    late.cookies.set(AUTHJS, token)
    const { response, body } = await sessionOf(databaseConfig(adapter, { legacySessionCookies: { until: "2020-01-01" } }), late)
    expect(body).toBeNull()
    expect(setCookies(response).has(OURS)).toBe(false)
  })

  it("signing out deletes the session row and clears the legacy cookie", async () => {
    const adapter = MemoryAdapter()
    const config = databaseConfig(adapter)
    const jar = await authjsDatabaseBrowser(HTTPS, adapter)
    const token = jar.cookies.get(AUTHJS) ?? ""
    const csrf = ((await (await send(ours(config), jar, `${HTTPS}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
    const response = await send(ours(config), jar, `${HTTPS}/api/auth/signout`, { csrfToken: csrf })
    expect(setCookies(response).get(AUTHJS)).toBe("")
    expect(await adapter.getSessionAndUser(token)).toBeNull()
  })
})

describe("a legacy cookie that does not open", () => {
  const bad = ["garbage", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..a.b.c", "%%%", "x".repeat(5000), ""]

  it("is ignored and cleared, never a 5xx (JWT and database, whole and chunked)", async () => {
    for (const config of [jwtConfig(), databaseConfig(MemoryAdapter())]) {
      for (const value of bad) {
        for (const names of [[AUTHJS], [`${AUTHJS}.0`, `${AUTHJS}.1`]]) {
          const jar = new Jar()
          for (const name of names) jar.cookies.set(name, value)
          const { response, body } = await sessionOf(config, jar)
          expect(body).toBeNull()
          for (const name of names) expect(setCookies(response).get(name)).toBe("")
          expect(setCookies(response).has(OURS)).toBe(false)
        }
      }
    }
  })

  it("sealed by Auth.js with another secret is cleared; next-auth v4's names are not read for JWT sessions", async () => {
    const jar = await authjsJwtBrowser(HTTPS)
    const value = jar.cookies.get(AUTHJS) ?? ""
    const other = new Jar()
    other.cookies.set(AUTHJS, value)
    const { response, body } = await sessionOf(jwtConfig({ secret: "another-secret-that-is-at-least-32-characters" }), other)
    expect(body).toBeNull()
    expect(setCookies(response).get(AUTHJS)).toBe("")
    const renamed = new Jar()
    renamed.cookies.set("__Secure-next-auth.session-token", value)
    expect((await sessionOf(jwtConfig(), renamed)).body).toBeNull()
  })
})

describe("the `legacySessionCookies` option", () => {
  it("takes a Date or an ISO 8601 date, and refuses anything else with a Configuration error naming it", async () => {
    const value = (await authjsJwtBrowser(HTTPS)).cookies.get(AUTHJS) ?? ""
    for (const until of [FUTURE, "2999-01-01", "2999-01-01T00:00:00Z", "2999-01-01T00:00:00.000+02:00"]) {
      const request = new Request(`${HTTPS}/`, { headers: { cookie: `${AUTHJS}=${value}` } })
      expect(await getSession(request, testConfig({ legacySessionCookies: { until } }))).toMatchObject({ user: { id: ADA.id } })
    }
    for (const value of [{ until: "tomorrow" }, { until: "2999-01-01T00:00:00" }, { until: new Date("nope") }, { until: 1_900_000_000_000 }, {}, "2999-01-01"]) {
      const config = testConfig({ legacySessionCookies: value as never })
      await expect(getSession(new Request(`${HTTPS}/`), config)).rejects.toThrow(/`legacySessionCookies(\.until)?`/)
      expect((await Auth(new Request(`${HTTPS}/api/auth/session`), config)).status).toBe(503)
    }
  })
})
