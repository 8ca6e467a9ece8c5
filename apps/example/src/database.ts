/**
 * PostgreSQL for the example when `DATABASE_URL` is set: users, accounts and sessions then
 * outlive a restart and are shared by every instance of the app on that database.
 */
import type { Adapter, AdapterUser } from "@portcullis/core/adapters"
import { migrate, PostgresAdapter } from "@portcullis/adapter-pg"
import pg from "pg"

import { DEMO_USER } from "./demo-user.js"
import { PASSWORD_USER } from "./password-user.js"
import { readVariable, SettingsError, type Env } from "./settings.js"

/** The example's database: the adapter on it, the demo user as stored there, and how to close it. */
export interface Database {
  adapter: Adapter
  /** The demo user with the id the database gave it. */
  demoUser: AdapterUser
  /** The password user with the id the database gave it, holding this start's password hash. */
  passwordUser: AdapterUser
  /** Ends the connection pool. */
  close(): Promise<void>
}

/** Why the database could not be used, in words safe to print: never the URL, which may hold a password. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  return typeof code === "string" ? `${message} (${code})` : message
}

/** A stored seeded user: found by email, or created. Two instances starting at once both end up with the one row. */
async function seedUser(adapter: Adapter, seed: Readonly<AdapterUser>): Promise<AdapterUser> {
  const { email } = seed
  if (email === null) throw new TypeError(`the seeded user ${seed.id} has no email to find it by`)
  const find = async (): Promise<AdapterUser | null> => (await adapter.getUserByEmail?.(email)) ?? null
  const existing = await find()
  if (existing !== null) return existing
  try {
    // The database assigns the id: the one in the seed is for the memory adapter.
    return await (adapter.createUser?.({ ...seed }) ?? Promise.reject(new Error("the adapter cannot create users")))
  } catch (error) {
    // Another instance created it first (the email is unique): use theirs.
    const created = await find()
    if (created !== null) return created
    throw error
  }
}

/**
 * Opens the database `DATABASE_URL` names, creates or completes its tables with `migrate()` and
 * seeds the demo user and the password user, whose hash becomes `passwordHash` (this start's
 * password: a new random one replaces the last start's, so the printed one is the one that works). Answers `undefined` when `DATABASE_URL` is unset: the app then keeps
 * everything in the memory adapter.
 *
 * @throws {SettingsError} when the database cannot be reached or prepared, naming
 * `DATABASE_URL` but never its value.
 */
export async function openDatabase(env: Env, passwordHash: string): Promise<Database | undefined> {
  const connectionString = readVariable(env, "DATABASE_URL")
  if (connectionString === undefined) return undefined
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 5_000 })
  // node-postgres emits 'error' for an idle connection the server drops (a restart), and an
  // unhandled 'error' event ends the process: report it; the next query reconnects.
  pool.on("error", (error) => {
    console.warn(`PostgreSQL dropped an idle connection: ${error.message}`)
  })
  try {
    await migrate(pool)
    const adapter = PostgresAdapter(pool)
    const demoUser = await seedUser(adapter, DEMO_USER)
    const passwordUser = await seedUser(adapter, PASSWORD_USER)
    await adapter.setPasswordHash(passwordUser.id, passwordHash)
    return { adapter, demoUser, passwordUser, close: () => pool.end() }
  } catch (error) {
    await pool.end().catch(() => undefined)
    throw new SettingsError(`Could not prepare the PostgreSQL database DATABASE_URL names: ${describe(error)}. Check that the server runs and the URL is right, or unset DATABASE_URL to keep everything in memory.`, {
      cause: error,
    })
  }
}
