// postgresRateLimitStore: the shared store contract on a real server, across pools as across
// instances, and what is particular to PostgreSQL (bounded keys, sweeping, a missing table).
import { CONCURRENT_HITS, runRateLimitStoreTests } from "@portcullis/adapter-test"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { PostgresAdapterError, migrate, postgresRateLimitStore } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { scaled } from "@portcullis/test-time"

describe("postgresRateLimitStore", () => {
  const pool = useDatabase("rate_limit_store", migrate)

  runRateLimitStoreTests({ store: () => postgresRateLimitStore(pool()) })

  it(`gives ${String(CONCURRENT_HITS)} hits split over two pools (two instances) the counts 1 to ${String(CONCURRENT_HITS)}, each once`, async () => {
    const other = new pg.Pool({ connectionString: pool().options.connectionString, max: 10 })
    try {
      const [first, second] = [postgresRateLimitStore(pool()), postgresRateLimitStore(other)]
      const answers = await Promise.all(Array.from({ length: CONCURRENT_HITS }, (_, i) => (i % 2 === 0 ? first : second).hit("two-pools", 900)))
      expect(answers.map((answer) => answer.count).sort((a, b) => a - b)).toEqual(Array.from({ length: CONCURRENT_HITS }, (_, i) => i + 1))
    } finally {
      await other.end()
    }
  })

  it("stores a long key as its hash, and a NUL character too, so each row stays small", async () => {
    await pool().query(`DELETE FROM rate_limits`)
    const store = postgresRateLimitStore(pool())
    await store.hit(`client:${"9".repeat(5_000)}`, 60)
    await store.hit("with\u0000nul", 60)
    await store.hit("mail:short-key", 60)
    const { rows } = await pool().query<{ key: string }>(`SELECT key FROM rate_limits ORDER BY key`)
    expect(rows.map(({ key }) => key.replace(/^#sha256:[\w-]{43}$/, "hashed"))).toEqual(["hashed", "hashed", "mail:short-key"])
  })

  it("deletes ended windows as it goes, at most 500 a sweep, and keeps running ones", async () => {
    await pool().query(`DELETE FROM rate_limits`)
    await pool().query(`INSERT INTO rate_limits (key, count, reset_at) SELECT 'ended:' || i, 3, now() - interval '1 minute' FROM generate_series(1, 600) AS i`)
    await pool().query(`INSERT INTO rate_limits (key, count, reset_at) VALUES ('running', 2, now() + interval '1 minute')`)
    const store = postgresRateLimitStore(pool(), { sweepInterval: 0 })
    const count = async (): Promise<number> => Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM rate_limits WHERE reset_at <= now()`)).rows[0]?.n)

    // The sweep runs after the hit answers; wait for it.
    expect((await store.hit("another", 60)).count).toBe(1)
    const deadline = Date.now() + scaled(5_000)
    while ((await count()) > 100 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await count()).toBe(100)
    await store.hit("another", 60)
    while ((await count()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await count()).toBe(0)
    expect((await store.peek("running")).count).toBe(2)
  })

  it("refuses a window that is not a positive number of seconds", async () => {
    const store = postgresRateLimitStore(pool())
    for (const window of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) await expect(store.hit("bad-window", window)).rejects.toBeInstanceOf(RangeError)
    expect(() => postgresRateLimitStore(pool(), { sweepInterval: -1 })).toThrow(RangeError)
  })
})

describe("postgresRateLimitStore before migrate()", () => {
  const pool = useDatabase("rate_limit_store_unmigrated")

  it("says to run migrate(pool)", async () => {
    const hit = postgresRateLimitStore(pool()).hit("mail:x", 60)
    await expect(hit).rejects.toBeInstanceOf(PostgresAdapterError)
    await expect(hit).rejects.toMatchObject({ reason: "MissingSchema", message: /rate_limits.*run migrate\(pool\)/ })
  })
})
