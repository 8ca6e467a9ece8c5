/**
 * An app on an Auth.js adapter that turns on second factors (`mfa`): it keeps its adapter for
 * users, accounts and sessions and adds `@portcullis/adapter-pg`'s factor and session-record
 * methods on the same database, as the core README's "Second factors" shows. Here with
 * `@auth/drizzle-adapter` on the tables of Auth.js's Drizzle guide, which `migrate()` leaves alone.
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import type { Adapter, AuthFactorMethods, SessionRecordMethods } from "@portcullis/core/adapters"
import { PostgresAdapter, migrate } from "@portcullis/adapter-pg"
import { cases, runAdapterTests } from "@portcullis/adapter-test"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { useAuthJsStore } from "./stores.js"

/** What `@portcullis/adapter-pg` adds to the app's adapter: the README's list, written out there. */
const ADDED_METHODS = [
  "createAuthFactor",
  "listAuthFactors",
  "updateAuthFactor",
  "deleteAuthFactor",
  "useAuthFactorStep",
  "countAuthFactorFailure",
  "replaceAuthFactors",
  "createSessionRecord",
  "getSessionRecord",
  "listSessionRecords",
  "updateSessionRecord",
  "useOnce",
] as const satisfies readonly (keyof AuthFactorMethods | keyof SessionRecordMethods)[]

/** The app's adapter with this project's second factors and session records, from the same database. */
function withSecondFactors(authJsAdapter: Adapter, pool: pg.Pool): Adapter {
  // The methods are closures over the pool: they may be taken off the object.
  const ours = PostgresAdapter(pool)
  return { ...authJsAdapter, ...Object.fromEntries(ADDED_METHODS.map((method) => [method, ours[method]])) }
}

/** The suite's groups the added methods answer for; the rest is the Auth.js adapter's own (conformance.test.ts). */
const ADDED = new Set(["auth factors", "session records", "single-use keys"])

describe("@auth/drizzle-adapter with @portcullis/adapter-pg's factor and session-record methods on one database", () => {
  const store = useAuthJsStore("drizzle", "composed")
  let pool: pg.Pool | undefined
  let composed: Adapter | undefined
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: store().databaseUrl, max: 5 })
    await migrate(pool)
    composed = withSecondFactors(store().adapter, pool)
  })
  afterAll(async () => {
    await pool?.end()
  })
  const adapter = (): Adapter => {
    if (composed === undefined) throw new Error("the composed adapter is only there inside tests")
    return composed
  }

  runAdapterTests({
    adapter,
    skip: [
      ...new Set(cases.map((testCase) => testCase.group).filter((group) => !ADDED.has(group))),
      // The Auth.js adapter's deleteUser knows nothing of them: the README says to delete them
      // with the user (`DELETE FROM auth_factors / session_records WHERE "userId" = $1`).
      "deleteUser deletes the user's factors",
      "deleteUser deletes the user's session records",
    ],
  })

  it("leaves the guide's tables as they were: the user the Auth.js adapter made is in its own table", async () => {
    const user = await adapter().createUser?.({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
    const { rows } = await (pool as pg.Pool).query(`SELECT id FROM "user" WHERE id = $1`, [user?.id])
    expect(rows).toHaveLength(1)
  })

  it("passes Auth()'s adapter check for mfa, which the Auth.js adapter alone fails, naming what it lacks", async () => {
    const config = (adapter: Adapter, errors: string[]): AuthConfig => ({
      secret: "a-test-secret-that-is-long-enough-for-the-strength-check-0123456789",
      url: "http://localhost:3000",
      providers: [],
      adapter,
      mfa: { factors: ["totp"] },
      logger: { error: (error) => errors.push(error.message), warn: () => undefined },
    })
    const refused: string[] = []
    expect((await Auth(new Request("http://localhost:3000/api/auth/providers"), config(store().adapter, refused))).status).toBe(503)
    expect(refused.join("\n")).toMatch(/`mfa` needs adapter methods the `adapter` is missing: createAuthFactor, .*, replaceAuthFactors, createSessionRecord, .*, useOnce\./)
    // Composed, nothing is missing: it starts.
    const composed: string[] = []
    expect((await Auth(new Request("http://localhost:3000/api/auth/providers"), config(adapter(), composed))).status).toBe(200)
    expect(composed).toEqual([])
  })
})
