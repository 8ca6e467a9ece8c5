/**
 * Per-file databases on the run's one PostgreSQL server, and the schema Auth.js's PostgreSQL
 * adapter documents, to test migrating a database made for it.
 */
import pg from "pg"
import { afterAll, beforeAll, inject } from "vitest"
import { createDatabase } from "./postgres.js"

/**
 * A fresh database for the calling test file, `prepare`d before its tests and closed after.
 * Returns an accessor, valid inside tests and hooks.
 */
export function useDatabase(name: string, prepare?: (pool: pg.Pool) => Promise<void>): () => pg.Pool {
  let pool: pg.Pool | undefined
  beforeAll(async () => {
    const url = await createDatabase(inject("postgresUrl"), name)
    pool = new pg.Pool({ connectionString: url, max: 10 })
    await prepare?.(pool)
  })
  afterAll(async () => {
    await pool?.end()
  })
  return () => {
    if (pool === undefined) throw new Error("useDatabase(): the pool is only there inside tests and hooks")
    return pool
  }
}

/**
 * The tables of Auth.js's PostgreSQL adapter as its documentation gives them: SERIAL ids, or
 * the common variant with UUID ids. No unique keys, no foreign keys.
 */
export function authJsSchema(ids: "serial" | "uuid"): string {
  const [key, reference] = ids === "serial" ? ["SERIAL", "INTEGER"] : ["UUID DEFAULT gen_random_uuid()", "UUID"]
  return `
    CREATE TABLE verification_token (
      identifier TEXT NOT NULL,
      expires TIMESTAMPTZ NOT NULL,
      token TEXT NOT NULL,
      PRIMARY KEY (identifier, token)
    );
    CREATE TABLE accounts (
      id ${key},
      "userId" ${reference} NOT NULL,
      type VARCHAR(255) NOT NULL,
      provider VARCHAR(255) NOT NULL,
      "providerAccountId" VARCHAR(255) NOT NULL,
      refresh_token TEXT,
      access_token TEXT,
      expires_at BIGINT,
      id_token TEXT,
      scope TEXT,
      session_state TEXT,
      token_type TEXT,
      PRIMARY KEY (id)
    );
    CREATE TABLE sessions (
      id ${key},
      "userId" ${reference} NOT NULL,
      expires TIMESTAMPTZ NOT NULL,
      "sessionToken" VARCHAR(255) NOT NULL,
      PRIMARY KEY (id)
    );
    CREATE TABLE users (
      id ${key},
      name VARCHAR(255),
      email VARCHAR(255),
      "emailVerified" TIMESTAMPTZ,
      image TEXT,
      PRIMARY KEY (id)
    );
  `
}
