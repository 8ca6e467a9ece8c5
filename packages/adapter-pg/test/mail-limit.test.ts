/**
 * The sign-in mail limit across processes (issue 28): 200 concurrent sign-in requests for one
 * address, split over two app instances in separate Node processes that share PostgreSQL as
 * `rateLimit.store`, against a limit of 3, send exactly 3 mails, and every answer reads alike.
 * The control: with each process counting in its own memory, the same burst sends 3 a process.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startAppProcess, type AppProcess } from "@portcullis/test-kit/app-process"
import { mailsIn, requestSignInMails } from "@portcullis/test-kit/mail-limit"
import { scaled } from "@portcullis/test-time"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"

const EACH = 100
const VICTIM = "victim@example.com"

/** Two test/mail-instance.ts processes on the database, started before the block's tests; `store` as the instance reads it. */
function useMailInstances(pool: () => pg.Pool, store: "postgres" | "memory") {
  const directory = mkdtempSync(join(tmpdir(), "mail-limit-"))
  const mailLog = join(directory, "mails.log")
  let instances: AppProcess[] = []
  beforeAll(async () => {
    const options = {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: {
        DATABASE_URL: String(pool().options.connectionString),
        AUTH_SECRET: "a-mail-limit-secret-of-at-least-32-characters",
        MAIL_LOG: mailLog,
        RATE_LIMIT_STORE: store,
        // The public origin both instances serve, as behind a load balancer.
        AUTH_URL: "http://localhost:3000/api/auth",
      },
      readyTimeout: scaled(20_000),
    }
    const script = fileURLToPath(new URL("mail-instance.ts", import.meta.url))
    instances = await Promise.all([startAppProcess(script, options), startAppProcess(script, options)])
  }, scaled(60_000))
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    rmSync(directory, { recursive: true, force: true })
  })
  return async () => {
    const started = performance.now()
    const result = await requestSignInMails(instances.map((instance) => instance.origin), { email: VICTIM, each: EACH })
    const output = instances.flatMap((instance) => instance.output).join("\n")
    return { ...result, mails: mailsIn(mailLog), output, ms: Math.round(performance.now() - started) }
  }
}

describe("sign-in mail across two processes sharing PostgreSQL as the rate-limit store", () => {
  const pool = useDatabase("mail_limit", migrate)
  const burst = useMailInstances(pool, "postgres")

  it(`sends exactly 3 mails for ${String(2 * EACH)} concurrent requests for one address, every answer alike`, async () => {
    const { shapes, answers, mails, output, ms } = await burst()
    expect(answers).toBe(2 * EACH)
    expect(shapes, `${shapes.join("\n")}\n${output}`).toHaveLength(1)
    const [status] = JSON.parse(shapes[0] ?? "[]") as [number]
    expect(status, "every answer sends the browser to the check-your-email page").toBe(302)
    expect(mails, output).toEqual([VICTIM, VICTIM, VICTIM])
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM verification_token`)
    expect(Number(rows[0]?.n), "a token for each mail sent, none for the others").toBe(3)
    console.log(`mail limit over PostgreSQL: ${String(answers)} requests over 2 processes, ${String(mails.length)} mails, ${String(ms)} ms`)
  }, scaled(60_000))
})

describe("the same burst with each process counting in its own memory (the control: the store is what holds)", () => {
  const pool = useDatabase("mail_limit_memory", migrate)
  const burst = useMailInstances(pool, "memory")

  it("sends 3 mails from each process", async () => {
    const { shapes, mails, output } = await burst()
    expect(shapes, output).toHaveLength(1)
    expect(mails).toHaveLength(6)
  }, scaled(60_000))
})
