import { runAdapterTests, sqlStoreAccess } from "@portcullis/adapter-test"
import type pg from "pg"
import { describe } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { authJsSchema, useDatabase } from "./databases.js"

/** Reads rows straight from the tables, the passkeys' too. */
const storeAccess = (pool: () => pg.Pool) => sqlStoreAccess((sql, values) => pool().query(sql, values), { authenticators: true })

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
