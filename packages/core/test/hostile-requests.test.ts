/**
 * Seeded random hostile requests against every route, with the provider's answers just as
 * hostile: whatever arrives, `Auth()` answers (never throws, never 5xx), shows no stack trace,
 * redirects only to the app or the provider, creates no session nobody earned, and takes away
 * none a signed-in user had. A failure names its seed and step, so it replays exactly.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"
import { Jar, ORIGIN, PASSWORD, acmeProvider, call, csrfToken, location, passwordProvider, setCookies, testConfig } from "./helpers.js"

const PROVIDER_ORIGIN = "https://acme.example"
const STEPS = 1500
const SESSION_COOKIE = "authjs.session-token"

/** A session cookie or chunk, with or without the `__Secure-` (or `__Host-`) prefix an https origin gives it. */
const isSessionCookie = (name: string): boolean => name.replace(/^__(?:Secure|Host)-/, "").startsWith(SESSION_COOKIE)

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Random = () => number
const pick = <T,>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
const chance = (next: Random, p: number): boolean => next() < p

const HOSTILE_VALUES = [
  "",
  "https://evil.example/",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "javascript:alert(1)",
  "http://localhost:3000.evil.example/",
  "http://localhost:3000@evil.example/",
  "%",
  "%E0%A4%A",
  "\u0000",
  "\r\nset-cookie: x=y",
  "undefined",
  "null",
  "[object Object]",
  "<script>alert(1)</script>",
  "/ok",
  "http://localhost:3000/ok",
  "Configuration",
  "OAuthAccountNotLinked",
  "a".repeat(9000),
  "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC",
  "😀",
]

const QUERY_KEYS = ["callbackUrl", "error", "code", "state", "iss", "token", "email", "csrfToken", "provider", "providerAccountId", "session_state"]

const ROUTES = [
  "",
  "/",
  "/providers",
  "/csrf",
  "/session",
  "/signin",
  "/signin/acme",
  "/signin/credentials",
  "/signin/email",
  "/signin/nope",
  "/signin/acme/extra",
  "/callback/acme",
  "/callback/credentials",
  "/callback/email",
  "/callback/%00",
  "/callback/%E0%A4%A",
  "/signout",
  "/error",
  "/verify-request",
  "/accounts",
  "/accounts/unlink",
  "/accounts/%00",
  "//session",
  "/session/..",
  "/%2e%2e/session",
  `/callback/${"a".repeat(3000)}`,
]

const METHODS = ["GET", "GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"]

const COOKIE_NAMES = [
  "authjs.session-token",
  "authjs.session-token.0",
  "authjs.session-token.1",
  "authjs.csrf-token",
  "authjs.callback-url",
  "authjs.pkce.code_verifier",
  "authjs.state",
  "authjs.nonce",
  "__Host-authjs.session-token",
  "__Host-authjs.session-token.0",
  "__Host-authjs.csrf-token",
  "__Host-authjs.callback-url",
  "__Host-authjs.pkce.code_verifier",
  "__Host-authjs.state",
  // Auth.js's names, which a planted cookie would use.
  "__Secure-authjs.session-token",
  "__Secure-authjs.state",
]

