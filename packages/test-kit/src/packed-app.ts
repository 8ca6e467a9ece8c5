/**
 * An integration's app as a user installs it, driven by Chromium: the workspace's packages packed
 * and installed with npm's defaults in a folder outside the workspace, the app's `server.mjs`
 * started on Node.js, and the sign-ins every integration's app test runs from the app's own page
 * (OIDC, an email link, a passkey through a CDP virtual authenticator, a password, sign-out).
 *
 * The app's page shows `#status` ("Signed out" or "Signed in as <email>"), buttons `#oidc`,
 * `#email-link`, `#password`, `#passkey`, `#add-passkey`, `#signout`; the app prints `listening`
 * once it listens and `EMAIL_LINK <email> <url>` for each email link. `fixtures/app-kit.mjs`, copied
 * beside it, gives it that configuration and page.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "./chromium.js"
import { createServer, type Server } from "node:net"
import { spawnServer, type SpawnedServer } from "./system.js"
import { installPackedWithNpm } from "./workspace.js"

/** The configuration and page every app shares, copied beside its `server.mjs` (from `dist/` or `src/`). */
const APP_KIT = new URL("../fixtures/app-kit.mjs", import.meta.url)

/** The identity provider the app signs in with: started by the caller (the dev IdP depends on this package). */
export interface PackedAppIdp {
  issuer: string
  close(): Promise<void>
}

/** Options of {@link startPackedApp}. */
export interface PackedAppOptions {
  /** The integration under test, `@portcullis/<framework>`: packed with core, providers and the memory adapter. */
  integration: string
  /** The `server.mjs` to run. */
  server: string
  /** A folder of the app's other files (routes, a bundler's config), copied into the app before `server`. */
  files?: string
  /** The app's build, run with Node.js in the app's folder once npm has installed it: `["node_modules/vite/bin/vite.js", "build"]`. */
  build?: string[]
  /** What the build's environment adds to this process's (`ASTRO_TELEMETRY_DISABLED`). */
  buildEnv?: Record<string, string>
  /** The framework's packages the app imports, with the ranges to install. */
  framework: Record<string, string>
  /** The client the app is registered as at the IdP (`AUTH_DEV_IDP_ID`, `AUTH_DEV_IDP_SECRET`). */
  client: { id: string; secret: string }
  /** Starts the IdP with this client and the app's redirect URI registered. */
  startIdp: (redirectUri: string) => Promise<PackedAppIdp>
  /** Multiplies every wait (a busy machine's time scale). */
  scaled: (ms: number) => number
}

/** A running app, its browser page and its IdP. */
export interface PackedApp {
  /** `http://localhost:<port>` (an IP address cannot be a WebAuthn relying party id). */
  url: string
  page: Page
  server: SpawnedServer
  /** Waits until the browser is back on the app's page showing `expected`. */
  expectStatus(expected: string): Promise<void>
  /** Clicks a button of the app's page and waits until the page shows `expected`. */
  click(id: string, expected: string): Promise<void>
  close(): Promise<void>
}

async function waitUntil(check: () => Promise<boolean>, ms: number, failure: () => string): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(failure())
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** npm's install of the packed packages, then the app's build when it has one, each timed as the other app tests print theirs. */
async function installAndBuild(name: string, dir: string, tarballs: string, build: string[] | undefined, buildEnv: Record<string, string> = {}): Promise<void> {
  const started = performance.now()
  await installPackedWithNpm(dir, { tarballs })
  const installed = performance.now()
  if (build !== undefined) await promisify(execFile)(process.execPath, build, { cwd: dir, env: { ...process.env, ...buildEnv, NODE_ENV: "production" }, maxBuffer: 64 * 1024 * 1024 })
  console.info(`${name}: npm install ${((installed - started) / 1000).toFixed(1)} s${build === undefined ? "" : `, build ${((performance.now() - installed) / 1000).toFixed(1)} s`}`)
}

/**
 * The app ports held until their server starts: an app's port is chosen before npm installs it
 * (the IdP registers its callback on it), and in the minute an install takes another process's
 * free port could land on one merely found free and let go.
 */
const heldPorts = new Map<number, Server>()

/** A free loopback port, kept bound (so no one else is given it) until {@link startAppServer} lets it go. */
function holdPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (typeof address !== "object" || address === null) {
        reject(new Error("no port"))
        return
      }
      server.unref()
      heldPorts.set(address.port, server)
      resolve(address.port)
    })
  })
}

