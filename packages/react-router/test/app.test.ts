/**
 * The package as a user installs it: `pnpm pack` of core, providers, react-router and
 * adapter-memory, a plain `npm install` with npm's defaults in a folder outside the workspace, a
 * real `react-router build` of `test/fixtures/app` (nothing fetched) and `react-router-serve`.
 * One build, one Chromium and one dev IdP for the file sign in with OIDC and a password through the
 * page's form actions, with an email link and a passkey (a CDP virtual authenticator) through
 * `@portcullis/core/client`, and sign out; the server-rendered page and a client navigation both
 * see the session. React Router's own action origin check stays on.
 */
import { readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { DEFAULT_ACCOUNTS, startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { homeStatus, openAppPage, startAppServer, writeAppDir } from "@portcullis/test-kit/packed-app"
import type { SpawnedServer } from "@portcullis/test-kit/system"
import { installPackedWithNpm } from "@portcullis/test-kit/workspace"
import { scaled } from "@portcullis/test-time"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HERE = import.meta.dirname
const CLIENT = { id: "rr-app", secret: "rr-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")
const FRAMEWORK = ["react-router", "@react-router/dev", "@react-router/node", "@react-router/serve", "react", "react-dom", "isbot", "vite"]

let scratch = ""
let idp: DevIdp | undefined
let server: SpawnedServer | undefined
let browser: Browser | undefined
let page: Page
let app = ""
/** What the browser reported going wrong in the app's pages. */
let pageErrors: string[] = []

beforeAll(async () => {
  const self = JSON.parse(await readFile(join(HERE, "..", "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  const written = await writeAppDir({ integration: "@portcullis/react-router", fixture: join(HERE, "fixtures", "app"), framework: Object.fromEntries(FRAMEWORK.map((name) => [name, self.devDependencies[name] ?? ""])) })
  const { dir, port } = written
  scratch = written.scratch
  app = written.url
  // The browser and the IdP start while npm installs and React Router builds.
  const [started, launched] = await Promise.all([
    startDevIdp({ consent: "auto", clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${app}/api/auth/callback/dev-idp`] }] }),
    launchChromium(),
    (async () => {
      await installPackedWithNpm(dir, { tarballs: join(scratch, "tarballs") })
      await promisify(execFile)(process.execPath, [join(dir, "node_modules", "@react-router", "dev", "bin.js"), "build"], { cwd: dir, env: { ...process.env, NODE_ENV: "production" } })
    })(),
  ])
  idp = started
  browser = launched
  const spawned = startAppServer({ args: [join(dir, "node_modules", "@react-router", "serve", "bin.js"), "build/server/index.js"], cwd: dir, url: app, port, issuer: started.issuer, client: CLIENT, ready: "[react-router-serve]", env: { HOST: "127.0.0.1" }, scaled })
  server = spawned
  await spawned.ready
  const opened = await openAppPage(launched, app)
  page = opened.page
  pageErrors = opened.pageErrors
}, scaled(300_000))

afterAll(async () => {
  await browser?.close().catch(() => undefined)
  await server?.stop()
  await idp?.close()
  if (scratch !== "" && process.env.KEEP_APP === undefined) await rm(scratch, { recursive: true, force: true })
}, scaled(30_000))

/** The home page's status line, or "" while the browser is elsewhere. */
function status(): Promise<string> {
  return homeStatus(page, app)
}

async function expectStatus(expected: string): Promise<void> {
  await expect.poll(status, { timeout: scaled(20_000) }).toBe(expected)
}

/** Opens the home page, waits for React to hydrate it, clicks a button and waits until the page shows `expected`. */
async function click(id: string, expected: string): Promise<void> {
  await page.goto(`${app}/`)
  await page.waitForSelector("main[data-hydrated=yes]", { timeout: scaled(10_000) }).catch((error: unknown) => expect.unreachable(`${String(error)}\n${pageErrors.join("\n")}`))
  // This page's line no longer counts, only what the click leads to: a new page, or React's render
  // after the action (which writes its text node again, hence the node and not the element).
  await page.evaluate(() => {
    const line = document.getElementById("status")?.firstChild
    if (line) line.nodeValue = "(clicked)"
  })
  await page.click(`#${id}`)
  await expectStatus(expected)
}

/** What /profile's loader (`auth(request)`) saw: server-rendered, then after a client navigation from the home page. */
async function profiles(): Promise<[string | null, string | null]> {
  await page.goto(`${app}/profile`)
  const rendered = await page.locator("#profile-status").textContent()
  await page.click("#home")
  await page.waitForSelector("main[data-hydrated=yes]")
  await page.click("#profile")
  await page.waitForURL(`${app}/profile`)
  return [rendered, await page.locator("#profile-status").textContent()]
}

describe("an npm-installed, react-router-built app in Chromium", () => {
  it("signs in with OIDC through the dev IdP from a form action; SSR and client navigation see the session; signs out from a form action", async () => {
    await page.goto(`${app}/`)
    expect(await status()).toBe("Signed out")
    await page.waitForSelector("main[data-hydrated=yes]")
    await page.click("#oidc")
    await page.waitForURL((url) => url.origin !== app, { timeout: scaled(20_000) })
    await page.fill("input[name=login]", ALICE.email)
    await page.fill("input[name=password]", ALICE.password)
    await page.click("button[type=submit]")
    await expectStatus(`Signed in as ${ALICE.email}`)
    expect(await profiles()).toEqual([`Profile of ${ALICE.email}`, `Profile of ${ALICE.email}`])
    await click("signout", "Signed out")
    expect(await profiles()).toEqual(["No profile: signed out", "No profile: signed out"])
  }, scaled(60_000))

  it("signs in with an email link (client helper), adds a passkey, signs out and back in with the passkey", async () => {
    await click("email-link", "")
    await page.waitForURL((url) => url.pathname === "/api/auth/verify-request", { timeout: scaled(20_000) })
    const link = /EMAIL_LINK pat@example\.com (\S+)/.exec(server?.output() ?? "")?.[1] ?? expect.unreachable(`no link printed:\n${server?.output() ?? ""}`)
    await page.goto(link)
    // Core asks for a click before it uses the link up, so a mail scanner's GET signs nobody in.
    if (new URL(page.url()).pathname !== "/") await page.click("button[type=submit]")
    await expectStatus("Signed in as pat@example.com")

    await click("add-passkey", "Signed in as pat@example.com")
    await click("client-signout", "Signed out")
    await click("passkey", "Signed in as pat@example.com")
    await click("signout", "Signed out")
  }, scaled(60_000))

  it("signs in with a password from a form action and out; React Router refuses a cross-site post to the action", async () => {
    await click("password", "Signed in as ada@example.com")
    await click("signout", "Signed out")
    expect(server?.output()).not.toMatch(/\berror\b/i)
    expect(pageErrors).toEqual([])
    const forged = await fetch(`${app.replace("localhost", "127.0.0.1")}/?index`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "providerId=credentials&username=ada&password=ada-password&redirectTo=/", redirect: "manual" })
    expect(forged.status).toBe(400)
    expect(forged.headers.getSetCookie().some((cookie) => cookie.includes("session-token"))).toBe(false)
    // The server logs the refusal on its own stream: it may reach the pipe after the 400 reaches us.
    await expect.poll(() => server?.output()).toContain("origin does not match")
  }, scaled(60_000))
})
