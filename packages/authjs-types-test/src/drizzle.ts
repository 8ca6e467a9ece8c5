/**
 * An app on Drizzle over node-postgres with `@auth/drizzle-adapter` and the tables Auth.js's
 * Drizzle guide documents, after switching to Portcullis. The adapter comes from npm unchanged.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle } from "drizzle-orm/node-postgres"
import pg from "pg"
import { Auth, type AuthConfig } from "@portcullis/core"
import { accounts, authenticators, sessions, users, verificationTokens } from "./drizzle-schema.js"

const db = drizzle(new pg.Pool({ connectionString: process.env.DATABASE_URL }))

export const config: AuthConfig = {
  adapter: DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
    authenticatorsTable: authenticators,
  }),
  providers: [],
  secret: process.env.AUTH_SECRET,
}

export const handler = (request: Request): Promise<Response> => Auth(request, config)
