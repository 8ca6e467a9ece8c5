/**
 * Core's abuse limits (`rateLimit.store`) counted in PostgreSQL, so every instance sharing the
 * database shares the limits.
 *
 * @module rate-limit-store
 */
import type { RateLimitCount, RateLimitStore } from "@portcullis/core"
import type { Pool } from "pg"
import { explain } from "./errors.js"

/** Options of {@link postgresRateLimitStore}. */
export interface PostgresRateLimitStoreOptions {
  /**
   * Seconds between two deletions of ended windows by this store (default 60). Each deletes at
   * most 500 rows, in the background of one `hit`; `sweepExpired` deletes them all.
   */
  sweepInterval?: number
}

/** Keys longer than this (in characters) are stored as their hash, so a row's size is bounded. */
export const MAX_STORED_KEY_LENGTH = 200
/** How stored hashes of long keys begin; a key that itself begins so is hashed too, so none is mistaken for another. */
const HASHED = "#sha256:"
/** How many ended windows one sweep deletes at most, so no hit waits on a long delete. */
const SWEEP_LIMIT = 500

/**
 * The key as stored: itself, or, when it is longer than {@link MAX_STORED_KEY_LENGTH}, holds a
 * NUL character (which no PostgreSQL text can hold) or looks like a hash, `#sha256:` and its
 * SHA-256 in base64url.
 */
async function storedKey(key: string): Promise<string> {
  if (key.length <= MAX_STORED_KEY_LENGTH && !key.includes("\u0000") && !key.startsWith(HASHED)) return key
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))
  return HASHED + Buffer.from(digest).toString("base64url")
}

/** Rows as the queries return them: pg answers BIGINT as a string. */
interface CountRow {
  count: string
  reset_at: Date
}

const toCount = (row: CountRow): RateLimitCount => ({ count: Number(row.count), resetAt: row.reset_at })

// One statement, so concurrent hits on one key queue on its row and each sees the one before: a
// new key is inserted with count 1, an ended window starts again at 1, a running one adds 1.
const HIT = `
  INSERT INTO rate_limits AS counter (key, count, reset_at) VALUES ($1, 1, now() + make_interval(secs => $2::float8))
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN counter.reset_at <= now() THEN 1 ELSE counter.count + 1 END,
    reset_at = CASE WHEN counter.reset_at <= now() THEN EXCLUDED.reset_at ELSE counter.reset_at END
  RETURNING count, reset_at`

const PEEK = `SELECT count, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()`

// SKIP LOCKED: instances sweeping at once take different rows, and none waits on a key being hit.
const SWEEP = `
  DELETE FROM rate_limits WHERE key IN (
    SELECT key FROM rate_limits WHERE reset_at <= now() ORDER BY reset_at LIMIT ${String(SWEEP_LIMIT)} FOR UPDATE SKIP LOCKED
  ) AND reset_at <= now()`

/**
 * A {@link RateLimitStore} in PostgreSQL's `rate_limits` table (made by `migrate(pool)`), for
 * `rateLimit.store`: instances sharing the database share the limits. `hit` is one `INSERT ...
 * ON CONFLICT DO UPDATE ... RETURNING` statement, so of any number of concurrent hits on one key,
 * across instances, each gets a count of its own. Windows run on the database's clock. Keys
 * longer than 200 characters are stored as their SHA-256. Every `sweepInterval` seconds a hit
 * also deletes up to 500 rows whose window ended; `sweepExpired(pool)` deletes them all.
 *
 * @param pool A node-postgres `Pool` (the adapter's own will do), or anything with its `query()`.
 * @throws {RangeError} from `hit` when `windowSeconds` is not a positive number.
 * @throws {PostgresAdapterError} with reason `MissingSchema` when the table is missing: run
 * `migrate(pool)`. Other database errors are thrown as they are.
 *
 * @example
 * ```ts
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL })
 * pool.on("error", (error) => console.error("PostgreSQL dropped an idle connection:", error.message)) // else a database restart ends the process
 * await migrate(pool)
 * Auth(request, { ...config, adapter: PostgresAdapter(pool), rateLimit: { store: postgresRateLimitStore(pool) } })
 * ```
 */
export function postgresRateLimitStore(pool: Pick<Pool, "query">, options: PostgresRateLimitStoreOptions = {}): RateLimitStore {
  const sweepInterval = (options.sweepInterval ?? 60) * 1000
  if (!(sweepInterval >= 0)) throw new RangeError("postgresRateLimitStore(): `sweepInterval` must be a number of seconds, 0 or more.")
  let lastSweep = Date.now()

  async function query(method: string, sql: string, values: unknown[]): Promise<CountRow[]> {
    try {
      return (await pool.query<CountRow>(sql, values)).rows
    } catch (error) {
      throw explain(error, `postgresRateLimitStore.${method}`, "a unique key is taken")
    }
  }

  function sweepWhenDue(): void {
    const now = Date.now()
    if (now - lastSweep < sweepInterval) return
    lastSweep = now
    // Not awaited, and its failure ignored: the hit's count stands either way, and the next sweep
    // deletes what this one left.
    pool.query(SWEEP).catch(() => undefined)
  }

  return {
    async hit(key, windowSeconds) {
      if (!(windowSeconds > 0) || !Number.isFinite(windowSeconds)) {
        throw new RangeError(`postgresRateLimitStore.hit(): the window must be a positive number of seconds, not ${String(windowSeconds)}.`)
      }
      const [row] = await query("hit", HIT, [await storedKey(key), windowSeconds])
      if (row === undefined) throw new Error("postgresRateLimitStore.hit(): the database returned no row")
      sweepWhenDue()
      return toCount(row)
    },
    async peek(key) {
      const [row] = await query("peek", PEEK, [await storedKey(key)])
      return row === undefined ? { count: 0, resetAt: new Date() } : toCount(row)
    },
    async reset(key) {
      await query("reset", `DELETE FROM rate_limits WHERE key = $1`, [await storedKey(key)])
    },
  }
}
