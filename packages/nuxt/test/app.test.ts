/**
 * The module as a user installs it: `pnpm pack` of core, providers, nuxt and adapter-memory, a
 * plain `npm install` with npm's defaults in a folder outside the workspace, a real `nuxt build` of
 * `test/fixtures/app` (telemetry off, nothing fetched) and its Nitro server. One build, one
 * Chromium and one dev IdP for the file sign in with OIDC (also answering with
 * `response_mode=form_post`), an email link, a password and a passkey (a CDP virtual
 * authenticator) through the composables, and out; the server-rendered page and a client
 * navigation both see the session, the `auth` middleware guards a page, the server functions
 * answer in Nitro routes, and a back-channel logout ends the session.
 */
import { readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { execFile } from "node:child_process"
import { get } from "node:http"
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
const CLIENT = { id: "nuxt-app", secret: "nuxt-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")
const FRAMEWORK = ["nuxt", "vue", "vue-router"]
/** Nuxt's own switches for a build that asks nothing and sends nothing. */
const QUIET = { NUXT_TELEMETRY_DISABLED: "1", CI: "1" }

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
  const written = await writeAppDir({ integration: "@portcullis/nuxt", fixture: join(HERE, "fixtures", "app"), framework: Object.fromEntries(FRAMEWORK.map((name) => [name, self.devDependencies[name] ?? ""])) })
  const { dir, port } = written
  scratch = written.scratch
  app = written.url
  const seconds = { install: 0, build: 0 }
  // The browser and the IdP start while npm installs and Nuxt builds.
  const [started, launched] = await Promise.all([
    startDevIdp({
      consent: "auto",
      clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: ["dev-idp", "dev-idp-post"].map((id) => `${app}/api/auth/callback/${id}`), backchannel_logout_uri: `${app}/api/auth/backchannel-logout/dev-idp` }],
    }),
    launchChromium(),
    (async () => {
      let start = performance.now()
      await installPackedWithNpm(dir, { tarballs: join(scratch, "tarballs") })
      seconds.install = (performance.now() - start) / 1000
      start = performance.now()
      await promisify(execFile)(process.execPath, [join(dir, "node_modules", "nuxt", "bin", "nuxt.mjs"), "build"], { cwd: dir, env: { ...process.env, ...QUIET, NODE_ENV: "production" }, maxBuffer: 64 * 1024 * 1024 })
      seconds.build = (performance.now() - start) / 1000
    })(),
  ])
  console.log(`nuxt app: npm install ${seconds.install.toFixed(1)} s, nuxt build ${seconds.build.toFixed(1)} s`)
  idp = started
  browser = launched
  const spawned = startAppServer({ args: [join(dir, ".output", "server", "index.mjs")], cwd: dir, url: app, port, issuer: started.issuer, client: CLIENT, ready: "Listening on", env: { ...QUIET, HOST: "127.0.0.1" }, scaled })
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
  const deadline = performance.now() + scaled(20_000)
  let last: string
  while ((last = await status()) !== expected) {
    if (performance.now() > deadline) expect.unreachable(`the app's page shows "${last}", not "${expected}" (at ${page.url()})\n${pageErrors.join("\n")}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Opens the home page and waits for Vue to hydrate it, so its buttons answer. */
async function home(): Promise<void> {
  await page.goto(`${app}/`)
  await page.waitForSelector("main[data-hydrated=yes]", { timeout: scaled(10_000) }).catch((error: unknown) => expect.unreachable(`${String(error)}\n${pageErrors.join("\n")}`))
}

/** Clicks a button of the home page and waits until the page it leads to shows `expected`. */
async function click(id: string, expected: string): Promise<void> {
  await home()
  // This page's line no longer counts: only the page the click leads to.
  await page.evaluate('document.getElementById("status")?.removeAttribute("id")')
  await page.click(`#${id}`)
  await expectStatus(expected)
}

/** Clicks an OIDC button of the home page, signs in at the dev IdP's login form when it asks (its own session may still be there), and waits for home to show `expected`. */
async function signInAtIdp(id: string, expected: string): Promise<void> {
  await home()
  await page.evaluate('document.getElementById("status")?.removeAttribute("id")')
  await page.click(`#${id}`)
  const atLogin = async (): Promise<boolean> => new URL(page.url()).origin !== app && (await page.locator("input[name=login]").count()) > 0
  await expect.poll(async () => (await atLogin()) || (await status()) === expected, { timeout: scaled(20_000) }).toBe(true)
  if (await atLogin()) {
    await page.fill("input[name=login]", ALICE.email)
    await page.fill("input[name=password]", ALICE.password)
    await page.click("button[type=submit]")
  }
  await expectStatus(expected)
}

/** What /profile shows (useSession() and the server's auth(event)), rendered by the server, then after a client navigation from home; or where the browser was sent. */
async function profiles(): Promise<[string, string]> {
  const read = async (): Promise<string> => {
    if (new URL(page.url()).pathname !== "/profile") return `sent to ${new URL(page.url()).pathname}`
    return `${(await page.locator("#profile-status").textContent()) ?? ""} / ${(await page.locator("#server-status").textContent()) ?? ""}`
  }
  await page.goto(`${app}/profile`)
  const rendered = await read()
  await home()
  await page.click("#profile")
  await page.waitForURL((url) => url.pathname !== "/", { timeout: scaled(10_000) })
  return [rendered, await read()]
}

/** A same-origin request from the page, as the app's own script would send it. */
function fromPage(path: string, method = "GET"): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async ([url, verb]) => {
    const response = await fetch(url, { method: verb })
    return { status: response.status, body: (await response.json()) as unknown }
  }, [path, method] as const)
}