/** What the provider's token and userinfo endpoints answer: never a profile with a usable id. */
function hostileProvider(next: Random): (input: RequestInfo | URL) => Promise<Response> {
  const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  const unusableId = (): unknown => pick(next, [undefined, null, "", "undefined", "null", "NaN", "[object Object]", {}, [], true])
  return async (input) => {
    const url = new URL(input instanceof Request ? input.url : input)
    if (url.pathname === "/token") {
      return pick(next, [
        () => json({ access_token: "at", token_type: "bearer", expires_in: 3600 }),
        () => json({ access_token: "at", token_type: "Bearer", id_token: "not.a.jwt" }),
        () => json({ access_token: 1, token_type: "bearer" }),
        () => json({ access_token: "at", token_type: "mac" }),
        () => json({ error: "invalid_grant", error_description: "<b>nope</b>" }, 400),
        () => json([]),
        () => json(null),
        () => new Response("not json", { headers: { "content-type": "application/json" } }),
        () => new Response("down", { status: 500 }),
        () => new Response(null, { status: 302, headers: { location: "https://evil.example/" } }),
        () => Promise.reject(new TypeError("fetch failed")),
      ])()
    }
    return pick(next, [
      () => json({ id: unusableId(), name: "<img src=x>", email: "ada@example.com" }),
      () => json({ sub: unusableId(), email: ["a@example.com", "b@example.com"] }),
      () => json([{ id: "1" }]),
      () => json("profile"),
      () => new Response("{", { headers: { "content-type": "application/json" } }),
      () => new Response("unauthorized", { status: 401 }),
      () => new Response("x".repeat(2 * 1024 * 1024), { headers: { "content-type": "application/json" } }),
      () => Promise.reject(new DOMException("timed out", "TimeoutError")),
    ])()
  }
}

interface Fuzzer {
  config: AuthConfig
  /** Cookies a real browser would hold now: CSRF, the PKCE verifier of a started sign-in, a session. */
  jar: Jar
  csrfToken: string | undefined
  /** The values a started sign-in produced (`state`, the PKCE challenge), reused as attack material. */
  harvested: string[]
  /** The `state` of the sign-in started last. */
  state: string | undefined
}

interface HostileRequest {
  request: Request
  route: string
  method: string
  csrfValid: boolean
  /** The request carries the signed-in session cookie and no forged one beside it. */
  sessionIntact: boolean
}

/**
 * One request made of hostile parts. `nearlyHonest` makes it a provider callback with the
 * live state and every cookie the browser holds, so it reaches the token exchange, where the
 * provider's answers are the hostile part.
 */
function hostileRequest(next: Random, fuzzer: Fuzzer, nearlyHonest: boolean): HostileRequest {
  const route = nearlyHonest ? "/callback/acme" : pick(next, ROUTES)
  const base = chance(next, 0.9) ? "/api/auth" : pick(next, ["", "/api", "/api/auth/api/auth", "/API/AUTH"])
  const query = new URLSearchParams()
  const values = [...HOSTILE_VALUES, ...fuzzer.harvested]
  for (let i = Math.floor(next() * 4); i > 0; i--) query.append(pick(next, QUERY_KEYS), pick(next, values))
  if (nearlyHonest && fuzzer.state !== undefined) {
    query.set("state", fuzzer.state)
    query.set("code", pick(next, values))
  }
  const method = nearlyHonest ? "GET" : pick(next, METHODS)
  const url = `${ORIGIN}${base}${route}${query.size > 0 ? `?${query.toString()}` : ""}`

  const headers = new Headers()
  const cookies: string[] = []
  let sessionIntact = false
  for (const [name, value] of fuzzer.jar.cookies) {
    if (!nearlyHonest && !chance(next, 0.8)) continue
    cookies.push(`${name}=${value}`)
    if (name === SESSION_COOKIE) sessionIntact = true
  }
  for (let i = nearlyHonest ? 0 : Math.floor(next() * 3); i > 0; i--) {
    const name = pick(next, COOKIE_NAMES)
    if (isSessionCookie(name)) sessionIntact = false
    cookies.push(`${name}=${encodeURIComponent(pick(next, values))}`)
  }
  if (chance(next, 0.1)) {
    const junk = pick(next, ["=;;;", "a=b=c", "%%%", ";", SESSION_COOKIE])
    if (junk === SESSION_COOKIE) sessionIntact = false
    cookies.push(junk)
  }
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "))
  // A trusted proxy may name any host (that is what trustHost means); these are the malformed ones.
  if (chance(next, 0.1)) headers.set("x-forwarded-host", pick(next, ["", "a b", "localhost:99999", "[::1", "evil.example/path", "@evil.example"]))
  if (chance(next, 0.1)) headers.set("x-forwarded-proto", pick(next, ["https", "ftp", "", "javascript", "http,https"]))

  let body: string | undefined
  let csrfValid = false
  if (method === "POST" || (method === "PUT" && chance(next, 0.5))) {
    const form = new URLSearchParams()
    if (fuzzer.csrfToken !== undefined && chance(next, 0.7)) {
      form.set("csrfToken", fuzzer.csrfToken)
      csrfValid = true
    } else if (chance(next, 0.5)) form.set("csrfToken", pick(next, values))
    for (let i = Math.floor(next() * 4); i > 0; i--) {
      form.append(pick(next, [...QUERY_KEYS, "username", "password", "email"]), pick(next, [...values, "ada", "ada@example.com", "ADA@EXAMPLE.COM "]))
    }
    const shape = pick(next, ["form", "form", "form", "json", "binary", "huge", "none"])
    headers.set("content-type", shape === "json" ? "application/json" : shape === "binary" ? "application/octet-stream" : "application/x-www-form-urlencoded")
    body =
      shape === "json"
        ? JSON.stringify(Object.fromEntries(form))
        : shape === "binary"
          ? "\u00ff\u00fe\u0000garbage"
          : shape === "huge"
            ? `${form.toString()}&pad=${"x".repeat(300_000)}`
            : shape === "none"
              ? undefined
              : form.toString()
  }
  return { request: new Request(url, { method, headers, body }), route, method, csrfValid, sessionIntact }
}

