/**
 * An app on Kysely with `@auth/kysely-adapter`, with the database interface Auth.js's Kysely
 * guide declares, after switching to Portcullis. The adapter comes from npm unchanged.
 */
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import { Kysely, PostgresDialect } from "kysely"
import pg from "pg"
import { Auth, type AuthConfig } from "@portcullis/core"

const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) }),
})

export const config: AuthConfig = {
  adapter: KyselyAdapter(db),
  providers: [],
  secret: process.env.AUTH_SECRET,
}

export const handler = (request: Request): Promise<Response> => Auth(request, config)