describe("an npm-installed, nuxt-built app in Chromium", () => {
  it("signs in with OIDC through the dev IdP; SSR and client navigation see the session; the auth middleware guards /profile once signed out", async () => {
    await home()
    expect(await status()).toBe("Signed out")
    await signInAtIdp("oidc", `Signed in as ${ALICE.email}`)
    const seen = `Profile of ${ALICE.email} / Server sees ${ALICE.email}`
    expect(await profiles()).toEqual([seen, seen])
    await click("signout", "Signed out")
    expect(await profiles()).toEqual(["sent to /api/auth/signin", "sent to /api/auth/signin"])
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/profile")
  }, scaled(60_000))

  it("answers getAccessToken, listSessions, revokeSessions and unlinkAccount in Nitro routes; the server functions refuse a cross-site post (OWASP ASVS V3.5.1)", async () => {
    await signInAtIdp("oidc", `Signed in as ${ALICE.email}`)
    expect(await fromPage("/api/token")).toEqual({ status: 200, body: { token: true } })
    expect(await fromPage("/api/devices")).toEqual({ status: 200, body: [true] })
    expect(await fromPage("/api/devices", "POST")).toMatchObject({ status: 200, body: { revoked: 0 } })
    // Core's answer passed through: Alice has no form_post account of her own to unlink.
    expect(await fromPage("/api/unlink", "POST")).toMatchObject({ status: 400, body: { error: "UnknownAccount" } })
    const cookie = (await page.context().cookies(app)).map(({ name, value }) => `${name}=${value}`).join("; ")
    for (const path of ["/api/devices", "/api/unlink"]) {
      const forged = await fetch(`${app}${path}`, { method: "POST", headers: { cookie, origin: "https://evil.example" } })
      expect(forged.status).toBe(403)
    }
    await click("signout", "Signed out")
  }, scaled(60_000))

  it("requireRecentAuth(event) in a Nitro route: the sign-in page when signed out, the session after a sign-in, the re-authentication page once it is older than maxAge, each back to the route (OWASP ASVS V7.5.1)", async () => {
    const back = (path: string): string => encodeURIComponent(`${app}${path}`)
    await home()
    expect(await fromPage("/api/recent")).toEqual({ status: 200, body: { ok: false, url: `${app}/api/auth/signin?callbackUrl=${back("/api/recent")}` } })
    await click("password", "Signed in as ada@example.com")
    expect(await fromPage("/api/recent")).toMatchObject({ status: 200, body: { ok: true, session: { user: { email: "ada@example.com" } } } })
    // Authentication times are whole seconds: a second later, maxAge 0 has passed.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect(await fromPage("/api/recent?maxAge=0")).toEqual({ status: 200, body: { ok: false, url: `${app}/api/auth/reauth?callbackUrl=${back("/api/recent?maxAge=0")}` } })
    await click("signout", "Signed out")
  }, scaled(60_000))

  it("signs in with the provider's response_mode=form_post (a cross-site POST to /api/auth that Nitro lets through), and the IdP's back-channel logout (a POST without Origin, OpenID Connect Back-Channel Logout 1.0 §2.5) ends the session", async () => {
    await signInAtIdp("oidc-form-post", `Signed in as ${ALICE.email}`)
    // Signed out first: a sign-in through the other provider while signed in links its account to
    // the same session, which stays tied to the provider it began with (whose client has no
    // back-channel logout URI here).
    await click("signout", "Signed out")
    await signInAtIdp("oidc", `Signed in as ${ALICE.email}`)
    const sent = await (idp ?? expect.unreachable()).endSessions(ALICE.sub)
    expect(sent.map((record) => record.error)).toContain(undefined)
    await home()
    expect(await status()).toBe("Signed out")
  }, scaled(60_000))

  it("signs in with an email link, adds a passkey, signs out and back in with the passkey", async () => {
    await click("email-link", "")
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
  }, scaled(60_000))

  it("answers 400, not 500, to a Host header that is not a plain host[:port] (auth(event) reads no session from it), and takes one in capitals (RFC 9110 §7.2)", async () => {
    const answer = (host: string, path = "/api/auth/session"): Promise<number> =>
      new Promise((resolve, reject) => {
        get({ host: "127.0.0.1", port: new URL(app).port, path, headers: { host } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        }).on("error", reject)
      })
    expect(await answer("evil.example/x")).toBe(400)
    expect(await answer("localhost:99999")).toBe(400)
    // auth(event) reads no session from such a request, and does not fail the route.
    expect(await answer("evil.example/x", "/api/me")).toBe(200)
    expect(await answer(`LOCALHOST:${new URL(app).port}`)).toBe(200)
  })

  it("signs in with a password and out; core's CSRF token, not Nuxt, guards /api/auth against a cross-site post", async () => {
    await click("password", "Signed in as ada@example.com")
    await click("signout", "Signed out")
    const forged = await fetch(`${app}/api/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "username=ada&password=ada-password&callbackUrl=/", redirect: "manual" })
    expect(forged.headers.getSetCookie().some((cookie) => cookie.includes("session-token"))).toBe(false)
    // Core logs what it refused, and only that: the unlink of an account Alice lacks and the forged post.
    // The refusal's log line may reach the pipe after its answer: read until it is there.
    const logged = (): string[] => (server?.output() ?? "").split("\n").filter((line) => /error|warn/i.test(line)).map((line) => /^\[auth\]\[error\] (\w+):/.exec(line)?.[1] ?? line)
    await expect.poll(logged, { timeout: scaled(5_000) }).toEqual(["UnknownAccount", "MissingCSRF"])
    // The browser's own report of the unlink's deliberate 400 aside, the pages ran clean.
    expect(pageErrors.filter((error) => !error.startsWith(`${app}/api/unlink:`))).toEqual([])
  }, scaled(60_000))
})