/** Starts an OAuth sign-in the honest way, so hostile callbacks can reach the token exchange. */
async function startSignIn(fuzzer: Fuzzer): Promise<void> {
  fuzzer.csrfToken = await csrfToken(fuzzer.config, fuzzer.jar)
  const authorize = location(await call(fuzzer.config, fuzzer.jar, "/api/auth/signin/acme", { form: { csrfToken: fuzzer.csrfToken } }))
  fuzzer.state = authorize.searchParams.get("state") ?? undefined
  for (const key of ["state", "code_challenge"]) {
    const value = authorize.searchParams.get(key)
    if (value !== null) fuzzer.harvested.push(value)
  }
}

async function setUp(strategy: "jwt" | "database", signedIn: boolean): Promise<{ fuzzer: Fuzzer; session: string | undefined }> {
  const adapter = MemoryAdapter()
  const ada = await adapter.createUser({ name: "Ada", email: "ada@example.com", emailVerified: null, image: null })
  const config = testConfig({
    adapter,
    session: { strategy },
    providers: [
      acmeProvider({ checks: ["pkce", "state"], timeout: 1000 }),
      passwordProvider({
        authorize: ({ username, password }) => {
          if (username === "boom") throw new Error("authorize crashed")
          return username === "ada" && password === PASSWORD ? ada : null
        },
      }),
      {
        id: "email",
        name: "Email",
        type: "email",
        sendVerificationRequest: ({ identifier }) => {
          if (identifier.startsWith("ada")) throw new Error("mail server down")
        },
      },
    ],
  })
  const fuzzer: Fuzzer = { config, jar: new Jar(), csrfToken: undefined, harvested: [], state: undefined }
  return { fuzzer, session: signedIn ? await signInAsAda(fuzzer) : undefined }
}

/** Signs in with the one password the generator never says; returns the session cookie. */
async function signInAsAda(fuzzer: Fuzzer): Promise<string> {
  fuzzer.csrfToken = await csrfToken(fuzzer.config, fuzzer.jar)
  const response = await call(fuzzer.config, fuzzer.jar, "/api/auth/callback/credentials", { form: { csrfToken: fuzzer.csrfToken, username: "ada", password: PASSWORD } })
  const session = setCookies(response).get(SESSION_COOKIE)
  if (session === undefined || session === "") throw new Error("the honest sign-in did not start a session")
  return session
}

