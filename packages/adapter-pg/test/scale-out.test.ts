/**
 * Two app instances in separate Node processes share one PostgreSQL database behind one public
 * origin (a round-robin-free "load balancer" the test steers), with a real OpenID Provider.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { TestBrowser, type Page } from "@portcullis/dev-idp/browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { scaled } from "@portcullis/test-time"

const APP = "http://localhost:3000"
const CLIENT = { id: "scale-out", secret: "scale-out-client-secret" }
const SECRET = "a-scale-out-secret-of-at-least-32-characters"
const BOB = { login: "bob@example.net", password: "bob-password" }
const ALICE = { login: "alice@example.com", password: "alice-password" }

interface Instance {
  origin: string
  /** What the instance printed: its `auth-error` lines tell why a sign-in failed. */
  output: string[]
  process: ChildProcess
}

/** Starts test/instance.ts in its own Node process and waits until it listens. */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("instance.ts", import.meta.url))], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const output: string[] = []
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  const lines = createInterface({ input: child.stdout })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the instance did not start within 20 s:\n${output.join("")}`))
    }, scaled(20_000))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the instance exited (${String(code)}):\n${output.join("")}`))
    })
    lines.on("line", (line) => {
      output.push(line)
      const port = line.startsWith("{") ? (JSON.parse(line) as { port?: number }).port : undefined
      if (port !== undefined) {
        clearTimeout(timer)
        resolve({ origin: `http://127.0.0.1:${port}`, output, process: child })
      }
    })
  })
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.process.exitCode !== null) return
  const exited = new Promise((resolve) => instance.process.once("exit", resolve))
  instance.process.kill("SIGTERM")
  await exited
}

/**
 * A browser whose requests to the app's public origin go to whichever instance `target` names,
 * as a load balancer would send them. With `hold` set, the next callback request is recorded
 * instead of forwarded, so two callbacks can be released at once.
 */
class Visitor {
  readonly browser: TestBrowser
  target: Instance
  hold = false
  held: URL | undefined

  constructor(target: Instance) {
    this.target = target
    this.browser = new TestBrowser({
      routes: {
        [APP]: async (request) => {
          const url = new URL(request.url)
          if (this.hold && url.pathname.startsWith("/api/auth/callback/")) {
            this.hold = false
            this.held = url
            return new Response("held")
          }
          const forwarded = await fetch(new URL(url.pathname + url.search, this.target.origin), {
            method: request.method,
            headers: request.headers,
            body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
            redirect: "manual",
          })
          return new Response(forwarded.body, { status: forwarded.status, headers: forwarded.headers })
        },
      },
    })
  }

  async csrfToken(): Promise<string> {
    const response = await this.browser.request(`${APP}/api/auth/csrf`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Signs in at the IdP (login, then consent) and returns the page the flow ends on. */
  async signIn(account: { login: string; password: string }): Promise<Page> {
    let page = await this.browser.navigate(`${APP}/api/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await this.csrfToken(), callbackUrl: "/protected" }),
      initiator: `${APP}/api/auth/signin`,
    })
    for (let step = 0; step < 3 && new URL(page.url).origin !== APP && page.body.includes("<form"); step++) {
      page = page.body.includes(">Allow<")
        ? await this.browser.submitForm(page, { button: "Allow" })
        : await this.browser.submitForm(page, { values: account })
    }
    return page
  }

  /** Runs a sign-in up to its callback request, which is kept for {@link release}. */
  async signInUntilCallback(account: { login: string; password: string }): Promise<URL> {
    this.hold = true
    await this.signIn(account)
    if (this.held === undefined) throw new Error("the sign-in never reached the callback")
    return this.held
  }

  async release(callback: URL): Promise<Page> {
    return this.browser.navigate(callback, { initiator: "http://127.0.0.1/" })
  }

  async session(): Promise<{ user?: { id?: string; email?: string } } | null> {
    const response = await this.browser.request(`${APP}/api/auth/session`)
    return (await response.json()) as { user?: { id?: string; email?: string } } | null
  }

  async signOut(): Promise<Page> {
    return this.browser.navigate(`${APP}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await this.csrfToken() }),
      initiator: `${APP}/api/auth/signout`,
    })
  }
}

describe("two app instances in separate processes, one PostgreSQL database", () => {
  const pool = useDatabase("scale_out", migrate)
  let idp: DevIdp | undefined
  let a: Instance | undefined
  let b: Instance | undefined
  const instances = (): [Instance, Instance] => {
    if (!a || !b) throw new Error("the instances are only there inside tests")
    return [a, b]
  }

  beforeAll(async () => {
    idp = await startDevIdp({
      clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${APP}/api/auth/callback/idp`] }],
      consent: "auto",
    })
    const { connectionString } = pool().options
    const env = {
      DATABASE_URL: String(connectionString),
      ISSUER: idp.issuer,
      CLIENT_ID: CLIENT.id,
      CLIENT_SECRET: CLIENT.secret,
      AUTH_SECRET: SECRET,
      AUTH_URL: `${APP}/api/auth`,
    }
    ;[a, b] = await Promise.all([startInstance(env), startInstance(env)])
  }, scaled(60_000))

  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)])
    await idp?.close()
  })

  async function count(sql: string, values: unknown[]): Promise<number> {
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, values)
    return Number(rows[0]?.n)
  }

  it("a session made through A is read through B, and signing out through B ends it for A", async () => {
    const [first, second] = instances()
    const visitor = new Visitor(first)
    const landed = await visitor.signIn(BOB)
    expect(landed.url, first.output.join("\n")).toBe(`${APP}/protected`)
    const throughA = await visitor.session()
    expect(throughA).toMatchObject({ user: { email: "bob@example.net" } })

    visitor.target = second
    expect(await visitor.session()).toEqual(throughA)
    await visitor.signOut()
    expect(await count(`sessions`, [])).toBe(0)

    visitor.target = first
    expect((await visitor.session())?.user).toBeUndefined()
  })

  it("concurrent first sign-ins of one IdP user through A and B create exactly one user and one account", async () => {
    const [first, second] = instances()
    const visitors = [new Visitor(first), new Visitor(second)]
    const callbacks = await Promise.all(visitors.map((visitor) => visitor.signInUntilCallback(ALICE)))
    const pages = await Promise.all(visitors.map((visitor, i) => visitor.release(callbacks[i] as URL)))

    expect(await count(`users WHERE email = $1`, ["alice@example.com"])).toBe(1)
    expect(await count(`accounts WHERE provider = 'idp' AND "providerAccountId" = $1`, ["alice"])).toBe(1)
    const outcomes = pages.map((page) => new URL(page.url))
    expect(outcomes.some((url) => url.pathname === "/protected"), JSON.stringify(outcomes)).toBe(true)
    // When the two overlap, the loser fails and signs in on retry: with AdapterError when its
    // createUser hit the unique email, or OAuthAccountNotLinked when it read the winner's user
    // between the winner's createUser and linkAccount (core's two steps are not one transaction).
    for (const [i, url] of outcomes.entries()) {
      if (url.pathname === "/protected") continue
      expect(["AdapterError", "OAuthAccountNotLinked"]).toContain(url.searchParams.get("error"))
      const visitor = visitors[i] as Visitor
      expect((await visitor.signIn(ALICE)).url).toBe(`${APP}/protected`)
    }
    const sessions = await Promise.all(visitors.map((visitor) => visitor.session()))
    expect(sessions[0]?.user?.id).toBeDefined()
    expect(sessions[0]?.user?.id).toBe(sessions[1]?.user?.id)
    expect(await count(`users`, [])).toBe(2)
  })
})
