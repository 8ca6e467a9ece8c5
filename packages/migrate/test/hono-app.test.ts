/**
 * A Hono app on @hono/auth-js laid out as its README shows (test/fixtures/hono-app: the config a
 * function of the context in a module of its own, `initAuthConfig`, `authHandler` on
 * `/api/auth/*`, `verifyAuth` on `/api/*`, `c.get("authUser")`, `getAuthUser(c)`, the browser's
 * `signIn`/`signOut` from `@hono/auth-js/react`), migrated by the built bin, installed with a
 * plain `npm install` of our packed tarballs, compiled with the app's own `tsc`, run with node and
 * signed in, in the cookie-jar browser, through the local identity provider (@portcullis/dev-idp)
 * and with Credentials.
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { DevIdp } from "@portcullis/dev-idp"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { freePort } from "@portcullis/test-kit/system"
import { scaled } from "@portcullis/test-time"
import { encode } from "authjs-core/jwt"
import { afterAll, beforeAll, expect, it } from "vitest"
import { copyFixtureOutside, dependenciesOf, installPacked, runBin, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

const SECRET = "a-migrated-hono-app-secret-of-32-chars"

let dir: string
let migration: BinRun
/** What the app's `tsc` printed: empty when it compiled cleanly. */
let compiled: string
let app: StartedApp
const cleanup: { scratch?: string; app?: StartedApp; idp?: DevIdp } = {}

beforeAll(async () => {
  const copy = copyFixtureOutside("hono-app")
  cleanup.scratch = copy.scratch
  dir = copy.dir
  migration = await runBin([dir])
  if (migration.code !== 0) throw new Error(`the codemod exited with ${String(migration.code)}:\n${migration.stdout}\n${migration.stderr}`)
  const port = await freePort()
  const [install, sso] = await Promise.all([installPacked(copy.scratch, dir), startSsoIdp(dir, "src/auth.ts", `http://127.0.0.1:${String(port)}`, "/api/auth/callback/sso")])
  cleanup.idp = sso.idp
  const started = performance.now()
  compiled = await runFile(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" }).then(
    () => "",
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  )
  console.info(`Hono example: npm install ${install.toFixed(1)} s, tsc ${((performance.now() - started) / 1000).toFixed(1)} s`)
  app = cleanup.app = await startApp(dir, { port, args: ["dist/server.js"], env: { AUTH_SECRET: SECRET, ...sso.env }, readyPath: "/api/auth/providers" })
}, scaled(180_000))

afterAll(async () => {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
})

it("moves the server to @portcullis/hono and the browser's signIn/signOut to @portcullis/core/client, and keeps Auth.js's cookies for a window", () => {
  expect(migration.stdout).toContain("Changed 4 file(s):\n  package.json\n  src/auth.ts\n  src/client/buttons.ts\n  src/server.ts\n")
  expect(readFileSync(join(dir, "src/server.ts"), "utf8")).toContain('import { authHandler, getAuthUser, initAuthConfig, verifyAuth } from "@portcullis/hono"')
  expect(readFileSync(join(dir, "src/client/buttons.ts"), "utf8")).toContain('import { signIn, signOut } from "@portcullis/core/client"')
  const config = readFileSync(join(dir, "src/auth.ts"), "utf8")
  expect(config).toContain('import type { AuthConfig } from "@portcullis/hono"')
  expect(config).toMatch(/legacySessionCookies: \{ until: "[^"]+" \}/)
  // The one step left: Hono hands core no client address unless the config names getConnInfo.
  expect(migration.stdout).toMatch(/Manual steps left \(1\):\n {2}src\/auth\.ts:\d+:\d+: Portcullis limits sign-in attempts per client address, and @portcullis\/hono learns it only from the getConnInfo/)
  expect(Object.keys(dependenciesOf(dir)).sort()).toEqual(["@hono/node-server", "@portcullis/core", "@portcullis/hono", "@portcullis/providers", "hono"])
})

it("compiles with the app's own tsc --strict against our packages", () => {
  expect(compiled).toBe("")
})

it("answers verifyAuth's 401 to a signed-out visitor, and signs in through the local identity provider", async () => {
  const browser = new TestBrowser()
  expect((await browser.request(`${app.url}/api/protected`)).status).toBe(401)
  const signInPage = await browser.navigate(`${app.url}/api/auth/signin`)
  const login = await browser.submitForm(signInPage, { formIndex: parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/api/auth/signin/sso")) })
  const back = await browser.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
  expect(back.body).toContain('<p id="status">Signed in as alice@example.com</p>')
  expect(await (await browser.request(`${app.url}/api/protected`)).json()).toMatchObject({ session: { user: { email: "alice@example.com" } } })
})

it("signs in with Credentials on the sign-in page", async () => {
  const browser = new TestBrowser()
  const signInPage = await browser.navigate(`${app.url}/api/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/api/auth/callback/credentials"))
  const signedIn = await browser.submitForm(signInPage, { formIndex, values: { email: "erin@example.com", password: "erin-password" } })
  expect(signedIn.body).toContain('<p id="status">Signed in as erin@example.com</p>')
})

it("keeps a visitor signed in by @hono/auth-js signed in: its authjs.session-token is read in the window the codemod opened", async () => {
  const name = "authjs.session-token"
  const token = await encode({ token: { name: "Frank", email: "frank@example.com", sub: "8" }, secret: SECRET, salt: name })
  expect(await (await fetch(`${app.url}/`, { headers: { cookie: `${name}=${token}` } })).text()).toContain('<p id="status">Signed in as frank@example.com</p>')
  expect(app.server.output()).not.toMatch(/\berror\b/i)
})
