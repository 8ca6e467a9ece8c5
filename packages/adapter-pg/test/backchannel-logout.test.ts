/**
 * OpenID Connect Back-Channel Logout across two app instances in separate processes sharing
 * PostgreSQL: the provider posts one logout token, which the load balancer hands to one
 * instance, and the session ends on both: a database session (its row deleted), and a JWT
 * session (its record revoked, which every read looks at with `revocationCheckInterval: 0`).
 */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { ALICE, APP, Visitor, useInstancesAndIdp, type Instance } from "./instances.js"

const BACKCHANNEL = `${APP}/api/auth/backchannel-logout/idp`

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
    () => ({ DATABASE_URL: String(pool().options.connectionString), BACKCHANNEL_LOGOUT: "1", ...env }),
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
})

describe("back-channel logout of a JWT session, two processes sharing PostgreSQL", () => {
  const { running } = useBackchannelInstances("backchannel_jwt", { SESSION_STRATEGY: "jwt", REVOCATION_CHECK_INTERVAL: "0" })

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
})
