import { runAdapterTests, type AdapterTestDb } from "@auth/adapter-test"
import type pg from "pg"
import { describe } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { authJsSchema, useDatabase } from "./databases.js"

/** Reads rows straight from the tables; an id the column cannot hold finds nothing. */
function storeAccess(pool: () => pg.Pool): AdapterTestDb {
  const one = async (sql: string, values: unknown[]): Promise<unknown> => {
    try {
      return (await pool().query(sql, values)).rows[0] ?? null
    } catch (error) {
      if ((error as { code?: string }).code === "22P02") return null
      throw error
    }
  }
  return {
    user: (id) => one(`SELECT * FROM users WHERE id = $1`, [id]),
    account: ({ provider, providerAccountId }) =>
      one(`SELECT * FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`, [provider, providerAccountId]),
    session: (token) => one(`SELECT * FROM sessions WHERE "sessionToken" = $1`, [token]),
    verificationToken: ({ identifier, token }) =>
      one(`SELECT * FROM verification_token WHERE identifier = $1 AND token = $2`, [identifier, token]),
    authenticator: (id) => one(`SELECT * FROM authenticators WHERE "credentialID" = $1`, [id]),
  }
}

describe("PostgresAdapter on the schema migrate() creates (SERIAL ids)", () => {
  const pool = useDatabase("conformance_serial", migrate)
  runAdapterTests({ adapter: () => PostgresAdapter(pool()), db: storeAccess(pool) })
})

describe("PostgresAdapter on an Auth.js database with UUID ids, migrated", () => {
  const pool = useDatabase("conformance_uuid", async (created) => {
    await created.query(authJsSchema("uuid"))
    await migrate(created)
  })
  runAdapterTests({ adapter: () => PostgresAdapter(pool()), db: storeAccess(pool) })
})
