/**
 * Creating the adapter's tables, and deleting what expired.
 *
 * @module migrate
 */
import { readFile } from "node:fs/promises"
import type { Pool } from "pg"
import { PostgresAdapterError, UNIQUE_VIOLATION, sqlState } from "./errors.js"

/** The schema file shipped with the package (`@portcullis/adapter-pg/schema.sql`). */
export const SCHEMA_URL = new URL("../schema.sql", import.meta.url)

/** Any constant: instances migrating at once take turns on this advisory lock. */
const MIGRATION_LOCK = 0x61757468 // "auth"

/**
 * Creates the adapter's tables, columns and indexes where they are missing, in one transaction.
 * Safe to run on every start, from several instances at once, and on a database made from
 * Auth.js's PostgreSQL adapter schema (SERIAL or UUID ids): no table, column or row is dropped
 * (session records lose the foreign key earlier versions gave them, and their `"userId"` becomes text).
 *
 * @param pool A node-postgres pool (or anything with its `connect()`), connected as a role that may create tables.
 * @throws {PostgresAdapterError} with reason `DuplicateRows` when existing rows repeat an email
 * or a provider account, so the unique keys cannot be added; the message says which.
 * @throws {Error} the database's error for anything else (no permission, no connection).
 *
 * @example
 * ```ts
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL })
 * pool.on("error", (error) => console.error("PostgreSQL dropped an idle connection:", error.message)) // else a database restart ends the process
 * await migrate(pool) // at start-up, or from a deploy script
 * ```
 */
export async function migrate(pool: Pick<Pool, "connect">): Promise<void> {
  const schema = await readFile(SCHEMA_URL, "utf8")
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK])
    await client.query(schema)
    await client.query("COMMIT")
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    if (sqlState(error) === UNIQUE_VIOLATION) {
      throw new PostgresAdapterError(
        "DuplicateRows",
        `migrate(): existing rows repeat a key that must be unique (${(error as Error).message}): merge or delete the duplicate users (same email) or accounts (same provider and providerAccountId), then run migrate() again.`,
        { cause: error },
      )
    }
    throw error
  } finally {
    client.release()
  }
}

/** How many rows {@link sweepExpired} deleted. */
export interface SweepResult {
  sessions: number
  verificationTokens: number
  sessionRecords: number
  usedKeys: number
  /** Counters of `postgresRateLimitStore` whose window ended. */
  rateLimits: number
}

/**
 * Deletes expired sessions, verification tokens, session records, single-use keys and rate-limit
 * counters whose window ended. The adapter never returns expired sessions and tokens, and deletes
 * one when it is read, but rows nobody reads again stay until swept: run this now and then (a
 * cron job, a timer in one instance). Uses the database's clock.
 *
 * @throws {Error} the database's error (tables missing: run {@link migrate} first).
 *
 * @example
 * ```ts
 * setInterval(() => void sweepExpired(pool).catch(console.error), 60 * 60 * 1000).unref()
 * ```
 */
export async function sweepExpired(pool: Pick<Pool, "query">): Promise<SweepResult> {
  const sessions = await pool.query(`DELETE FROM sessions WHERE expires <= now()`)
  const tokens = await pool.query(`DELETE FROM verification_token WHERE expires <= now()`)
  const records = await pool.query(`DELETE FROM session_records WHERE expires <= now()`)
  const keys = await pool.query(`DELETE FROM used_keys WHERE expires <= now()`)
  const counters = await pool.query(`DELETE FROM rate_limits WHERE reset_at <= now()`)
  return {
    sessions: sessions.rowCount ?? 0,
    verificationTokens: tokens.rowCount ?? 0,
    sessionRecords: records.rowCount ?? 0,
    usedKeys: keys.rowCount ?? 0,
    rateLimits: counters.rowCount ?? 0,
  }
}
