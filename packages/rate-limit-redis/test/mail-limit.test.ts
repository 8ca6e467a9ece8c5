/**
 * The sign-in mail limit across processes (issue 28): 200 concurrent sign-in requests for one
 * address, split over two app instances in separate Node processes that share Redis as
 * `rateLimit.store` (one through node-redis, the other through ioredis), against a limit of 3,
 * send exactly 3 mails, and every answer reads alike. With Redis down, a sign-in request fails
 * closed within `storeTimeout` (issue 33).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, type AuthConfig } from "@portcullis/core"
import { startAppProcess, type AppProcess } from "@portcullis/test-kit/app-process"
import { fileMailProvider, mailsIn, requestSignInMails } from "@portcullis/test-kit/mail-limit"
import { startRedis } from "@portcullis/test-kit/redis"
import { scaled } from "@portcullis/test-time"
import { createClient } from "@redis/client"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { redisRateLimitStore, type RedisClientLike } from "../src/index.js"

const EACH = 100
const VICTIM = "victim@example.com"

describe("sign-in mail across two processes sharing Redis as the rate-limit store", () => {
  const directory = mkdtempSync(join(tmpdir(), "mail-limit-redis-"))
  const mailLog = join(directory, "mails.log")
  let instances: AppProcess[] = []

  beforeAll(async () => {
    const env = {
      REDIS_URL: inject("redisUrl"),
      REDIS_PREFIX: `mail-limit:${crypto.randomUUID()}:`,
      AUTH_SECRET: "a-mail-limit-secret-of-at-least-32-characters",
      // The public origin both instances serve, as behind a load balancer.
      AUTH_URL: "http://localhost:3000/api/auth",
      MAIL_LOG: mailLog,
    }
    const script = fileURLToPath(new URL("mail-instance.ts", import.meta.url))
    const start = (client: string) =>
      startAppProcess(script, { cwd: fileURLToPath(new URL("..", import.meta.url)), env: { ...env, REDIS_CLIENT: client }, readyTimeout: scaled(20_000) })
    instances = await Promise.all([start("node-redis"), start("ioredis")])
  }, scaled(60_000))
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    rmSync(directory, { recursive: true, force: true })
  })

  it(`sends exactly 3 mails for ${String(2 * EACH)} concurrent requests for one address, every answer alike`, async () => {
    const started = performance.now()
    const { shapes, answers } = await requestSignInMails(instances.map((instance) => instance.origin), { email: VICTIM, each: EACH })
    const output = instances.flatMap((instance) => instance.output).join("\n")
    const mails = mailsIn(mailLog)
    expect(answers).toBe(2 * EACH)
    expect(shapes, `${shapes.join("\n")}\n${output}`).toHaveLength(1)
    const [status] = JSON.parse(shapes[0] ?? "[]") as [number]
    expect(status, "every answer sends the browser to the check-your-email page").toBe(302)
    expect(mails, output).toEqual([VICTIM, VICTIM, VICTIM])
    console.log(`mail limit over Redis: ${String(answers)} requests over 2 processes, ${String(mails.length)} mails, ${String(Math.round(performance.now() - started))} ms`)
  }, scaled(60_000))
})

describe("sign-in mail with Redis down", () => {
  const STORE_TIMEOUT = 500

  /** Asks `config`'s app for a sign-in mail as a browser would (CSRF token and cookie first); answers the response and how long it took. */
  async function requestMail(config: AuthConfig): Promise<{ response: Response; ms: number }> {
    const csrf = await Auth(new Request("http://localhost:3000/api/auth/csrf"), config)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
    const started = performance.now()
    const response = await Auth(
      new Request("http://localhost:3000/api/auth/signin/email", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken, email: VICTIM, callbackUrl: "/" }),
      }),
      config,
    )
    return { response, ms: performance.now() - started }
  }

  it(`fails closed within \`storeTimeout\` (${String(STORE_TIMEOUT)} ms) through ioredis and node-redis at their defaults, not after the clients' own retries`, async () => {
    const redis = await startRedis({ readyTimeout: scaled(10_000) })
    const directory = mkdtempSync(join(tmpdir(), "redis-down-"))
    const mailLog = join(directory, "mails.log")
    // Both clients as an app makes them; node-redis throws its errors without a listener.
    const ioredis = new Redis(redis.url)
    ioredis.on("error", () => undefined)
    const nodeRedis = createClient({ url: redis.url }).on("error", () => undefined)
    await nodeRedis.connect()
    try {
      await redis.stop()
      const errors: string[] = []
      const configOf = (client: RedisClientLike): AuthConfig => ({
        secret: "a-redis-down-secret-of-at-least-32-characters",
        url: "http://localhost:3000/api/auth",
        adapter: MemoryAdapter(),
        providers: [fileMailProvider(mailLog)],
        rateLimit: { store: redisRateLimitStore(client) },
        storeTimeout: STORE_TIMEOUT,
        logger: { error: (error) => errors.push(`${error.name}: ${error.message} ${String((error.cause as Error | undefined)?.message)}`), warn: () => undefined },
      })
      const answers = await Promise.all([requestMail(configOf(ioredis)), requestMail(configOf(nodeRedis))])
      for (const { response, ms } of answers) {
        expect(new URL(response.headers.get("location") ?? "", "http://localhost:3000").searchParams.get("error"), errors.join("\n")).toBe("AdapterError")
        expect(ms).toBeLessThan(STORE_TIMEOUT + scaled(1_500))
      }
      expect(errors.join("\n")).toMatch(/did not answer within 500 ms \(`storeTimeout`\)/)
      expect(mailsIn(mailLog), "no mail is sent without the limit's count").toEqual([])
    } finally {
      ioredis.disconnect()
      nodeRedis.destroy()
      rmSync(directory, { recursive: true, force: true })
    }
  }, scaled(30_000))
})
