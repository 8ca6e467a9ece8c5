/**
 * `@portcullis/adapter-pg`: an Adapter for `@portcullis/core` on PostgreSQL through node-postgres (`pg`),
 * in the tables of Auth.js's PostgreSQL adapter, with `migrate()` to create or complete them
 * and `sweepExpired()` to delete what expired; and `postgresRateLimitStore()`, core's abuse
 * limits counted in the same database.
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import PostgresAdapter, { migrate } from "@portcullis/adapter-pg"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL })
 * pool.on("error", (error) => console.error("PostgreSQL dropped an idle connection:", error.message)) // else a database restart ends the process
 * await migrate(pool)
 * Auth(request, { adapter: PostgresAdapter(pool), providers, secret, session: { strategy: "database" } })
 * ```
 *
 * @module
 */
import { PostgresAdapter } from "./adapter.js"

export { PostgresAdapter, type PostgresAdapterOptions, type PostgresPool } from "./adapter.js"
export { PostgresAdapterError, type PostgresAdapterErrorReason } from "./errors.js"
export { migrate, sweepExpired, SCHEMA_URL, type SweepResult } from "./migrate.js"
export { postgresRateLimitStore, type PostgresRateLimitStoreOptions } from "./rate-limit-store.js"

export default PostgresAdapter