/** The app's package name (`hono-app` for `@portcullis/hono`), which also names its scratch folder and build log line. */
function appName(integration: string): string {
  return `${integration.replace(/^@portcullis\//, "")}-app`
}

/** Options of {@link writeAppDir}. */
export interface AppDirOptions {
  /** The integration under test, `@portcullis/<framework>`: depended on with core, providers and the memory adapter. */
  integration: string
  /** The app's files, copied whole; without them the app is only its package.json. */
  fixture?: string | undefined
  /** The framework's packages the app depends on, with the ranges to install. */
  framework: Record<string, string>
}

/**
 * A scratch folder with the app in `app/` (the fixture and a package.json naming our packages
 * and the framework's), a free port (held until {@link startAppServer} starts the app on it), and the app's origin on it: `http://localhost:<port>`, as an
 * IP address cannot be a WebAuthn relying party id.
 */
export async function writeAppDir(options: AppDirOptions): Promise<{ scratch: string; dir: string; port: number; url: string }> {
  const name = appName(options.integration)
  const scratch = await mkdtemp(join(tmpdir(), `portcullis-${name}-`))
  const dir = join(scratch, "app")
  await (options.fixture === undefined ? mkdir(dir) : cp(options.fixture, dir, { recursive: true }))
  const ours = Object.fromEntries(["@portcullis/core", "@portcullis/providers", "@portcullis/adapter-memory", options.integration].map((pkg) => [pkg, "*"]))
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module", dependencies: { ...ours, ...options.framework } }, null, 2))
  const port = await holdPort()
  return { scratch, dir, port, url: `http://localhost:${String(port)}` }
}

/** Options of {@link startAppServer}. */
export interface AppServerOptions {
  /** Node.js's arguments: the server's script and its own. */
  args: string[]
  cwd: string
  /** The app's origin (`AUTH_URL`) and the port it listens on (`PORT`). */
  url: string
  port: number
  /** The dev IdP's issuer and the app's client there (`AUTH_DEV_IDP_*`). */
  issuer: string
  client: { id: string; secret: string }
  /** What the server prints once it listens. */
  ready: string
  /** More of the server's environment (the framework's own switches). */
  env?: Record<string, string>
  scaled: (ms: number) => number
}

/**
 * Starts a built app's server on Node.js in production mode with a fresh `AUTH_SECRET`, the app's
 * origin and its dev IdP client; `ready` settles once it prints `options.ready`.
 *
 * @throws Error (from `ready`) when it exits or prints nothing of the kind in time, with its output.
 */
export function startAppServer(options: AppServerOptions): SpawnedServer & { ready: Promise<void> } {
  // Let the held port go: the handle closes on this tick's way out, long before the child listens.
  heldPorts.get(options.port)?.close()
  heldPorts.delete(options.port)
  const server = spawnServer(process.execPath, options.args, {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      AUTH_SECRET: randomBytes(32).toString("base64"),
      AUTH_URL: options.url,
      AUTH_DEV_IDP_ISSUER: options.issuer,
      AUTH_DEV_IDP_ID: options.client.id,
      AUTH_DEV_IDP_SECRET: options.client.secret,
    },
    stopSignal: "SIGTERM",
    killSignal: "SIGKILL",
    outputLimit: 50_000,
    cleanup: () => undefined,
  })
  const ready = (async () => {
    await waitUntil(() => Promise.resolve(server.output().toLowerCase().includes(options.ready.toLowerCase()) || server.exited()), options.scaled(20_000), () => `the app did not start:\n${server.output()}`)
    if (server.exited()) throw new Error(`the app did not start:\n${server.output()}`)
  })()
  // Awaited by the caller; a failure must not also surface as an unhandled rejection.
  ready.catch(() => undefined)
  return Object.assign(server, { ready })
}

/** The status line (`#status`) of the app's home page, or "" while the browser is elsewhere. */
export async function homeStatus(page: Page, url: string): Promise<string> {
  if (!page.url().startsWith(`${url}/`) || new URL(page.url()).pathname !== "/") return ""
  return (await page.locator("#status").textContent({ timeout: 1000 }).catch(() => "")) ?? ""
}

/**
 * A page of the app in a new browser context with a CDP virtual authenticator, and what the
 * browser reports going wrong in the app's own pages (not the IdP's, whose missing favicon is not
 * under test).
 */
