/**
 * The sign-in mail limit across processes (issue 28): 200 concurrent sign-in requests for one
 * address, split over two app instances in separate Node processes that share Redis as
 * `rateLimit.store` (one through node-redis, the other through ioredis), against a limit of 3,
 * send exactly 3 mails, and every answer reads alike.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startAppProcess, type AppProcess } from "@portcullis/test-kit/app-process"
import { mailsIn, requestSignInMails } from "@portcullis/test-kit/mail-limit"
import { scaled } from "@portcullis/test-time"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

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
