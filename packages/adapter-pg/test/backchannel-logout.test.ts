/**
 * OpenID Connect Back-Channel Logout across two app instances in separate processes sharing
 * PostgreSQL: the provider posts one logout token, which the load balancer hands to one
 * instance, and the session ends on both: a database session (its row deleted), and a JWT
 * session (its record revoked, which every read looks at with `revocationCheckInterval: 0`).
 * The same instances read sessions from before the switch from Auth.js (`legacySessionCookies`):
 * one read through one instance is listed and ended by "sign out everywhere" on the other.
 */
import { encode } from "@portcullis/core/jwt"
import { describe, expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { ALICE, APP, BOB, SECRET, Visitor, useInstancesAndIdp, type Instance } from "./instances.js"

const BACKCHANNEL = `${APP}/api/auth/backchannel-logout/idp`
const DAY = 24 * 60 * 60 * 1000
/** Auth.js's session cookie on http: the same name as ours, so only the missing record tells a pre-switch session. */
const AUTHJS_COOKIE = "authjs.session-token"

/** The instance the provider's next logout token reaches, as the load balancer would send it. */
let deliverTo: Instance | undefined

async function deliver(request: Request): Promise<Response> {
  if (deliverTo === undefined) throw new Error("no instance to deliver the logout token to")
  const url = new URL(request.url)
  const body = await request.arrayBuffer()
  return fetch(new URL(url.pathname + url.search, deliverTo.origin), { method: request.method, headers: request.headers, body, redirect: "manual" })
}

/** Two instances with `backchannelLogout` on, and the provider posting logout tokens through {@link deliver}. */
function useBackchannelInstances(database: string, env: Record<string, string>) {
  const pool = useDatabase(database, migrate)
  const running = useInstancesAndIdp(
    () => ({ DATABASE_URL: String(pool().options.connectionString), BACKCHANNEL_LOGOUT: "1", LEGACY_UNTIL: new Date(Date.now() + DAY).toISOString(), ...env }),
    { fetch: deliver },
    { backchannel_logout_uri: BACKCHANNEL },
  )
  return { pool, running }
}

/** Signs Alice in through `first` and checks `second` reads the same session. */
async function signedInOnBoth([first, second]: [Instance, Instance]): Promise<Visitor> {
  const visitor = new Visitor(first)
  expect((await visitor.signIn(ALICE)).url, first.output.join("\n")).toBe(`${APP}/protected`)
  visitor.target = second
  expect(await visitor.session(), second.output.join("\n")).toMatchObject({ user: { email: "alice@example.com" } })
  return visitor
}

/**
 * A browser Auth.js signed in before the switch, as Bob (`userId`): a JWT sealed as Auth.js
 * seals it (its cookie name as the salt, no `sessionId`), or a row in `sessions` with no record.
 */
async function preSwitchVisitor(target: Instance, strategy: "jwt" | "database", userId: string, pool: () => import("pg").Pool): Promise<Visitor> {
  let value: string
  if (strategy === "jwt") {
    value = await encode({ token: { sub: userId, name: "Bob", email: BOB.login }, secret: SECRET, salt: AUTHJS_COOKIE })
  } else {
    value = crypto.randomUUID()
    await PostgresAdapter(pool()).createSession({ sessionToken: value, userId, expires: new Date(Date.now() + DAY) })
  }
  const visitor = new Visitor(target)
  visitor.browser.setCookie(APP, { name: AUTHJS_COOKIE, value, path: "/" })
  return visitor
}

/**
 * Reads, through `first`, a session from before the switch; lists and ends every session of Bob
 * through `second`. Bob, as the provider's logout of Alice above ended her pre-switch sessions too.
 */
async function signOutEverywhereFromSecond(strategy: "jwt" | "database", [first, second]: [Instance, Instance], pool: () => import("pg").Pool): Promise<void> {
  const bob = new Visitor(second)
  expect((await bob.signIn(BOB)).url, second.output.join("\n")).toBe(`${APP}/protected`)
  const userId = (await bob.session())?.user?.id ?? ""
  expect(userId).not.toBe("")
  const old = await preSwitchVisitor(first, strategy, userId, pool)
  expect(await old.session(), first.output.join("\n")).toMatchObject({ user: { email: BOB.login } })

  const listed = (await (await bob.browser.request(`${APP}/api/auth/sessions`)).json()) as Array<{ current: boolean }>
  expect(listed.map((entry) => entry.current)).toEqual([true, false])
  const revoke = await bob.browser.request(`${APP}/api/auth/sessions/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ all: true, csrfToken: await bob.csrfToken() }),
  })
  expect(await revoke.json(), second.output.join("\n")).toMatchObject({ revoked: 2 })
  expect(await old.session()).toBeNull()
  old.target = second
  expect(await old.session()).toBeNull()
  expect(await bob.session()).toBeNull()
}

describe("back-channel logout of a database session, two processes sharing PostgreSQL", () => {
  const { pool, running } = useBackchannelInstances("backchannel_database", { SESSION_STRATEGY: "database" })

  it("ends the session on both instances when the logout token reaches one of them", async () => {
    const { instances, idp } = running()
    const [first, second] = instances
    const visitor = await signedInOnBoth(instances)
    const { rows: before } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM sessions`)
    expect(Number(before[0]?.n)).toBe(1)

    deliverTo = second
    const [sent] = await idp.endSessions("alice")
    expect(sent, second.output.join("\n")).toMatchObject({ sub: "alice", error: undefined })
    expect(typeof sent?.sid).toBe("string")

    const { rows: after } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM sessions`)
    expect(Number(after[0]?.n)).toBe(0)
    visitor.target = first
    expect(await visitor.session()).toBeNull()
    visitor.target = second
    expect(await visitor.session()).toBeNull()
  })

  it("a pre-switch database session read through one instance is listed and ended by signing out everywhere on the other (ASVS V7.4.5)", async () => {
    await signOutEverywhereFromSecond("database", running().instances, pool)
  })
})

describe("back-channel logout of a JWT session, two processes sharing PostgreSQL", () => {
  const { pool, running } = useBackchannelInstances("backchannel_jwt", { SESSION_STRATEGY: "jwt", REVOCATION_CHECK_INTERVAL: "0" })

  it("ends the session on both instances when the logout token reaches one of them", async () => {
    const { instances, idp } = running()
    const [first, second] = instances
    const visitor = await signedInOnBoth(instances)

    deliverTo = first
    const [sent] = await idp.endSessions("alice")
    expect(sent, first.output.join("\n")).toMatchObject({ sub: "alice", error: undefined })

    // The cookie still opens: it is the revoked record, read from the shared store, that ends it.
    visitor.target = second
    expect(await visitor.session()).toBeNull()
    visitor.target = first
    expect(await visitor.session()).toBeNull()
  })

  it("a pre-switch JWT session read through one instance is listed and ended by signing out everywhere on the other (ASVS V7.4.5)", async () => {
    await signOutEverywhereFromSecond("jwt", running().instances, pool)
  })

  it("deleting the account through one instance leaves no row of the user in any table, and its JWT cookie fails on the other", async () => {
    const { instances } = running()
    const [first, second] = instances
    const visitor = await signedInOnBoth(instances)
    const userId = (await visitor.session())?.user?.id ?? ""
    expect(userId).not.toBe("")
    const { rows: tables } = await pool().query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
    /**
     * Every row, in every table, that names the user: its own row, a row whose `userId` is theirs,
     * or one holding the address. Ids are small serial numbers, so a substring would also match
     * another user's timestamps and tokens.
     */
    const rowsOfUser = async (): Promise<string[]> => {
      const found: string[] = []
      for (const { name } of tables) {
        const { rows } = await pool().query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`)
        for (const { row } of rows) {
          const fields = JSON.parse(row) as Record<string, unknown>
          const owner = name === "users" ? fields.id : fields.userId
          if (String(owner) === userId || row.includes(ALICE.login)) found.push(`${name}: ${row}`)
        }
      }
      return found
    }
    expect((await rowsOfUser()).map((row) => row.slice(0, row.indexOf(":"))).sort()).toEqual(expect.arrayContaining(["accounts", "session_records", "users"]))

    visitor.target = first
    const csrfToken = await visitor.csrfToken()
    const deleted = await visitor.browser.request(`${APP}/api/auth/account/delete`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }),
      initiator: `${APP}/settings`,
    })
    expect(deleted.status, first.output.join("\n")).toBe(200)
    expect(await rowsOfUser()).toEqual([])
    visitor.target = second
    expect(await visitor.session()).toBeNull()
  })
})
