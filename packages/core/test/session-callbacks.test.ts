/** The `session` callback gets what Auth.js passes it, and `/session` and `/csrf` are never cached. */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { encode } from "../src/session/jwt.js"
import { Jar, SECRET, call, testConfig, storeSession } from "./helpers.js"

const NAME = "authjs.session-token"

describe("the session callback", () => {
  it("with JWT sessions gets { session, token } and nothing else", async () => {
    const seen: Record<string, unknown>[] = []
    const config = testConfig({
      callbacks: {
        session: (params) => {
          seen.push(params)
          return params.session
        },
      },
    })
    const jar = new Jar()
    jar.cookies.set(NAME, await encode({ token: { sub: "u1", name: "Ada", role: "admin" }, secret: SECRET, salt: NAME }))
    await call(config, jar, "/api/auth/session")
    expect(seen).toHaveLength(1)
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(["session", "token"])
    expect(seen[0]).toMatchObject({ session: { user: { id: "u1", name: "Ada" } }, token: { sub: "u1", role: "admin" } })
  })

  it("with database sessions gets { session, user, newSession }, the session holding the adapter's user", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: "ada@example.com", emailVerified: null, name: "Ada", plan: "pro" })
    await storeSession(adapter, { sessionToken: "db-token", userId: user.id, expires: new Date(Date.now() + 3600_000) })
    const seen: Record<string, unknown>[] = []
    const config = testConfig({
      adapter,
      session: { strategy: "database" },
      callbacks: {
        session: (params) => {
          seen.push(params)
          // The pattern Auth.js documents for database sessions.
          params.session.user.id = params.user.id
          return params.session
        },
      },
    })
    const jar = new Jar()
    jar.cookies.set(NAME, "db-token")
    const body = (await (await call(config, jar, "/api/auth/session")).json()) as Record<string, unknown>
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(["newSession", "session", "user"])
    expect(seen[0]).toMatchObject({ user: { id: user.id, plan: "pro" }, session: { userId: user.id, user: { id: user.id, email: "ada@example.com", plan: "pro" } } })
    expect(body).toMatchObject({ user: { id: user.id, name: "Ada" } })
    expect(Date.parse(String(body.expires))).toBeGreaterThan(Date.now())
  })

  it("attack: a database session callback that returns session as-is does not leak the session token to scripts", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: "ada@example.com", emailVerified: null, name: "Ada" })
    await storeSession(adapter, { sessionToken: "db-token-that-must-stay-in-the-cookie", userId: user.id, expires: new Date(Date.now() + 3600_000) })
    const config = testConfig({ adapter, session: { strategy: "database" }, callbacks: { session: ({ session }) => session } })
    const jar = new Jar()
    jar.cookies.set(NAME, "db-token-that-must-stay-in-the-cookie")
    const text = await (await call(config, jar, "/api/auth/session")).text()
    expect(text).toContain("ada@example.com")
    expect(text).not.toContain("db-token-that-must-stay-in-the-cookie")
  })
})

describe("answers no cache may keep", () => {
  for (const path of ["/api/auth/session", "/api/auth/csrf"]) {
    it(`${path} carries Cache-Control, Expires: 0 and Pragma: no-cache`, async () => {
      const response = await call(testConfig(), new Jar(), path)
      expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
      expect(response.headers.get("expires")).toBe("0")
      expect(response.headers.get("pragma")).toBe("no-cache")
    })
  }
})
