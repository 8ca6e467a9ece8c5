/**
 * A next-auth v5 App Router app written as next-auth's docs show (test/fixtures/next-app),
 * migrated by the built bin, then built with a real `next build`, served by `next start` and
 * signed in with Credentials through its own server action and with its generic OpenID Connect
 * provider through the local identity provider (@portcullis/dev-idp), in the cookie-jar browser
 * of @portcullis/dev-idp; the client side (`SessionProvider`, `useSession`) is checked in Chromium.
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { DevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import { copyFixture, dependenciesOf, installWorkspacePackages, runBin, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"
import { scaled } from "@portcullis/test-time"

const NEXT_BIN = fileURLToPath(new URL("../node_modules/next/dist/bin/next", import.meta.url))
const TSC = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url))
/** As `openssl rand -base64 32` writes one: the app runs under NODE_ENV=production, where core refuses a weak secret. */
const SECRET = "I6woDCwU/W908LdjPsUyhpTgirkjPVDkEU+Gtm/56nU="

let dir: string
let migration: BinRun
let app: StartedApp
/** What afterAll cleans up, set as soon as it exists (a failed beforeAll leaves some unset). */
const cleanup: { dir?: string; app?: StartedApp; idp?: DevIdp } = {}
let issuer: string
const browser = new TestBrowser()

beforeAll(async () => {
  dir = cleanup.dir = copyFixture("next-app")
  migration = await runBin([dir])
  installWorkspacePackages(dir)
  const port = await freePort()
  const sso = await startSsoIdp(dir, "auth.ts", `http://127.0.0.1:${String(port)}`, "/api/auth/callback/sso")
  cleanup.idp = sso.idp
  issuer = sso.idp.issuer
  const started = performance.now()
  await runFile(process.execPath, [NEXT_BIN, "build"], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" } })
  console.info(`next build of the migrated app took ${((performance.now() - started) / 1000).toFixed(1)} s`)
  app = cleanup.app = await startApp(dir, {
    port,
    args: [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"],
    env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", AUTH_URL: `http://127.0.0.1:${String(port)}`, AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", ...sso.env },
    readyPath: "/api/auth/providers",
  })
}, scaled(240_000))

afterAll(async () => {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.dir !== undefined) rmSync(cleanup.dir, { recursive: true, force: true })
})

it("migrates the app: exit 0, the files it changed, the cookie window, no manual step", () => {
  expect(migration.code).toBe(0)
  expect(migration.stdout).toContain("Changed 4 file(s):\n  app/layout.tsx\n  app/user-status.tsx\n  auth.ts\n  package.json\n")
  expect(migration.stdout).toMatch(/Auth\.js's session cookies stay accepted until \d{4}-\d\d-\d\dT[\d:.]+Z \(today \+ Auth\.js's default session maxAge, 30 days\): legacySessionCookies set in auth\.ts:\d+/)
  expect(migration.stdout).toContain("No manual step left.")
  const auth = readFileSync(join(dir, "auth.ts"), "utf8")
  expect(auth).toContain('declare module "@portcullis/nextjs" {')
  expect(auth).toContain('import GitHub from "@portcullis/providers/github"')
  expect(auth).toContain("legacySessionCookies: { until: ")
  expect(Object.keys(dependenciesOf(dir)).filter((name) => name.startsWith("@portcullis/")).sort()).toEqual(["@portcullis/core", "@portcullis/nextjs", "@portcullis/providers"])
  expect(dependenciesOf(dir)["next-auth"]).toBeUndefined()
})

it("type-checks against our packages: the session augmentation and legacySessionCookies included", async () => {
  const output = await runFile(process.execPath, [TSC, "--noEmit", "-p", dir], { encoding: "utf8" }).then(
    () => "",
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  )
  expect(output).toBe("")
})

it("sends a signed-out visitor from the middleware-protected page to sign in", async () => {
  const response = await browser.request(`${app.url}/dashboard`)
  expect(response.status).toBe(307)
  const location = new URL(response.headers.get("location") ?? "", app.url)
  expect(location.pathname).toBe("/api/auth/signin")
  expect(location.searchParams.get("callbackUrl")).toBe("/dashboard")
})

it("starts a GitHub sign-in from the migrated provider import, with the app's callback URL", async () => {
  // github.com is not reached: the test only reads where the app sends the browser.
  const offline = new TestBrowser({ fetch: (request) => (request.url.startsWith(app.url) ? fetch(request) : Promise.resolve(new Response("offline"))) })
  const signInPage = await offline.navigate(`${app.url}/api/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/api/auth/signin/github"))
  const { redirects } = await offline.submitForm(signInPage, { formIndex })
  const authorize = new URL(redirects.at(-1) ?? "")
  expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.url}/api/auth/callback/github`)
  expect(authorize.searchParams.get("client_id")).toBe("github-client-id")
})

it("signs in with Credentials through the page's server action, and auth() in a server component shows the augmented session", async () => {
  const home = await browser.navigate(`${app.url}/`)
  expect(home.body).toContain("Not signed in")
  const signedIn = await browser.submitForm(home, { values: { email: "dana@example.com", password: "dana-password" } })
  expect(new URL(signedIn.url).pathname).toBe("/")
  expect(signedIn.body).toMatch(/Signed in as <!-- -->dana@example\.com<!-- --> \(<!-- -->admin<!-- -->\)|Signed in as dana@example\.com \(admin\)/)
})

it("signs in with the generic OpenID Connect provider through the local identity provider", async () => {
  const visitor = new TestBrowser()
  const signInPage = await visitor.navigate(`${app.url}/api/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/api/auth/signin/sso"))
  const login = await visitor.submitForm(signInPage, { formIndex })
  expect(new URL(login.url).origin).toBe(issuer)
  const back = await visitor.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
  expect(new URL(back.url).origin).toBe(app.url)
  expect(new URL(back.url).searchParams.get("error")).toBeNull()
  const home = await visitor.navigate(`${app.url}/`)
  expect(home.body).toMatch(/Signed in as (<!-- -->)?alice@example\.com/)
})

it("lets the signed-in visitor through the middleware", async () => {
  const dashboard = await browser.navigate(`${app.url}/dashboard`)
  expect(dashboard.response.status).toBe(200)
  expect(dashboard.body).toMatch(/Dashboard of (<!-- -->)?Dana/)
})

it("shows the user to useSession under SessionProvider in Chromium", async () => {
  const chromium = await launchChromium()
  try {
    const context = await chromium.newContext()
    await context.addCookies(browser.cookies(app.url).map((cookie) => ({ name: cookie.name, value: cookie.value, url: app.url })))
    const page = await context.newPage()
    await page.goto(`${app.url}/`)
    await expect.poll(() => page.locator("#client-status").textContent(), { timeout: scaled(15_000) }).toBe("Client sees dana@example.com")
  } finally {
    await chromium.close()
  }
})
