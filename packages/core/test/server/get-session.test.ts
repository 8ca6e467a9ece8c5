import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { getSession, getSessionForResponse } from "../../src/index.js"
import { encode } from "../../src/session/jwt.js"
import { assuranceClaim } from "../../src/session/assurance.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, SECRET, call, Jar, testConfig, storeSession } from "../helpers.js"

const NAME = "authjs.session-token"

function pageRequest(cookie?: string, init: { url?: string; headers?: Record<string, string> } = {}): Request {
  const headers = new Headers(init.headers)
  if (cookie !== undefined) headers.set("cookie", cookie)
  return new Request(init.url ?? `${ORIGIN}/dashboard`, { headers })
}

async function sealed(token: Record<string, unknown>, secret = SECRET, salt = NAME): Promise<string> {
  return encode({ token, secret, salt, maxAge: 3600 })
}

/** Reads through getSessionForResponse and returns what it handed to the sink as well. */
async function read(request: Request, config: AuthConfig): Promise<{ session: unknown; cookies: string[] }> {
  const cookies: string[] = []
  const session = await getSessionForResponse(request, config, (cookie) => cookies.push(cookie))
  return { session, cookies }
}

function recordingConfig(overrides: Partial<AuthConfig> = {}): AuthConfig & { errors: string[] } {
  const errors: string[] = []
  return { ...testConfig(overrides), logger: { error: (error) => errors.push(error.code), warn: () => undefined }, errors }
}

describe("getSession", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("answers null and sets nothing without a session cookie", async () => {
    expect(await read(pageRequest(), testConfig())).toEqual({ session: null, cookies: [] })
  })

  it("answers what GET /session answers for the same cookie", async () => {
    // One clock for both reads: a cookie without an assurance claim gets its sign-in time at each
    // first read, so two reads a second boundary apart would differ in time, not in what they answer.
    vi.useFakeTimers({ toFake: ["Date"] })
    const config = testConfig()
    const cookie = `${NAME}=${await sealed({ sub: "u1", name: "Ada", email: "ada@example.com" })}`
    const jar = new Jar()
    jar.cookies.set(NAME, cookie.slice(NAME.length + 1))
    const fromRoute: unknown = await (await call(config, jar, "/api/auth/session")).json()
    const session = await getSession(pageRequest(cookie), config)
    expect(session).toEqual(fromRoute)
    expect(session?.user).toEqual({ id: "u1", name: "Ada", email: "ada@example.com", image: null })
  })

  it("hands nothing to the sink while updateAge has not passed", async () => {
    // Sealed since sessions carry their assurance: one without it is re-sealed on its first read.
    const now = Math.floor(Date.now() / 1000)
    const assurance = await assuranceClaim([SECRET], { level: 1, methods: ["pwd"], authTime: now, signedInAt: now })
    const cookie = `${NAME}=${await sealed({ sub: "u1", assurance })}`
    const { session, cookies } = await read(pageRequest(cookie), testConfig())
    expect(session).toMatchObject({ user: { id: "u1" } })
    expect(cookies).toEqual([])
  })

  it("hands a renewed cookie to the sink once updateAge has passed", async () => {
    const config = testConfig({ session: { maxAge: 3600, updateAge: 60 } })
    const cookie = `${NAME}=${await sealed({ sub: "u1" })}`
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 120_000)
    const { session, cookies } = await read(pageRequest(cookie), config)
    expect(session).toMatchObject({ user: { id: "u1" } })
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatch(/^authjs\.session-token=.+; Max-Age=3600;/)
  })

  it("hands a database session's slid expiry to the sink", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: "ada@example.com", emailVerified: null, name: "Ada" })
    await storeSession(adapter, { sessionToken: "db-token", userId: user.id, expires: new Date(Date.now() + 1000_000) })
    const config = testConfig({ adapter, session: { strategy: "database", maxAge: 3600, updateAge: 0 } })
    const { session, cookies } = await read(pageRequest(`${NAME}=db-token`), config)
    expect(session).toMatchObject({ user: { id: user.id, email: "ada@example.com" } })
    expect(cookies[0]).toMatch(/^authjs\.session-token=db-token; .*Expires=/)
  })

  it("answers null and clears a tampered cookie", async () => {
    const token = await sealed({ sub: "u1" })
    const tampered = token.slice(0, -3) + (token.endsWith("AAA") ? "BBB" : "AAA")
    const { session, cookies } = await read(pageRequest(`${NAME}=${tampered}`), testConfig())
    expect(session).toBeNull()
    expect(cookies[0]).toMatch(/^authjs\.session-token=; Max-Age=0/)
  })

  it("answers null for a cookie sealed with another secret", async () => {
    const cookie = `${NAME}=${await sealed({ sub: "u1" }, "another-secret-that-is-long-enough-to-use")}`
    expect((await read(pageRequest(cookie), testConfig())).session).toBeNull()
  })

  it("answers null for garbage and oversized cookie headers", async () => {
    expect(await getSession(pageRequest(`${NAME}=%%%;;=;${"x".repeat(10_000)}`), testConfig())).toBeNull()
    expect(await getSession(pageRequest(`${NAME}.0=abc; ${NAME}.7=def`), testConfig())).toBeNull()
  })

  it("answers null when the app's own jwt.decode throws on a bad cookie", async () => {
    const config = testConfig({
      jwt: {
        decode: () => {
          throw new Error("not a token of ours")
        },
      },
    })
    expect(await getSession(pageRequest(`${NAME}=garbage`), config)).toBeNull()
  })

  it("answers null and logs when the host is not trusted", async () => {
    const config = recordingConfig({ trustHost: false })
    const cookie = `${NAME}=${await sealed({ sub: "u1" })}`
    expect(await getSession(pageRequest(cookie), config)).toBeNull()
    expect(config.errors).toEqual(["UntrustedHost"])
  })

  it("answers null for a malformed forwarded host", async () => {
    const config = recordingConfig()
    const request = pageRequest(`${NAME}=${await sealed({ sub: "u1" })}`, { headers: { "x-forwarded-host": "evil.example/path" } })
    expect(await getSession(request, config)).toBeNull()
    expect(config.errors).toEqual(["UntrustedHost"])
  })

  it("reads the __Host- cookie on an https origin, as Auth() does", async () => {
    const secureName = `__Host-${NAME}`
    const token = await sealed({ sub: "u1" }, SECRET, secureName)
    const https = { url: "https://app.example/dashboard" }
    expect(await getSession(pageRequest(`${secureName}=${token}`, https), testConfig())).toMatchObject({ user: { id: "u1" } })
    expect(await getSession(pageRequest(`${NAME}=${token}`, https), testConfig())).toBeNull()
  })

  it("throws when a session callback throws: an outage is not a signed-out user", async () => {
    const config = testConfig({
      callbacks: {
        session: () => {
          throw new Error("boom")
        },
      },
    })
    const cookie = `${NAME}=${await sealed({ sub: "u1" })}`
    await expect(getSession(pageRequest(cookie), config)).rejects.toMatchObject({ code: "SessionTokenError" })
  })

  it("throws MissingSecret for a configuration without a secret", async () => {
    await expect(getSession(pageRequest(), testConfig({ secret: undefined }))).rejects.toMatchObject({ code: "MissingSecret" })
  })
})
