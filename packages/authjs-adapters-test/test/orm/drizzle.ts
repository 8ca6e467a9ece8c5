/**
 * `@auth/drizzle-adapter` on node-postgres with the tables Auth.js's Drizzle guide declares for
 * PostgreSQL (the ones @portcullis/authjs-types-test compiles), created with the SQL
 * `drizzle-kit` would write for them.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle } from "drizzle-orm/node-postgres"
import type pg from "pg"
import { accounts, authenticators, sessions, users, verificationTokens } from "../../../authjs-types-test/src/drizzle-schema.js"

/** Those tables, as `drizzle-kit generate` writes them. */
export const DRIZZLE_SQL = `
  CREATE TABLE "user" (
    "id" text PRIMARY KEY NOT NULL,
    "name" text,
    "email" text UNIQUE,
    "emailVerified" timestamp,
    "image" text
  );
  CREATE TABLE "account" (
    "userId" text NOT NULL REFERENCES "user"("id") ON DELETE cascade,
    "type" text NOT NULL,
    "provider" text NOT NULL,
    "providerAccountId" text NOT NULL,
    "refresh_token" text,
    "access_token" text,
    "expires_at" integer,
    "token_type" text,
    "scope" text,
    "id_token" text,
    "session_state" text,
    PRIMARY KEY ("provider", "providerAccountId")
  );
  CREATE TABLE "session" (
    "sessionToken" text PRIMARY KEY NOT NULL,
    "userId" text NOT NULL REFERENCES "user"("id") ON DELETE cascade,
    "expires" timestamp NOT NULL
  );
  CREATE TABLE "verificationToken" (
    "identifier" text NOT NULL,
    "token" text NOT NULL,
    "expires" timestamp NOT NULL,
    PRIMARY KEY ("identifier", "token")
  );
  CREATE TABLE "authenticator" (
    "credentialID" text NOT NULL UNIQUE,
    "userId" text NOT NULL REFERENCES "user"("id") ON DELETE cascade,
    "providerAccountId" text NOT NULL,
    "credentialPublicKey" text NOT NULL,
    "counter" integer NOT NULL,
    "credentialDeviceType" text NOT NULL,
    "credentialBackedUp" boolean NOT NULL,
    "transports" text,
    PRIMARY KEY ("userId", "credentialID")
  );
`

/** Auth.js's Drizzle adapter over `pool`, with the tables above, as its guide wires it. */
export function drizzleAdapter(pool: pg.Pool): { adapter: ReturnType<typeof DrizzleAdapter>; close(): Promise<void> } {
  const adapter = DrizzleAdapter(drizzle(pool), {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
    authenticatorsTable: authenticators,
  })
  // Drizzle holds nothing of its own: the pool is closed by its owner.
  return { adapter, close: () => Promise.resolve() }
}
