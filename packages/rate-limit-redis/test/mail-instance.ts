/**
 * One app instance for the mail-limit test, run as its own Node process (`node --import tsx`):
 * `Auth()` with an email provider that writes each mail to MAIL_LOG, verification tokens in
 * this process's memory, and Redis as `rateLimit.store` (through node-redis or ioredis, as
 * REDIS_CLIENT says), at most 3 mails per address. Prints `{"port":N}` once listening.
 *
 * Environment: REDIS_URL, REDIS_CLIENT (`node-redis` or `ioredis`), REDIS_PREFIX, AUTH_SECRET,
 * AUTH_URL, MAIL_LOG.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, type AuthConfig } from "@portcullis/core"
import { createClient } from "@redis/client"
import { announceHandler } from "@portcullis/test-kit/app-process"
import { fileMailProvider } from "@portcullis/test-kit/mail-limit"
import { Redis } from "ioredis"
import { redisRateLimitStore } from "../src/index.js"

function env(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`mail-instance: ${name} is not set`)
  return value
}

const [client, quit] =
  env("REDIS_CLIENT") === "ioredis"
    ? (() => {
        const redis = new Redis(env("REDIS_URL"))
        return [redis, () => redis.quit()] as const
      })()
    : await (async () => {
        const redis = await createClient({ url: env("REDIS_URL") }).connect()
        return [redis, () => redis.close()] as const
      })()

const config: AuthConfig = {
  secret: env("AUTH_SECRET"),
  trustHost: true,
  adapter: MemoryAdapter(),
  providers: [fileMailProvider(env("MAIL_LOG"))],
  rateLimit: { store: redisRateLimitStore(client, { prefix: env("REDIS_PREFIX") }), mailPerAddress: { limit: 3, window: 900 } },
  logger: {
    error: (error) => {
      console.log(`auth-error ${error.name}: ${error.message}`)
    },
    warn: () => undefined,
  },
}

await announceHandler((request) => Auth(request, config), quit)