/** The email of the user a session cookie belongs to, asked of `/session` by a browser holding only that cookie. */
async function sessionUser(config: AuthConfig, session: string): Promise<unknown> {
  const jar = new Jar()
  jar.cookies.set(SESSION_COOKIE, session)
  const response = await call(config, jar, "/api/auth/session")
  return ((await response.json()) as { user?: { email?: string } } | null)?.user?.email
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("hostile requests", () => {
  for (const strategy of ["jwt", "database"] as const) {
    for (const signedIn of [false, true]) {
      for (const seed of [1, 2]) {
        it(`${strategy} sessions, ${signedIn ? "signed in" : "signed out"}, seed ${seed}: every answer is safe`, async () => {
          const next = random(seed * 7919 + (strategy === "jwt" ? 0 : 1) + (signedIn ? 2 : 0))
          const provider = vi.spyOn(globalThis, "fetch").mockImplementation(hostileProvider(next))
          const { fuzzer, session: first } = await setUp(strategy, signedIn)
          let session = first
          const statuses = new Set<number>()

          for (let step = 0; step < STEPS; step++) {
            // About one step in seven is a nearly honest callback: hostile query parameters and headers
            // stop about half of them early, and the rest still run the token exchange well over STEPS / 20 times.
            const nearlyHonest = chance(next, 0.15)
            if (nearlyHonest || step % 25 === 0) await startSignIn(fuzzer)
            const { request, route, method, csrfValid, sessionIntact } = hostileRequest(next, fuzzer, nearlyHonest)
            // Signing out is the one way to lose a session on purpose.
            const signsOut = route === "/signout" && method === "POST" && csrfValid
            const forwarded = [request.headers.get("x-forwarded-host"), request.headers.get("x-forwarded-proto")].join(" / ")
            const where = `seed ${seed}, step ${step}: ${method} ${request.url.slice(0, 200)} (forwarded: ${forwarded})`
            // A sign-out may end the session for good (a database row is deleted): check it first.
            if (signsOut && session !== undefined) expect(await sessionUser(fuzzer.config, session), `before ${where}`).toBe("ada@example.com")
            const response = await Auth(request, fuzzer.config).catch((error: unknown) => {
              throw new Error(`Auth() threw at ${where}`, { cause: error })
            })
            statuses.add(response.status)
            expect(response.status, where).toBeLessThan(500)

            const text = await response.text()
            expect(text, where).not.toMatch(/\n\s+at |node_modules|\/src\/|\.ts:\d+/)

            // A trusted proxy that terminated TLS says so; nothing else moves the origin.
            const origin = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? ORIGIN.replace("http:", "https:") : ORIGIN
            const target = response.headers.get("location")
            if (target !== null) {
              expect([origin, PROVIDER_ORIGIN], where).toContain(new URL(target, ORIGIN).origin)
            }

            const set = setCookies(response)
            for (const [name, value] of set) {
              if (!isSessionCookie(name)) continue
              // Nobody can earn a session here: no password is guessed, no provider answer has a usable id.
              // A signed-in session may only be re-sealed (the same user, checked before each sign-out
              // and at the end) or, on sign-out, ended.
              if (session === undefined || name !== SESSION_COOKIE) expect(value, `session cookie set at ${where}`).toBe("")
              else if (value !== "") session = value
              else if (sessionIntact && !signsOut) expect.fail(`the signed-in session was cleared at ${where}`)
            }
            fuzzer.jar.store(response)
            // Only a sign-out that ended the session earns a fresh one; otherwise the browser keeps its own.
            if (session !== undefined && signsOut && set.get(SESSION_COOKIE) === "") session = await signInAsAda(fuzzer)
            else if (session !== undefined) fuzzer.jar.cookies.set(SESSION_COOKIE, session)
          }

          if (session !== undefined) expect(await sessionUser(fuzzer.config, session)).toBe("ada@example.com")
          // The generator reached deep: the token exchange ran, and requests were refused in several ways.
          expect(provider.mock.calls.length).toBeGreaterThan(STEPS / 20)
          expect([...statuses].filter((status) => status >= 400).length).toBeGreaterThanOrEqual(3)
          expect(statuses).toContain(302)
        })
      }
    }
  }
})
