/**
 * One app instance for the mail-limit test, run as its own Node process (`node --import tsx`):
 * `Auth()` with an email provider that writes each mail to MAIL_LOG, PostgreSQL as the adapter
 * and as `rateLimit.store` (with RATE_LIMIT_STORE=memory, core's default memory store instead),
 * at most 3 mails per address. Prints `{"port":N}` once listening.
 *
 * Environment: DATABASE_URL, AUTH_SECRET, AUTH_URL, MAIL_LOG, RATE_LIMIT_STORE.
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import { announceHandler } from "@portcullis/test-kit/app-process"
import { fileMailProvider } from "@portcullis/test-kit/mail-limit"
import pg from "pg"
import { PostgresAdapter, postgresRateLimitStore } from "../src/index.js"

function env(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`mail-instance: ${name} is not set`)
  return value
}

const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: 10 })
const config: AuthConfig = {
  secret: env("AUTH_SECRET"),
  trustHost: true,
  adapter: PostgresAdapter(pool),
  providers: [fileMailProvider(env("MAIL_LOG"))],
  rateLimit: {
    store: process.env.RATE_LIMIT_STORE === "memory" ? undefined : postgresRateLimitStore(pool),
    mailPerAddress: { limit: 3, window: 900 },
  },
  logger: {
    error: (error) => {
      console.log(`auth-error ${error.name}: ${error.message}`)
    },
    warn: () => undefined,
  },
}

await announceHandler((request) => Auth(request, config), () => pool.end())
