import { describe, expect, it, vi, afterEach } from "vitest"
import { encode } from "../src/session/jwt.js"
import { assuranceClaim } from "../src/session/assurance.js"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"
import { Jar, SECRET, call, testConfig } from "./helpers.js"

const NAME = "authjs.session-token"

async function sessionCookie(token: Record<string, unknown>, secret: string | string[] = SECRET, maxAge = 3600): Promise<string> {
  return encode({ token, secret, salt: NAME, maxAge })
}

function withCookie(value: string, name = NAME): Jar {
  const jar = new Jar()
  jar.cookies.set(name, value)
  return jar
}

describe("JWT sessions", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("answers null and sets nothing without a session cookie", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("reads a session without re-sealing the cookie while updateAge has not passed", async () => {
    // A cookie sealed since sessions carry their assurance: one without it is re-sealed on its first read.
    const now = Math.floor(Date.now() / 1000)
    const assurance = await assuranceClaim([SECRET], { level: 1, methods: ["pwd"], authTime: now, signedInAt: now })
    const jar = withCookie(await sessionCookie({ sub: "u1", name: "Ada", email: "ada@example.com", picture: "https://img.example/a.png", assurance }))
    const response = await call(testConfig(), jar, "/api/auth/session")
    const session = (await response.json()) as { user: unknown; expires: string }
    expect(session.user).toEqual({ id: "u1", name: "Ada", email: "ada@example.com", image: "https://img.example/a.png" })
    expect(Date.parse(session.expires)).toBeGreaterThan(Date.now())
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("re-seals and slides the expiry once updateAge has passed", async () => {
    const config = testConfig({ session: { maxAge: 3600, updateAge: 60 } })
    const jar = withCookie(await sessionCookie({ sub: "u1" }))
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 120_000)
    const response = await call(config, jar, "/api/auth/session")
    const [cookie] = response.headers.getSetCookie()
    expect(cookie).toMatch(/^authjs\.session-token=.+; Max-Age=3600;/)
    const { expires } = (await response.json()) as { expires: string }
    expect(Date.parse(expires)).toBeGreaterThan(Date.now() + 3500_000)
  })

  it("treats a tampered cookie as no session and clears it", async () => {
    const sealed = await sessionCookie({ sub: "u1" })
    const tampered = sealed.slice(0, -3) + (sealed.endsWith("AAA") ? "BBB" : "AAA")
    const response = await call(testConfig(), withCookie(tampered), "/api/auth/session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()[0]).toMatch(/^authjs\.session-token=; Max-Age=0/)
  })

  it("treats a cookie sealed with an unknown secret as no session", async () => {
    const response = await call(testConfig(), withCookie(await sessionCookie({ sub: "u1" }, "another-secret-of-sufficient-length!!")), "/api/auth/session")
    expect(await response.json()).toBeNull()
  })

  it("rotates secrets: a cookie sealed with the old secret still reads after a new one is added first", async () => {
    const old = "the-old-secret-that-is-at-least-32-chars"
    const jar = withCookie(await sessionCookie({ sub: "u1", name: "Ada" }, old))
    const response = await call(testConfig({ secret: [SECRET, old] }), jar, "/api/auth/session")
    expect(await response.json()).toMatchObject({ user: { name: "Ada" } })
  })

  it("treats an expired token as no session", async () => {
    const jar = withCookie(await sessionCookie({ sub: "u1" }, SECRET, 1))
    vi.useFakeTimers({ toFake: ["Date"] })
    // Past the 15 seconds of clock skew Auth.js (and so we) forgive.
    vi.setSystemTime(Date.now() + 20_000)
    const response = await call(testConfig(), jar, "/api/auth/session")
    expect(await response.json()).toBeNull()
  })

  it("reassembles a session split into chunks", async () => {
    const big = { sub: "u1", name: "Ada", blob: "x".repeat(6000) }
    const sealed = await sessionCookie(big)
    const jar = new Jar()
    jar.cookies.set(`${NAME}.0`, sealed.slice(0, 3000))
    jar.cookies.set(`${NAME}.1`, sealed.slice(3000))
    const config = testConfig({ callbacks: { session: ({ session, token }) => ({ ...session, blobLength: (token.blob as string).length }) } })
    const response = await call(config, jar, "/api/auth/session")
    expect(await response.json()).toMatchObject({ user: { name: "Ada" }, blobLength: 6000 })
  })

  it("runs the jwt and session callbacks, re-sealing when the jwt callback changes the token", async () => {
    const config: AuthConfig = testConfig({
      callbacks: {
        jwt: ({ token }) => ({ ...token, role: "admin" }),
        session: ({ session, token }) => ({ ...session, role: token.role }),
      },
    })
    const jar = withCookie(await sessionCookie({ sub: "u1" }))
    const response = await call(config, jar, "/api/auth/session")
    expect(await response.json()).toMatchObject({ role: "admin" })
    expect(response.headers.getSetCookie()[0]).toMatch(/^authjs\.session-token=ey/)
    const again = await call(config, jar, "/api/auth/session")
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("ends the session when the jwt callback returns null", async () => {
    const config = testConfig({ callbacks: { jwt: () => null } })
    const response = await call(config, withCookie(await sessionCookie({ sub: "u1" })), "/api/auth/session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()[0]).toMatch(/Max-Age=0/)
  })

  it("turns a throwing session callback into a JSON error, not an exception", async () => {
    const config = testConfig({ callbacks: { session: () => { throw new Error("boom") } } })
    const response = await Auth(new Request("http://localhost:3000/api/auth/session", { headers: { cookie: `${NAME}=${await sessionCookie({ sub: "u1" })}` } }), config)
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "SessionTokenError" })
  })

  it("uses the __Host- cookie on https origins", async () => {
    const config = testConfig()
    const sealed = await encode({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: `__Host-${NAME}`, maxAge: 60 })
    const response = await Auth(new Request("https://app.example/api/auth/session", { headers: { cookie: `__Host-${NAME}=${sealed}` } }), config)
    expect(await response.json()).toMatchObject({ user: { name: "Ada" } })
  })
})
