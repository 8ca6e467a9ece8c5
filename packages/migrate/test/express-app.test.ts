/**
 * An Express app on Auth.js's @auth/express written as its docs show (test/fixtures/express-app,
 * JavaScript, its config in a module of its own), migrated by the built bin, run with node and
 * signed in with Credentials and through the local identity provider (@portcullis/dev-idp) with
 * its generic OpenID Connect provider, in the cookie-jar browser of @portcullis/dev-idp.
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { encode } from "authjs-core/jwt"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { DevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import { copyFixture, dependenciesOf, installWorkspacePackages, runBin, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"
import { scaled } from "@portcullis/test-time"

const SECRET = "a-migrated-express-app-secret-of-32-chars"

let dir: string
let migration: BinRun
let app: StartedApp
/** What afterAll cleans up, set as soon as it exists (a failed beforeAll leaves some unset). */
const cleanup: { dir?: string; app?: StartedApp; idp?: DevIdp } = {}
let issuer: string
let before: number
const browser = new TestBrowser()

beforeAll(async () => {
  dir = cleanup.dir = copyFixture("express-app")
  before = Date.now()
  migration = await runBin([dir])
  installWorkspacePackages(dir)
  const port = await freePort()
  const sso = await startSsoIdp(dir, "src/config/auth.config.js", `http://127.0.0.1:${String(port)}`, "/auth/callback/sso")
  cleanup.idp = sso.idp
  issuer = sso.idp.issuer
  // No AUTH_URL: with trustHost and Express's "trust proxy", a request forwarded as https is https.
  app = cleanup.app = await startApp(dir, { port, args: ["server.js"], env: { AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", ...sso.env } })
}, scaled(60_000))

afterAll(async () => {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.dir !== undefined) rmSync(cleanup.dir, { recursive: true, force: true })
})

it("migrates the app, and sets the cookie window from the config's own session maxAge in its own module", () => {
  expect(migration.code).toBe(0)
  expect(migration.stdout).toContain("Changed 4 file(s):\n  package.json\n  src/app.js\n  src/config/auth.config.js\n  src/middleware/auth.middleware.js\n")
  expect(migration.stdout).toContain("No manual step left.")
  const config = readFileSync(join(dir, "src/config/auth.config.js"), "utf8")
  expect(config).toContain('import Credentials from "@portcullis/express/providers/credentials"')
  const until = /legacySessionCookies: \{ until: "([^"]+)" \}/u.exec(config)?.[1]
  const week = 7 * 24 * 60 * 60 * 1000
  expect(Date.parse(until ?? "")).toBeGreaterThanOrEqual(before + week)
  // Written to the second, rounded up.
  expect(Date.parse(until ?? "")).toBeLessThanOrEqual(Date.now() + week + 1000)
  expect(migration.stdout).toContain(`until ${until ?? ""} (today + its session.maxAge, 7 days): legacySessionCookies set in src/config/auth.config.js:8`)
  expect(Object.keys(dependenciesOf(dir)).sort()).toEqual(["@portcullis/core", "@portcullis/express", "@portcullis/providers", "express"])
})

it("sends a signed-out visitor from the protected page to sign in", async () => {
  const response = await browser.request(`${app.url}/protected`)
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe("/auth/signin")
})

it("starts a GitHub sign-in from the migrated provider import, with the app's callback URL", async () => {
  // github.com is not reached: the test only reads where the app sends the browser.
  const offline = new TestBrowser({ fetch: (request) => (request.url.startsWith(app.url) ? fetch(request) : Promise.resolve(new Response("offline"))) })
  const signInPage = await offline.navigate(`${app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/signin/github"))
  const { redirects } = await offline.submitForm(signInPage, { formIndex })
  const authorize = new URL(redirects.at(-1) ?? "")
  expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.url}/auth/callback/github`)
})

it("signs in with Credentials on the sign-in page, and getSession in the app's middleware sees the user", async () => {
  const signInPage = await browser.navigate(`${app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/callback/credentials"))
  const signedIn = await browser.submitForm(signInPage, { formIndex, values: { email: "erin@example.com", password: "erin-password" } })
  expect(signedIn.body).toContain('<p id="status">Signed in as erin@example.com</p>')
  const protectedPage = await browser.navigate(`${app.url}/protected`)
  expect(protectedPage.body).toContain('<p id="protected">Protected page of Erin</p>')
})

it("signs in with the generic OpenID Connect provider through the local identity provider", async () => {
  const visitor = new TestBrowser()
  const signInPage = await visitor.navigate(`${app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/signin/sso"))
  const login = await visitor.submitForm(signInPage, { formIndex })
  expect(new URL(login.url).origin).toBe(issuer)
  const back = await visitor.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
  expect(new URL(back.url).origin).toBe(app.url)
  expect((await visitor.navigate(`${app.url}/`)).body).toContain('<p id="status">Signed in as alice@example.com</p>')
})

it("refuses a wrong password", async () => {
  const stranger = new TestBrowser()
  const signInPage = await stranger.navigate(`${app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/callback/credentials"))
  const refused = await stranger.submitForm(signInPage, { formIndex, values: { email: "erin@example.com", password: "wrong" } })
  expect(new URL(refused.url).searchParams.get("error")).toBe("CredentialsSignin")
  expect((await stranger.navigate(`${app.url}/`)).body).toContain("Not signed in")
})

it("keeps a visitor signed in by Auth.js on https signed in: its __Secure-authjs.session-token is read in the window the codemod opened", async () => {
  // A session cookie as Auth.js's own @auth/core seals it, under its https name.
  const name = "__Secure-authjs.session-token"
  const token = await encode({ token: { name: "Frank", email: "frank@example.com", sub: "8" }, secret: SECRET, salt: name })
  const headers = { "x-forwarded-proto": "https", cookie: `${name}=${token}` }
  const response = await fetch(`${app.url}/`, { headers })
  expect(await response.text()).toContain('<p id="status">Signed in as frank@example.com</p>')
  const forged = await fetch(`${app.url}/`, { headers: { ...headers, cookie: `${name}=${token.slice(0, -4)}AAAA` } })
  expect(await forged.text()).toContain("Not signed in")
})
