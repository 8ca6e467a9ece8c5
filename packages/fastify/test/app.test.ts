/**
 * The package as a user installs it: `pnpm pack` of core, providers, fastify and adapter-memory, a
 * plain `npm install` with npm's defaults in a folder outside the workspace, and
 * `test/fixtures/app/server.mjs` started on Node.js. One Chromium and one dev IdP for the file
 * sign in with OIDC, an email link, a password and a passkey (a CDP virtual authenticator), each
 * from the app's own page through `@portcullis/core/client`, and sign out;
 * `@fastify/formbody` parses the app's forms and `@fastify/csrf-protection` guards its own POST route.
 */
import { randomBytes } from "node:crypto"
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULT_ACCOUNTS, startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "@portcullis/test-kit/chromium"
import { freePort, spawnServer, type SpawnedServer } from "@portcullis/test-kit/system"
import { installPackedWithNpm } from "@portcullis/test-kit/workspace"
import { scaled } from "@portcullis/test-time"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HERE = import.meta.dirname
const CLIENT = { id: "fastify-app", secret: "fastify-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")

let scratch = ""
let idp: DevIdp | undefined
let server: SpawnedServer | undefined
let browser: Browser | undefined
let page: Page
let app = ""

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "portcullis-fastify-app-"))
  const dir = join(scratch, "app")
  const self = JSON.parse(await readFile(join(HERE, "..", "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  const ours = ["@portcullis/core", "@portcullis/providers", "@portcullis/fastify", "@portcullis/adapter-memory"]
  const dependencies: Record<string, string> = Object.fromEntries([...ours.map((name): [string, string] => [name, "*"]), ...["fastify", "@fastify/cookie", "@fastify/csrf-protection", "@fastify/formbody"].map((name): [string, string] => [name, self.devDependencies[name] ?? ""])])
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "fastify-app", private: true, type: "module", dependencies }, null, 2))
  await copyFile(join(HERE, "fixtures", "app", "server.mjs"), join(dir, "server.mjs"))
  const port = await freePort()
  // localhost, not 127.0.0.1: an IP address cannot be a WebAuthn relying party id.
  app = `http://localhost:${String(port)}`
  // The browser and the IdP start while npm installs.
  const [started, launched] = await Promise.all([
    startDevIdp({ consent: "auto", clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${app}/api/auth/callback/dev-idp`] }] }),
    launchChromium(),
    installPackedWithNpm(dir, { tarballs: join(scratch, "tarballs") }),
  ])
  idp = started
  browser = launched
  server = spawnServer(process.execPath, ["server.mjs"], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      AUTH_SECRET: randomBytes(32).toString("base64"),
      AUTH_URL: app,
      AUTH_DEV_IDP_ISSUER: started.issuer,
      AUTH_DEV_IDP_ID: CLIENT.id,
      AUTH_DEV_IDP_SECRET: CLIENT.secret,
    },
    stopSignal: "SIGTERM",
    killSignal: "SIGKILL",
    outputLimit: 50_000,
    cleanup: () => undefined,
  })
  const deadline = performance.now() + scaled(20_000)
  while (!server.output().includes("listening")) {
    if (server.exited() || performance.now() > deadline) throw new Error(`the app did not start:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  page = await (await launched.newContext()).newPage()
  await addVirtualAuthenticator(await enableVirtualAuthenticators(page))
}, scaled(240_000))

afterAll(async () => {
  await browser?.close().catch(() => undefined)
  await server?.stop()
  await idp?.close()
  if (scratch !== "") await rm(scratch, { recursive: true, force: true })
}, scaled(30_000))

/** The app page's status line, or "" while the browser is elsewhere. */
async function status(): Promise<string> {
  if (!page.url().startsWith(`${app}/`) || new URL(page.url()).pathname !== "/") return ""
  return (await page.locator("#status").textContent({ timeout: 1000 }).catch(() => "")) ?? ""
}

/** Waits until the browser is back on the app's page showing `expected`. */
async function expectStatus(expected: string): Promise<void> {
  await expect.poll(status, { timeout: scaled(20_000) }).toBe(expected)
}

/** Clicks a button of the app's page and waits until the page shows `expected`. */
async function click(id: string, expected: string): Promise<void> {
  await page.goto(`${app}/`)
  // This page's line no longer counts: only the page the click leads to.
  await page.evaluate(() => document.getElementById("status")?.removeAttribute("id"))
  await page.click(`#${id}`)
  await expectStatus(expected)
}

describe("an npm-installed Fastify app in Chromium", () => {
  it("signs in with OIDC through the dev IdP and out", async () => {
    await page.goto(`${app}/`)
    expect(await status()).toBe("Signed out")
    await page.click("#oidc")
    await page.waitForURL((url) => url.origin !== app, { timeout: scaled(20_000) })
    await page.fill("input[name=login]", ALICE.email)
    await page.fill("input[name=password]", ALICE.password)
    await page.click("button[type=submit]")
    await expectStatus(`Signed in as ${ALICE.email}`)
    await click("signout", "Signed out")
  })

  it("signs in with an email link, adds a passkey, signs out and back in with the passkey", async () => {
    await page.goto(`${app}/`)
    await page.click("#email-link")
    await page.waitForURL((url) => url.pathname === "/api/auth/verify-request", { timeout: scaled(20_000) })
    const link = /EMAIL_LINK pat@example\.com (\S+)/.exec(server?.output() ?? "")?.[1] ?? expect.unreachable(`no link printed:\n${server?.output() ?? ""}`)
    await page.goto(link)
    // Core asks for a click before it uses the link up, so a mail scanner's GET signs nobody in.
    if (new URL(page.url()).pathname !== "/") await page.click("button[type=submit]")
    await expectStatus("Signed in as pat@example.com")

    await click("add-passkey", "Signed in as pat@example.com")
    await click("signout", "Signed out")
    await click("passkey", "Signed in as pat@example.com")
    await click("signout", "Signed out")
  })

  it("signs in with a password (credentials) and out, and @fastify/csrf-protection still refuses a post to the app without its token", async () => {
    await click("password", "Signed in as ada@example.com")
    await click("signout", "Signed out")
    const forged = await fetch(`${app.replace("localhost", "127.0.0.1")}/profile`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "name=x" })
    expect(forged.status).toBe(403)
    expect(server?.output()).not.toMatch(/error/i)
  })
})
