/**
 * `POST /session`: the client's `update(data)`, CSRF-checked, reaching the `jwt` and `session`
 * callbacks with `trigger: "update"`.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { revokeUserSessions } from "../src/sessions.js"
import type { AuthConfig } from "../src/types.js"
import { Jar, PASSWORD, call, csrfToken, passwordProvider, testConfig } from "./helpers.js"

async function signedIn(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
  return jar
}

async function update(config: AuthConfig, jar: Jar, body: Record<string, unknown>): Promise<Response> {
  return call(config, jar, "/api/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
}

describe("POST /session", () => {
  it("re-seals a JWT session with what the jwt callback made of the update", async () => {
    const seen: unknown[] = []
    const config = testConfig({
      providers: [passwordProvider()],
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, theme: (session as { theme?: string }).theme } : token),
        session: ({ session, token, trigger, newSession }) => {
          seen.push([trigger, newSession])
          return { ...session, theme: token.theme }
        },
      },
    })
    const jar = await signedIn(config)
    const response = await update(config, jar, { csrfToken: await csrfToken(config, jar), data: { theme: "dark" } })
    expect(await response.json()).toMatchObject({ theme: "dark", user: { name: "Ada Lovelace" } })
    expect(seen).toContainEqual(["update", { theme: "dark" }])
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ theme: "dark" })
  })

  it("passes the update to the session callback of a database session", async () => {
    const seen: unknown[] = []
    const adapter = MemoryAdapter({ users: [{ id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] })
    const config = testConfig({
      adapter,
      session: { strategy: "database" },
      providers: [passwordProvider()],
      callbacks: {
        session: ({ session, trigger, newSession }) => {
          seen.push([trigger, newSession])
          return session
        },
      },
    })
    const jar = await signedIn(config)
    await update(config, jar, { csrfToken: await csrfToken(config, jar), data: { nickname: "Countess" } })
    expect(seen).toContainEqual(["update", { nickname: "Countess" }])
  })

  it("refuses an update without the CSRF token, changing nothing", async () => {
    let updates = 0
    const config = testConfig({
      providers: [passwordProvider()],
      callbacks: { jwt: ({ token, trigger }) => (trigger === "update" ? { ...token, n: ++updates } : token) },
    })
    const jar = await signedIn(config)
    const response = await update(config, jar, { data: { admin: true } })
    expect(response.status).toBe(403)
    expect(updates).toBe(0)
  })

  describe("`sessionId` is reserved: a `jwt` callback written `{ ...token, ...session }` cannot move the session off its record (ASVS V7.4.1)", () => {
    function spreading(): AuthConfig {
      return testConfig({
        adapter: MemoryAdapter(),
        session: { strategy: "jwt", revocationCheckInterval: 0 },
        providers: [passwordProvider()],
        callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
      })
    }

    it("an update posting `{ sessionId: null }` leaves the session revocable", async () => {
      const config = spreading()
      const jar = await signedIn(config)
      const response = await update(config, jar, { csrfToken: await csrfToken(config, jar), data: { sessionId: null } })
      expect(response.status).toBe(200)
      expect(await revokeUserSessions(config, "user-ada")).toBe(1)
      expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    })

    it("an update posting another session's id keeps naming its own record", async () => {
      const config = spreading()
      const mine = await signedIn(config)
      const other = await signedIn(config)
      const listed = (await (await call(config, other, "/api/auth/sessions")).json()) as Array<{ id: string; current: boolean }>
      const othersId = listed.find((entry) => entry.current)?.id
      expect(othersId).toBeDefined()
      await update(config, mine, { csrfToken: await csrfToken(config, mine), data: { sessionId: othersId } })
      // `other` ends every session but its own: `mine` must be among them.
      const body = JSON.stringify({ others: true, csrfToken: await csrfToken(config, other) })
      expect(await (await call(config, other, "/api/auth/sessions/revoke", { method: "POST", headers: { "content-type": "application/json" }, body })).json()).toEqual({ revoked: 1 })
      expect(await (await call(config, mine, "/api/auth/session")).json()).toBeNull()
      expect(await (await call(config, other, "/api/auth/session")).json()).toMatchObject({ user: { name: "Ada Lovelace" } })
    })
  })
})
