/**
 * Listing and ending sessions through `Auth()` on PostgreSQL, both strategies: a credentials user
 * the database does not keep has session records too (no foreign key), a revoked database session
 * is refused at once, a revoked JWT session on the next look (revocationCheckInterval 0).
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import { listSessions, revokeUserSessions } from "@portcullis/core/sessions"
import { describe, expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"

const ORIGIN = "http://localhost:3000"
const PASSWORD = "correct horse battery staple"

/** A browser on one origin: its cookies and user agent. */
class Device {
  readonly cookies = new Map<string, string>()
  constructor(
    readonly config: AuthConfig,
    readonly agent: string,
  ) {}

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  async request(path: string, init: { method?: string; body?: string; type?: string } = {}): Promise<Response> {
    const headers = new Headers({ "user-agent": this.agent, cookie: this.cookie })
    if (init.type !== undefined) headers.set("content-type", init.type)
    const response = await Auth(new Request(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers, body: init.body }), this.config)
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      const cleared = attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))
      if (cleared) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1))
    }
    return response
  }

  async csrf(): Promise<string> {
    return ((await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  }

  async signIn(username: string): Promise<this> {
    const body = new URLSearchParams({ csrfToken: await this.csrf(), username, password: PASSWORD }).toString()
    const response = await this.request("/api/auth/callback/credentials", { method: "POST", body, type: "application/x-www-form-urlencoded" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
    return this
  }

  async session(): Promise<unknown> {
    return (await this.request("/api/auth/session")).json()
  }

  async revoke(target: Record<string, unknown>): Promise<unknown> {
    const response = await this.request("/api/auth/sessions/revoke", { method: "POST", type: "application/json", body: JSON.stringify({ ...target, csrfToken: await this.csrf() }) })
    expect(response.status).toBe(200)
    return response.json()
  }
}

describe.each(["jwt", "database"] as const)("sessions on PostgreSQL (%s strategy)", (strategy) => {
  const pool = useDatabase(`sessions_${strategy}`, migrate)

  async function app(): Promise<{ config: AuthConfig; userId: string; revoked: string[] }> {
    const adapter = PostgresAdapter(pool())
    // JWT sessions: a user from elsewhere, whom the database does not keep. Database sessions need a stored user.
    const user =
      strategy === "jwt"
        ? { id: `ldap-${crypto.randomUUID()}`, name: "Ada", email: "ada@example.com" }
        : await adapter.createUser({ id: "", name: "Ada", email: `ada-${crypto.randomUUID()}@example.com`, emailVerified: null })
    const revoked: string[] = []
    const config: AuthConfig = {
      secret: "a-test-secret-that-is-at-least-32-characters-long",
      trustHost: true,
      adapter,
      session: { strategy, revocationCheckInterval: 0 },
      providers: [{ id: "credentials", name: "Password", type: "credentials", credentials: { username: {}, password: {} }, authorize: ({ password }) => (password === PASSWORD ? user : null) }],
      events: { sessionRevoked: ({ reason }) => void revoked.push(reason) },
      logger: { error: () => undefined, warn: () => undefined },
    }
    return { config, userId: user.id, revoked }
  }

  it("lists both devices, ends the other by id, then every session with revokeUserSessions", async () => {
    const { config, userId, revoked } = await app()
    const laptop = await new Device(config, "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0").signIn("ada")
    const phone = await new Device(config, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1").signIn("ada")

    const listed = await listSessions(new Request(`${ORIGIN}/devices`, { headers: { cookie: laptop.cookie } }), config)
    expect(listed?.map((entry) => [entry.device, entry.current, entry.provider?.id])).toEqual([
      ["Firefox on Linux", true, "credentials"],
      ["Safari on iPhone", false, "credentials"],
    ])
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM session_records WHERE "userId" = $1`, [userId])
    expect(rows[0]?.n).toBe("2")

    expect(await laptop.revoke({ id: listed?.[1]?.id })).toEqual({ revoked: 1 })
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).toMatchObject({ user: { name: "Ada" } })

    await phone.signIn("ada")
    expect(await laptop.revoke({ others: true })).toEqual({ revoked: 1 })
    expect(await phone.session()).toBeNull()

    await phone.signIn("ada")
    expect(await revokeUserSessions(config, userId)).toBe(2)
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
    expect(revoked).toEqual(["revoked", "revoked", "admin", "admin"])
    if (strategy === "database") {
      const left = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM sessions WHERE "userId" = $1`, [userId])
      expect(left.rows[0]?.n).toBe("0")
    }
  })

  it("signs out everywhere with all: true", async () => {
    const { config } = await app()
    const laptop = await new Device(config, "curl/8").signIn("ada")
    const phone = await new Device(config, "curl/8").signIn("ada")
    expect(await laptop.revoke({ all: true })).toMatchObject({ revoked: 2 })
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
  })
})
