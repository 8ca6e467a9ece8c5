/**
 * PostgreSQL going away under a running app, on a server of this file's own (the run's shared
 * one must keep answering the other files): restarted under an idle pool (issue 33, item 14), and
 * frozen so that it accepts and answers nothing (item 13).
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Auth, type AuthConfig } from "@portcullis/core"
import { scaled } from "@portcullis/test-time"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { startPostgres, type RunningPostgres } from "./postgres.js"

let postgres: RunningPostgres
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(async () => {
  postgres.thaw()
  await postgres.stop()
})

/**
 * An app process holding one idle connection in its pool, made as the README shows (`withListener`)
 * or without the pool's `error` listener. Once told on stdin, it queries again and exits.
 */
function idleApp(withListener: boolean) {
  const script = `
    import pg from "pg"
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
    ${withListener ? 'pool.on("error", (error) => console.error("PostgreSQL dropped an idle connection:", error.message))' : ""}
    await pool.query("SELECT 1")
    console.log("idle")
    process.stdin.once("data", async () => {
      const { rows } = await pool.query("SELECT 2 AS two")
      console.log("queried", rows[0].two)
      await pool.end()
      process.exit(0)
    })`
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, DATABASE_URL: postgres.connectionString },
    stdio: ["pipe", "pipe", "pipe"],
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
  const until = async (text: string): Promise<void> => {
    const deadline = Date.now() + scaled(10_000)
    while (!output.includes(text)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the app never printed "${text}":\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return { child, exited, until, output: () => output }
}

describe("a PostgreSQL restart under an idle pool", () => {
  it("leaves an app whose pool has an error listener (the README's) running and querying; one without the listener dies of the unhandled 'error' event", async () => {
    const listening = idleApp(true)
    const bare = idleApp(false)
    try {
      await Promise.all([listening.until("idle"), bare.until("idle")])
      await postgres.restart()
      expect(await bare.exited, bare.output()).not.toBe(0)
      expect(bare.output()).toMatch(/terminating connection due to administrator command/)
      await listening.until("PostgreSQL dropped an idle connection")
      listening.child.stdin.write("go\n")
      expect(await listening.exited, listening.output()).toBe(0)
      expect(listening.output()).toMatch(/queried 2/)
    } finally {
      listening.child.kill()
      bare.child.kill()
    }
  })
})

describe("a frozen PostgreSQL", () => {
  const STORE_TIMEOUT = 500

  it(`answers a request with the store failure within \`storeTimeout\` (${String(STORE_TIMEOUT)} ms), not when the database wakes`, async () => {
    const pool = new pg.Pool({ connectionString: postgres.connectionString })
    pool.on("error", () => undefined)
    const adapter = PostgresAdapter(pool)
    await migrate(pool)
    const user = await adapter.createUser({ email: `frozen-${crypto.randomUUID()}@example.com`, emailVerified: null })
    const sessionToken = crypto.randomUUID()
    const now = new Date()
    const expires = new Date(now.getTime() + 60_000)
    await adapter.createSession({ sessionToken, userId: user.id, expires })
    // Core refuses a database session without its record, as one it never made.
    await adapter.createSessionRecord({ id: crypto.randomUUID(), userId: user.id, createdAt: now, lastSeenAt: now, expires, sessionToken })
    const errors: string[] = []
    const config: AuthConfig = {
      secret: "a-frozen-database-secret-of-at-least-32-chars",
      url: "http://localhost:3000/api/auth",
      adapter,
      session: { strategy: "database" },
      providers: [],
      storeTimeout: STORE_TIMEOUT,
      logger: { error: (error) => errors.push(`${error.message} ${String((error.cause as Error | undefined)?.message)}`), warn: () => undefined },
    }
    const session = () => Auth(new Request("http://localhost:3000/api/auth/session", { headers: { cookie: `authjs.session-token=${sessionToken}` } }), config)
    expect(((await (await session()).json()) as { user?: { email?: string } } | null)?.user?.email, errors.join("\n")).toBe(user.email)

    postgres.freeze()
    try {
      const started = performance.now()
      const response = await session()
      expect(performance.now() - started).toBeLessThan(STORE_TIMEOUT + scaled(1_500))
      expect(response.status).toBe(503)
      expect(errors.join("\n")).toMatch(/did not answer within 500 ms \(`storeTimeout`\)/)
    } finally {
      postgres.thaw()
    }
    await pool.end()
  }, scaled(30_000))

  it("gives up on a statement after the adapter's `queryTimeout` and drops its connection from the pool", async () => {
    const pool = new pg.Pool({ connectionString: postgres.connectionString })
    pool.on("error", () => undefined)
    await pool.query("SELECT 1")
    const adapter = PostgresAdapter(pool, { queryTimeout: 300 })
    postgres.freeze()
    try {
      const started = performance.now()
      await expect(adapter.getUser("1")).rejects.toThrow(/timeout/i)
      expect(performance.now() - started).toBeLessThan(1_500)
      expect(pool.totalCount, "the connection that timed out is gone").toBe(0)
    } finally {
      postgres.thaw()
    }
    await pool.end()
  })
})
