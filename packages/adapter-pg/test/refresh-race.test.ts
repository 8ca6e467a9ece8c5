/**
 * The refresh race, across processes: at expiry, 50 concurrent getAccessToken calls split over
 * two app instances that share PostgreSQL make exactly one refresh grant reach the provider, and
 * all 50 get the token it issued. The provider rotates refresh tokens and revokes the grant when
 * a spent one comes back, so a second refresh anywhere would show as a revoked grant.
 */
import { fileURLToPath } from "node:url"
import type pg from "pg"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { ALICE, APP, Visitor, useInstancesAndIdp, type Instance } from "./instances.js"
import { scaled } from "@portcullis/test-time"

const ROUNDS = 20
const CALLS = 50

async function tokenFrom(instance: Instance, cookie: string): Promise<{ accessToken?: string; error?: string; message?: string }> {
  const response = await fetch(`${instance.origin}/app/token`, { headers: { cookie } })
  return (await response.json()) as { accessToken?: string; error?: string; message?: string }
}

/** Signs Alice in through `instance` and answers her session cookie, with the provider's counters reset. */
async function signedInCookie(instance: Instance, idp: { reset(): void }): Promise<string> {
  const visitor = new Visitor(instance)
  expect((await visitor.signIn(ALICE)).url, instance.output.join("\n")).toBe(`${APP}/protected`)
  idp.reset()
  return visitor.browser.cookies(APP).map(({ name, value }) => `${name}=${value}`).join("; ")
}

/** `CALLS` concurrent token requests split over both instances, right after the stored access token expired. */
async function raceAtExpiry(pool: () => pg.Pool, [first, second]: [Instance, Instance], cookie: string) {
  // The stored token reaches its expiry (the provider's own lifetime is an hour).
  await pool().query(`UPDATE accounts SET expires_at = $1 WHERE provider = 'idp'`, [Math.floor(Date.now() / 1000) - 1])
  return Promise.all(Array.from({ length: CALLS }, (_, i) => tokenFrom(i % 2 === 0 ? first : second, cookie)))
}

describe("getAccessToken across two instances sharing PostgreSQL", () => {
  const pool = useDatabase("refresh_race", migrate)
  const running = useInstancesAndIdp(() => ({ DATABASE_URL: String(pool().options.connectionString) }))

  it(`makes exactly one refresh grant per expiry for ${CALLS} concurrent calls, ${ROUNDS} rounds in a row`, async () => {
    const { instances, idp } = running()
    const [first, second] = instances
    const cookie = await signedInCookie(first, idp)

    const started = performance.now()
    let previous: string | undefined
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await raceAtExpiry(pool, instances, cookie)
      const failed = answers.filter((answer) => answer.accessToken === undefined)
      expect(failed, `round ${round}: ${JSON.stringify(failed.slice(0, 2))}\n${first.output.concat(second.output).join("\n")}`).toEqual([])
      const tokens = new Set(answers.map((answer) => answer.accessToken))
      expect(tokens.size, `round ${round}: every caller gets the one new token`).toBe(1)
      const [token] = tokens
      expect(token).not.toBe(previous)
      previous = token
      expect(idp.refreshGrants, `round ${round}: refresh grants so far`).toBe(round)
      expect(idp.revokedGrants, `round ${round}: no refresh token was spent twice`).toBe(0)
    }
    // The last token is one the provider honours.
    const userinfo = await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${previous ?? ""}` } })
    expect(userinfo.status).toBe(200)
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM accounts`)
    expect(Number(rows[0]?.n)).toBe(1)
    console.log(`refresh race: ${ROUNDS} rounds x ${CALLS} calls over 2 processes, ${idp.refreshGrants} refresh grants, ${idp.revokedGrants} revoked, ${Math.round(performance.now() - started)} ms`)
  }, scaled(60_000))
})

describe("the same race when the adapter has no withAccountLock (the control: the race is real)", () => {
  const pool = useDatabase("refresh_race_unlocked", migrate)
  const running = useInstancesAndIdp(() => ({
    DATABASE_URL: String(pool().options.connectionString),
    ADAPTER_MODULE: fileURLToPath(new URL("no-lock-adapter.ts", import.meta.url)),
  }))

  it("spends a refresh token in both processes", async () => {
    const { instances, idp } = running()
    const cookie = await signedInCookie(instances[0], idp)
    for (let round = 1; round <= ROUNDS && idp.revokedGrants === 0 && idp.refreshGrants < round; round++) {
      await raceAtExpiry(pool, instances, cookie)
    }
    // Both processes refreshed with the same token: the provider saw it come back and revoked the grant.
    expect(idp.revokedGrants).toBeGreaterThan(0)
  }, scaled(60_000))
})
