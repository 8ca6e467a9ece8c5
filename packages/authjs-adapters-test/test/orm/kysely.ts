/**
 * `@auth/kysely-adapter` on node-postgres with the tables of the migration Auth.js's Kysely guide
 * gives for PostgreSQL (UUID ids made by the database).
 */
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import { Kysely, PostgresDialect } from "kysely"
import type pg from "pg"

/** The guide's migration, as SQL. */
export const KYSELY_SQL = `
  CREATE TABLE "User" (
    "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    "name" text,
    "email" text UNIQUE,
    "emailVerified" timestamptz,
    "image" text
  );
  CREATE TABLE "Account" (
    "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    "userId" uuid NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
    "type" text NOT NULL,
    "provider" text NOT NULL,
    "providerAccountId" text NOT NULL,
    "refresh_token" text,
    "access_token" text,
    "expires_at" bigint,
    "token_type" text,
    "scope" text,
    "id_token" text,
    "session_state" text
  );
  CREATE INDEX "Account_userId_index" ON "Account" ("userId");
  CREATE TABLE "Session" (
    "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    "userId" uuid NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
    "sessionToken" text NOT NULL UNIQUE,
    "expires" timestamptz NOT NULL
  );
  CREATE INDEX "Session_userId_index" ON "Session" ("userId");
  CREATE TABLE "VerificationToken" (
    "identifier" text NOT NULL,
    "token" text NOT NULL UNIQUE,
    "expires" timestamptz NOT NULL
  );
`

/** Auth.js's Kysely adapter over `pool`, as its guide wires it. */
export function kyselyAdapter(pool: pg.Pool): { adapter: ReturnType<typeof KyselyAdapter>; close(): Promise<void> } {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return { adapter: KyselyAdapter(db), close: () => db.destroy() }
}
