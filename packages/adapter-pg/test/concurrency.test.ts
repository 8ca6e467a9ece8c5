import type { AdapterUser, StrictAdapter } from "@portcullis/core/adapters"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PostgresAdapter, PostgresAdapterError, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"

const RACERS = 8

/**
 * A first sign-in as core does it with no signed-in user: look the account up, then the email,
 * then create the user and link the account, deleting the user again if linking fails.
 */
async function firstSignIn(adapter: Required<StrictAdapter>, email: string | null, providerAccountId: string): Promise<AdapterUser> {
  const account = { type: "oidc" as const, provider: "idp", providerAccountId }
  const known = await adapter.getUserByAccount(account)
  if (known) return known
  if (email !== null && (await adapter.getUserByEmail(email))) throw new Error("OAuthAccountNotLinked")
  const user = await adapter.createUser({ email, emailVerified: null, name: "Racer" })
  try {
    await adapter.linkAccount({ ...account, userId: user.id })
  } catch (error) {
    await adapter.deleteUser(user.id)
    throw error
  }
  return user
}

describe("concurrent first sign-ins of one person, through separate pools (instances)", () => {
  const pool = useDatabase("concurrency", migrate)
  const instances: pg.Pool[] = []
  beforeAll(() => {
    const { connectionString } = pool().options
    for (let i = 0; i < 2; i++) instances.push(new pg.Pool({ connectionString, max: RACERS }))
  })
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.end()))
  })

  /** Runs RACERS sign-ins at once, alternating instances; returns the settled results. */
  async function race(email: string | null, providerAccountId: string): Promise<PromiseSettledResult<AdapterUser>[]> {
    const adapters = instances.map((instance) => PostgresAdapter(instance))
    return Promise.allSettled(Array.from({ length: RACERS }, (_, i) => firstSignIn(adapters[i % adapters.length] as Required<StrictAdapter>, email, providerAccountId)))
  }

  async function count(sql: string, values: unknown[]): Promise<number> {
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, values)
    return Number(rows[0]?.n)
  }

  it("with an email: one user and one account; the others fail with a Conflict or find the user unlinked", async () => {
    const results = await race("racer@example.com", "racer-1")
    expect(await count(`users WHERE email = $1`, ["racer@example.com"])).toBe(1)
    expect(await count(`accounts WHERE "providerAccountId" = $1`, ["racer-1"])).toBe(1)
    const created = results.filter((result) => result.status === "fulfilled")
    expect(created.length).toBeGreaterThanOrEqual(1)
    // A loser fails at createUser (Conflict), or reads the winner's user between its createUser
    // and linkAccount and is refused as core refuses an unlinked email.
    for (const result of results) {
      if (result.status === "rejected" && !(result.reason instanceof PostgresAdapterError)) {
        expect(result.reason).toMatchObject({ message: "OAuthAccountNotLinked" })
      }
    }
    // Whoever lost signs in again and finds the winner's user.
    const [again] = await race("racer@example.com", "racer-1")
    expect(again).toMatchObject({ status: "fulfilled", value: { email: "racer@example.com" } })
  })

  it("without an email: the account links once, and the losers' users are deleted again", async () => {
    const results = await race(null, "racer-2")
    expect(await count(`accounts WHERE "providerAccountId" = $1`, ["racer-2"])).toBe(1)
    expect(await count(`users WHERE email IS NULL`, [])).toBe(1)
    const rejected = results.filter((result) => result.status === "rejected")
    for (const result of rejected) expect(result.reason).toMatchObject({ reason: "Conflict", message: /already linked/ })
  })

  it("a verification token is used once, however many instances try at once", async () => {
    const adapters = instances.map((instance) => PostgresAdapter(instance))
    const token = { identifier: "racer@example.com", token: "one-use", expires: new Date(Date.now() + 60_000) }
    const [first, second] = adapters
    if (!first || !second) throw new Error("two instances")
    await first.createVerificationToken(token)
    const used = await Promise.all(Array.from({ length: RACERS }, async (_, i) => (i % 2 ? first : second).useVerificationToken(token)))
    expect(used.filter((found) => found !== null)).toHaveLength(1)
  })

  it("a single-use key is stored once, however many instances use it at once", async () => {
    const adapters = instances.map((instance) => PostgresAdapter(instance))
    const expires = new Date(Date.now() + 60_000)
    for (const key of ["jti-1", "jti-2", "jti-3"]) {
      const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => (adapters[i % adapters.length] as Required<StrictAdapter>).useOnce(key, expires)))
      expect(answers.filter((answer) => answer)).toHaveLength(1)
    }
    // An expired key is taken over by exactly one of the racers, too.
    await pool().query(`UPDATE used_keys SET expires = now() - interval '1 minute' WHERE key = 'jti-1'`)
    const again = await Promise.all(Array.from({ length: 20 }, async (_, i) => (adapters[i % adapters.length] as Required<StrictAdapter>).useOnce("jti-1", expires)))
    expect(again.filter((answer) => answer)).toHaveLength(1)
  })

  it("a session record one instance revokes reads as revoked on the other", async () => {
    const [first, second] = instances.map((instance) => PostgresAdapter(instance))
    if (!first || !second) throw new Error("two instances")
    const user = await first.createUser({ email: "records@example.com", emailVerified: null })
    const now = new Date(Math.floor(Date.now() / 1000) * 1000)
    await first.createSessionRecord({ id: "rec-1", userId: user.id, createdAt: now, lastSeenAt: now, expires: new Date(now.getTime() + 60_000), provider: "idp", providerSid: "sid-1" })
    const [listed] = await second.listSessionRecords({ provider: "idp", providerSid: "sid-1" })
    expect(listed).toMatchObject({ id: "rec-1", userId: user.id, revokedAt: null })
    await second.updateSessionRecord({ id: "rec-1", revokedAt: now })
    expect(await first.getSessionRecord("rec-1")).toMatchObject({ revokedAt: now })
  })

  it("a second factor's TOTP step, backup code and wrong codes count once each across instances (RFC 6238 §5.2)", async () => {
    const adapters = instances.map((instance) => PostgresAdapter(instance))
    const on = (i: number): Required<StrictAdapter> => adapters[i % adapters.length] as Required<StrictAdapter>
    const createdAt = new Date()
    await on(0).createAuthFactor({ id: "totp-1", userId: "u-mfa", type: "totp", secret: "sealed", createdAt, lastUsedStep: 1000 })
    await on(1).createAuthFactor({ id: "code-1", userId: "u-mfa", type: "backup", secret: "hashed", createdAt })
    const steps = await Promise.all(Array.from({ length: 20 }, async (_, i) => on(i).useAuthFactorStep("totp-1", 1000 + (i % 3))))
    expect(steps.filter((accepted, i) => accepted && i % 3 === 2)).toHaveLength(1)
    expect(steps.filter((accepted, i) => accepted && i % 3 === 0)).toHaveLength(0)
    const spent = await Promise.all(Array.from({ length: 20 }, async (_, i) => on(i).deleteAuthFactor("code-1")))
    expect(spent.filter((answer) => answer)).toHaveLength(1)
    const counts = await Promise.all(Array.from({ length: 20 }, async (_, i) => on(i).countAuthFactorFailure("totp-1")))
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(await on(1).listAuthFactors("u-mfa")).toEqual([expect.objectContaining({ id: "totp-1", lastUsedStep: 1002, failures: 20 })])
  })
})
