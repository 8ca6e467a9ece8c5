/**
 * The example on PostgreSQL (`DATABASE_URL`): a real server started for this file, two
 * instances of the app on one database, and sign-ins driven by the cookie-jar browser.
 */
import { DEFAULT_ACCOUNTS } from "@portcullis/dev-idp"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { createDatabase, startPostgres, type RunningPostgres } from "../../../packages/adapter-pg/test/postgres.js"
import { startExample, type RunningExample } from "../src/app.js"
import { SettingsError } from "../src/settings.js"
import { scaled } from "@portcullis/test-time"

const SECRET = "a-database-test-secret-for-the-example-32+"
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("@portcullis/dev-idp has no default account")

let postgres: RunningPostgres
let databaseUrl: string
let pool: pg.Pool
const started: RunningExample[] = []
const errors: string[] = []

beforeAll(async () => {
  // A fresh machine installs PostgreSQL first.
  postgres = await startPostgres()
  databaseUrl = await createDatabase(postgres.connectionString, "example")
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
}, scaled(180_000))

/**
 * Waits until no connection to the test database is left: node-postgres's `pool.end()` resolves
 * before its connections are closed, and a server stopping under one makes that connection fail
 * after the test.
 */
async function connectionsClosed(): Promise<void> {
  const client = new pg.Client({ connectionString: postgres.connectionString })
  await client.connect()
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'example'`)
      if (rows[0]?.n === "0") return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await client.end()
  }
}

afterAll(async () => {
  await Promise.all(started.map((example) => example.close()))
  await pool.end()
  await connectionsClosed()
  await postgres.stop()
})

async function start(env: Record<string, string> = {}): Promise<RunningExample> {
  const example = await startExample({
    env: { AUTH_SECRET: SECRET, DATABASE_URL: databaseUrl, ...env },
    port: 0,
    idpPort: 0,
    warn: () => undefined,
    authLogger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    onError: (error) => errors.push(String(error)),
    sendSignInLink: () => undefined,
  })
  started.push(example)
  return example
}

async function count(sql: string, values: unknown[] = []): Promise<number> {
  return Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, values)).rows[0]?.n)
}

async function csrfToken(browser: TestBrowser, example: RunningExample): Promise<string> {
  return ((await (await browser.request(`${example.url}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
}

async function signInAsDemoUser(browser: TestBrowser, example: RunningExample): Promise<Page> {
  const form = { csrfToken: await csrfToken(browser, example), username: "demo", password: example.demoUser.password, callbackUrl: "/" }
  return browser.navigate(`${example.url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    initiator: `${example.url}/api/auth/signin`,
  })
}

async function session(browser: TestBrowser, example: RunningExample): Promise<unknown> {
  return (await browser.request(`${example.url}/api/auth/session`)).json()
}

describe("the example with DATABASE_URL", () => {
  it("seeds the demo user once and keeps its database session in PostgreSQL, read by a second instance", async () => {
    const first = await start()
    const second = await start()
    expect(await count(`users WHERE email = $1`, ["demo@example.com"])).toBe(1)

    const browser = new TestBrowser()
    expect((await signInAsDemoUser(browser, first)).url).toBe(`${first.url}/`)
    const { rows } = await pool.query<{ id: number }>(`SELECT id FROM users WHERE email = $1`, ["demo@example.com"])
    const signedIn = { user: { id: String(rows[0]?.id), email: "demo@example.com", name: "Demo User" } }
    expect(await session(browser, first)).toMatchObject(signedIn)
    expect(await count(`sessions`)).toBe(1)
    // Cookies ignore ports: the same browser's session cookie reaches the other instance.
    expect(await session(browser, second)).toMatchObject(signedIn)
    expect(await (await browser.request(`${second.url}/`)).text()).toContain("database session, in PostgreSQL")
    expect(errors).toEqual([])
  })

  it("seeds the password user once, with a confirmed address and a hash of this start's password, and it signs in with Password()", async () => {
    const password = "violet kettle under 39 lanterns"
    const example = await start({ PASSWORD_USER_PASSWORD: password })
    expect(await count(`users WHERE email = $1 AND "emailVerified" IS NOT NULL`, ["password@example.com"])).toBe(1)
    const { rows } = await pool.query<{ hash: string }>(`SELECT p.hash FROM passwords p JOIN users u ON u.id::text = p."userId" WHERE u.email = $1`, ["password@example.com"])
    expect(rows).toHaveLength(1)
    expect(rows[0]?.hash).toMatch(/^\$scrypt\$ln=14,r=8,p=5\$/)

    const browser = new TestBrowser()
    const page = await browser.navigate(`${example.url}/api/auth/callback/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(browser, example), email: "password@example.com", password, callbackUrl: "/" }),
      initiator: `${example.url}/api/auth/signin`,
    })
    expect(page.url).toBe(`${example.url}/`)
    expect(await session(browser, example)).toMatchObject({ user: { email: "password@example.com", name: "Password User" } })
    expect(errors).toEqual([])
  })

  it("stores the user and the account of a Dev IdP sign-in", async () => {
    const example = await start()
    const browser = new TestBrowser()
    let page = await browser.navigate(`${example.url}/api/auth/signin/demo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(browser, example), callbackUrl: "/protected" }),
      initiator: `${example.url}/api/auth/signin`,
    })
    page = await browser.submitForm(page, { values: { login: ALICE.email, password: ALICE.password } })
    page = await browser.submitForm(page, { button: "Allow" })
    expect(page.url).toBe(`${example.url}/protected`)
    expect(await count(`accounts a JOIN users u ON u.id = a."userId" WHERE a.provider = 'demo' AND u.email = $1`, [ALICE.email])).toBe(1)
    expect(await session(browser, example)).toMatchObject({ user: { email: ALICE.email } })
    expect(errors).toEqual([])
  })

  it("refuses to start on a database it cannot reach, naming DATABASE_URL but not its password", async () => {
    const attempt = start({ DATABASE_URL: "postgresql://auth:hunter2-db-password@127.0.0.1:1/none" })
    await expect(attempt).rejects.toThrow(SettingsError)
    await expect(attempt).rejects.toThrow(/DATABASE_URL/)
    await expect(attempt).rejects.not.toThrow(/hunter2/)
  })
})
