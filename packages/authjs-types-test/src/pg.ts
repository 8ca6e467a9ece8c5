/**
 * An app on node-postgres with `@auth/pg-adapter`, as Auth.js's guide sets it up, after
 * switching to Portcullis. The adapter comes from npm unchanged.
 */
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { Auth, type AuthConfig } from "@portcullis/core"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 })

export const config: AuthConfig = {
  adapter: PostgresAdapter(pool),
  providers: [],
  secret: process.env.AUTH_SECRET,
}

export const handler = (request: Request): Promise<Response> => Auth(request, config)
