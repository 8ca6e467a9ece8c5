/**
 * `@portcullis/adapter-test`: the conformance suite every `@portcullis/core` adapter runs, and
 * the contract every rate-limit store (`rateLimit.store`) keeps (`runRateLimitStoreTests`).
 *
 * @example
 * ```ts
 * // test/conformance.test.ts of an adapter package
 * import { runAdapterTests } from "@portcullis/adapter-test"
 * import { MemoryAdapter } from "../src/index.js"
 *
 * runAdapterTests({ adapter: () => MemoryAdapter() })
 * ```
 *
 * @module
 */
import type { Adapter, Awaitable } from "@portcullis/core/adapters"
import { describe, it } from "vitest"
import { cases, type AdapterTestCase, type AdapterTestDb, type AdapterTestGroup } from "./cases.js"

export { cases }
export type { AdapterTestCase, AdapterTestContext, AdapterTestDb, AdapterTestGroup } from "./cases.js"
export {
  CONCURRENT_HITS,
  rateLimitStoreCases,
  runRateLimitStoreTests,
  type RateLimitStoreCase,
  type RateLimitStoreClock,
  type RateLimitStoreTestOptions,
} from "./rate-limit-store.js"

/** What `runAdapterTests` runs the suite against. */
export interface AdapterTestOptions {
  /**
   * The adapter, or a factory called right before each case so no state leaks between cases.
   * A `db` that reads "the current store" sees the store of the adapter made last.
   */
  adapter: Adapter | (() => Awaitable<Adapter>)
  /** Direct access to the store, so cases can also check what was (not) deleted. */
  db?: AdapterTestDb
  /**
   * Names of cases or of whole groups left out, for what the store does not offer. They are not
   * registered at all, so a run never counts them (as passed or as skipped).
   */
  skip?: readonly string[]
}

/**
 * Registers the conformance suite with vitest: a `describe` per group, an `it` per case.
 * Call it at the top level of a test file.
 *
 * @throws {TypeError} when `skip` names no case and no group (a typo would silently run it).
 */
export function runAdapterTests(options: AdapterTestOptions): void {
  const skip = new Set(options.skip)
  const known = new Set(cases.flatMap((testCase) => [testCase.name, testCase.group]))
  for (const name of skip) {
    if (!known.has(name)) throw new TypeError(`runAdapterTests: skip names no case or group: "${name}"`)
  }

  const groups = new Map<AdapterTestGroup, AdapterTestCase[]>()
  for (const testCase of cases) groups.set(testCase.group, [...(groups.get(testCase.group) ?? []), testCase])

  describe("adapter conformance", () => {
    for (const [group, groupCases] of groups) {
      if (skip.has(group)) continue
      describe(group, () => {
        for (const testCase of groupCases) {
          if (skip.has(group) || skip.has(testCase.name)) continue
          it(testCase.name, async () => {
            const adapter = typeof options.adapter === "function" ? await options.adapter() : options.adapter
            await testCase.run({ adapter, db: options.db })
          })
        }
      })
    }
  })
}

/** Runs one SQL query with `$1`-style parameters, as `pg`'s `Pool#query` does. */
export type SqlQuery = (sql: string, values: unknown[]) => Promise<{ rows: unknown[] }>

/** The table names of one of Auth.js's SQL schemas, as written in SQL (quoted where they need it). */
export interface SqlTables {
  users: string
  accounts: string
  sessions: string
  verificationTokens: string
  authenticators: string
}

/** The tables of Auth.js's PostgreSQL adapter (`@auth/pg-adapter`). */
export const PG_ADAPTER_TABLES: SqlTables = {
  users: "users",
  accounts: "accounts",
  sessions: "sessions",
  verificationTokens: "verification_token",
  authenticators: "authenticators",
}

/**
 * Direct access to one of Auth.js's SQL schemas for `runAdapterTests`' `db`: by default the
 * tables of its PostgreSQL adapter (`users`, `accounts`, `sessions`, `verification_token`), or
 * those `options.tables` names (the Prisma, Drizzle and Kysely guides name them otherwise); with
 * `authenticators: true` also the authenticators table. The columns are the ones every Auth.js
 * schema shares. An id the column cannot hold (`"abc"` for a SERIAL or UUID id: PostgreSQL's
 * `22P02`) finds nothing.
 *
 * @example
 * ```ts
 * runAdapterTests({ adapter: () => PostgresAdapter(pool), db: sqlStoreAccess((sql, values) => pool.query(sql, values)) })
 * ```
 */
export function sqlStoreAccess(query: SqlQuery, options: { authenticators?: boolean; tables?: SqlTables } = {}): AdapterTestDb {
  const one = async (sql: string, values: unknown[]): Promise<unknown> => {
    try {
      return (await query(sql, values)).rows[0] ?? null
    } catch (error) {
      // invalid_text_representation: "abc" for an integer or UUID id.
      if ((error as { code?: string }).code === "22P02") return null
      throw error
    }
  }
  const t = options.tables ?? PG_ADAPTER_TABLES
  const db: AdapterTestDb = {
    user: (id) => one(`SELECT * FROM ${t.users} WHERE id = $1`, [id]),
    account: ({ provider, providerAccountId }) => one(`SELECT * FROM ${t.accounts} WHERE provider = $1 AND "providerAccountId" = $2`, [provider, providerAccountId]),
    session: (token) => one(`SELECT * FROM ${t.sessions} WHERE "sessionToken" = $1`, [token]),
    verificationToken: ({ identifier, token }) => one(`SELECT * FROM ${t.verificationTokens} WHERE identifier = $1 AND token = $2`, [identifier, token]),
  }
  if (options.authenticators === true) db.authenticator = (id) => one(`SELECT * FROM ${t.authenticators} WHERE "credentialID" = $1`, [id])
  return db
}
