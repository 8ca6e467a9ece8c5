/**
 * An Express app on Auth.js's @auth/express laid out as its example (test/fixtures/express-app:
 * TypeScript, its config in a module of its own with 21 providers configured from
 * `AUTH_<PROVIDER>_*` variables, `WorkOS({ connection })` among them), migrated by the built bin,
 * installed with a plain `npm install` of our packed tarballs, compiled with the app's own `tsc`,
 * run with node with only some providers' variables set, and signed in with Credentials and
 * through the local identity provider (@portcullis/dev-idp) with its generic OpenID Connect
 * provider, in the cookie-jar browser of @portcullis/test-kit.
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { encode } from "authjs-core/jwt"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { DevIdp } from "@portcullis/dev-idp"
import { freePort } from "@portcullis/test-kit/system"
import { scaled } from "@portcullis/test-time"
import { copyFixtureOutside, dependenciesOf, installPacked, runBin, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

const SECRET = "a-migrated-express-app-secret-of-32-chars"

let dir: string
let migration: BinRun
/** What the app's `tsc` printed: empty when it compiled cleanly. */
let compiled: string
let started: StartedApp | undefined
/** Why the app did not start, when it did not: each test that needs it fails with this. */
let startError: unknown
/** What afterAll cleans up, set as soon as it exists (a failed beforeAll leaves some unset). */
const cleanup: { scratch?: string; app?: StartedApp; idp?: DevIdp } = {}
let issuer: string
let before: number
const browser = new TestBrowser()

beforeAll(async () => {
  const copy = copyFixtureOutside("express-app")
  cleanup.scratch = copy.scratch
  dir = copy.dir
  before = Date.now()
  migration = await runBin([dir])
  const port = await freePort()
  const [install, sso] = await Promise.all([installPacked(copy.scratch, dir), startSsoIdp(dir, "src/config/auth.config.ts", `http://127.0.0.1:${String(port)}`, "/auth/callback/sso")])
  cleanup.idp = sso.idp
  issuer = sso.idp.issuer
  const compileStarted = performance.now()
  // tsc emits even when it reports errors: the test on `compiled` says what they were.
  compiled = await runFile(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" }).then(
    () => "",
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  )
  console.info(`Express example: npm install ${install.toFixed(1)} s, tsc ${((performance.now() - compileStarted) / 1000).toFixed(1)} s`)
  // Only some providers' variables set, as in a deployment that offers a few of the 21. No
  // AUTH_URL: with trustHost and Express's "trust proxy", a request forwarded as https is https.
  started = cleanup.app = await startApp(dir, {
    port,
    args: ["dist/server.js"],
    env: { AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", AUTH_GOOGLE_ID: "google-client-id", AUTH_GOOGLE_SECRET: "google-client-secret", ...sso.env },
  }).catch((error: unknown) => {
    // The migration and compile tests still report on their own.
    startError = error
    return undefined
  })
}, scaled(180_000))

/** The running app; throws why it did not start. */
const app = {
  get url(): string {
    if (started === undefined) throw startError instanceof Error ? startError : new Error("the app did not start")
    return started.url
  },
}

afterAll(async () => {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
})

it("migrates the app, and sets the cookie window from the config's own session maxAge in its own module", () => {
  expect(migration.code).toBe(0)
  expect(migration.stdout).toContain("Changed 5 file(s):\n  package.json\n  src/app.ts\n  src/config/auth.config.ts\n  src/middleware/auth.middleware.ts\n  types/express/index.d.ts\n")
  expect(migration.stdout).toContain("No manual step left.")
  const config = readFileSync(join(dir, "src/config/auth.config.ts"), "utf8")
  expect(config).toContain('import Credentials from "@portcullis/express/providers/credentials"')
  expect(config).toContain('import WorkOS from "@portcullis/express/providers/workos"')
  const until = /legacySessionCookies: \{ until: "([^"]+)" \}/u.exec(config)?.[1]
  const week = 7 * 24 * 60 * 60 * 1000
  expect(Date.parse(until ?? "")).toBeGreaterThanOrEqual(before + week)
  // Written to the second, rounded up.
  expect(Date.parse(until ?? "")).toBeLessThanOrEqual(Date.now() + week + 1000)
  expect(migration.stdout).toMatch(new RegExp(`until ${(until ?? "").replaceAll(".", "\\.")} \\(today \\+ its session\\.maxAge, 7 days\\): legacySessionCookies set in src/config/auth\\.config\\.ts:\\d+`, "u"))
  expect(Object.keys(dependenciesOf(dir)).sort()).toEqual(["@portcullis/core", "@portcullis/express", "@portcullis/providers", "express"])
})

it("compiles with the app's own tsc --strict against our packages: WorkOS({ connection }) and the Locals augmentation included", () => {
  expect(compiled).toBe("")
})

it("lists the providers whose variables are set, and leaves out those configured without them", async () => {
  const response = await fetch(`${app.url}/auth/providers`)
  expect(response.status).toBe(200)
  const ids = Object.keys((await response.json()) as Record<string, unknown>)
  expect(ids).toEqual(expect.arrayContaining(["github", "google", "sso", "credentials"]))
  // Tenant providers without their issuer: Auth0, Azure AD B2C, BoxyHQ SAML, Cognito, Keycloak, Okta, Passage.
  for (const id of ["auth0", "azure-ad-b2c", "boxyhq-saml", "cognito", "keycloak", "okta", "passage"]) expect(ids).not.toContain(id)
})

it("sends a signed-out visitor from the protected API to a 401", async () => {
  const response = await browser.request(`${app.url}/api/protected`)
  expect(response.status).toBe(401)
  expect(await response.json()).toEqual({ message: "Not Authenticated" })
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
  const api = await browser.request(`${app.url}/api/protected`)
  expect(api.status).toBe(200)
  expect(((await api.json()) as { user?: { email?: string } }).user?.email).toBe("erin@example.com")
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
