/**
 * Database sessions with an adapter that stores numeric ids, as Auth.js's SERIAL schemas do:
 * core reads every id as an opaque string.
 */
import { describe, expect, it } from "vitest"
import type { Adapter } from "../src/adapters.js"
import { Jar, call, testConfig } from "./helpers.js"

const DAY = 24 * 60 * 60 * 1000

function numericStore(): Adapter {
  const user = { id: 5 as unknown as string, name: "Ada", email: "ada@example.com", emailVerified: null }
  return {
    getSessionAndUser: (token) =>
      token === "serial-session" ? { session: { sessionToken: token, userId: 5 as unknown as string, expires: new Date(Date.now() + DAY) }, user } : null,
    createSession: (session) => session,
    updateSession: () => null,
    deleteSession: () => null,
  }
}

describe("database sessions with numeric ids", () => {
  it("answers the session user's id as a string", async () => {
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", "serial-session")
    const config = testConfig({ adapter: numericStore(), session: { strategy: "database" }, providers: [] })
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { id: "5", name: "Ada" } })
  })

  it("treats a user without a usable id as no session", async () => {
    const store = numericStore()
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", "serial-session")
    const broken: Adapter = { ...store, getSessionAndUser: () => ({ session: { sessionToken: "x", userId: "x", expires: new Date(Date.now() + DAY) }, user: { id: {} as unknown as string, email: null, emailVerified: null } }) }
    const config = testConfig({ adapter: broken, session: { strategy: "database" }, providers: [] })
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })
})