export async function openAppPage(browser: Browser, url: string): Promise<{ page: Page; pageErrors: string[] }> {
  const pageErrors: string[] = []
  const page = await (await browser.newContext()).newPage()
  page.on("pageerror", (error) => pageErrors.push(error.message))
  page.on("console", (message) => {
    if (message.type() === "error" && message.location().url.startsWith(`${url}/`)) pageErrors.push(`${message.location().url}: ${message.text()}`)
  })
  await addVirtualAuthenticator(await enableVirtualAuthenticators(page))
  return { page, pageErrors }
}

/**
 * Packs and installs the app, starts it, its IdP and Chromium (the last two while npm installs).
 *
 * @throws Error when npm fails or the app does not print `listening` in time.
 */
export async function startPackedApp(options: PackedAppOptions): Promise<PackedApp> {
  const { scratch, dir, port, url } = await writeAppDir({ integration: options.integration, fixture: options.files, framework: options.framework })
  await copyFile(options.server, join(dir, "server.mjs"))
  await copyFile(fileURLToPath(APP_KIT), join(dir, "app-kit.mjs"))
  let idp: PackedAppIdp | undefined
  let browser: Browser | undefined
  let server: SpawnedServer | undefined
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined)
    await server?.stop()
    await idp?.close()
    await rm(scratch, { recursive: true, force: true })
  }
  try {
    const [started, launched] = await Promise.all([options.startIdp(`${url}/api/auth/callback/dev-idp`), launchChromium(), installAndBuild(appName(options.integration), dir, join(scratch, "tarballs"), options.build, options.buildEnv)])
    idp = started
    browser = launched
    const spawned = startAppServer({ args: ["server.mjs"], cwd: dir, url, port, issuer: started.issuer, client: options.client, ready: "listening", scaled: options.scaled })
    server = spawned
    await spawned.ready
    const { page } = await openAppPage(launched, url)

    let last = ""
    const expectStatus = (expected: string): Promise<void> =>
      waitUntil(async () => (last = await homeStatus(page, url)) === expected, options.scaled(20_000), () => `the app's page shows "${last}", not "${expected}" (at ${page.url()})`)
    return {
      url,
      page,
      server: spawned,
      expectStatus,
      async click(id, expected) {
        await page.goto(`${url}/`)
        // This page's line no longer counts: only the page the click leads to.
        await page.evaluate('document.getElementById("status")?.removeAttribute("id")')
        await page.click(`#${id}`)
        await expectStatus(expected)
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** Signs in with OIDC through the dev IdP's login form as `account`, then out. */
export async function signInWithOidc(app: PackedApp, account: { email: string; password: string }, scaled: (ms: number) => number): Promise<void> {
  const { page } = app
  await page.goto(`${app.url}/`)
  await app.expectStatus("Signed out")
  await page.click("#oidc")
  await page.waitForURL((url) => url.origin !== app.url, { timeout: scaled(20_000) })
  await page.fill("input[name=login]", account.email)
  await page.fill("input[name=password]", account.password)
  await page.click("button[type=submit]")
  await app.expectStatus(`Signed in as ${account.email}`)
  await app.click("signout", "Signed out")
}

/** Signs in with the email link the app prints for pat@example.com, adds a passkey, signs out and back in with it, and out. */
export async function signInWithEmailLinkAndPasskey(app: PackedApp, scaled: (ms: number) => number): Promise<void> {
  const { page } = app
  await page.goto(`${app.url}/`)
  await page.click("#email-link")
  await page.waitForURL((url) => url.pathname === "/api/auth/verify-request", { timeout: scaled(20_000) })
  const link = /EMAIL_LINK pat@example\.com (\S+)/.exec(app.server.output())?.[1]
  if (link === undefined) throw new Error(`no link printed:\n${app.server.output()}`)
  await page.goto(link)
  // Core asks for a click before it uses the link up, so a mail scanner's GET signs nobody in.
  if (new URL(page.url()).pathname !== "/") await page.click("button[type=submit]")
  await app.expectStatus("Signed in as pat@example.com")
  await app.click("add-passkey", "Signed in as pat@example.com")
  await app.click("signout", "Signed out")
  await app.click("passkey", "Signed in as pat@example.com")
  await app.click("signout", "Signed out")
}

/** Signs in with the password of the app's credentials provider (ada), then out. */
export async function signInWithPassword(app: PackedApp): Promise<void> {
  await app.click("password", "Signed in as ada@example.com")
  await app.click("signout", "Signed out")
}

/** The status of a form post to the app's `path` from another site, without any token of the app's. */
export async function crossSitePostStatus(app: PackedApp, path: string): Promise<number> {
  const response = await fetch(`${app.url.replace("localhost", "127.0.0.1")}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "name=x" })
  return response.status
}
