/**
 * The Next.js app laid out as next-auth v5's example (test/fixtures/next-app), taken through what a
 * user does: the built codemod, a plain `npm install` of our packed packages next to Next 16 and the
 * React the app pins, `next build`, `next start`, with its generic OpenID Connect provider pointed
 * at the local identity provider (@portcullis/dev-idp). Shared by next-app.test.ts (React 19) and
 * next-app-react18.test.ts (React 18.2).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { DevIdp } from "@portcullis/dev-idp"
import { TestBrowser, parseForms, type Page } from "@portcullis/test-kit/browser"
import { freePort } from "@portcullis/test-kit/system"
import { scaled } from "@portcullis/test-time"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { afterAll, beforeAll, expect } from "vitest"
import { copyFixtureOutside, installPacked, runBin, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

/** As `openssl rand -base64 32` writes one: the app runs under NODE_ENV=production, where core refuses a weak secret. */
const SECRET = "I6woDCwU/W908LdjPsUyhpTgirkjPVDkEU+Gtm/56nU="

/** The React an example app is installed with: the fixture's own (19), or next-auth's example's 18.2. */
export type ReactLine = "19" | "18.2"

/** A migrated, installed, built and started example app. */
export interface NextExample {
  dir: string
  migration: BinRun
  app: StartedApp
  issuer: string
  seconds: { install: number; build: number }
}

/** What {@link startNextExample} started, for afterAll; filled in as each part starts. */
interface NextExampleCleanup {
  scratch?: string
  app?: StartedApp
  idp?: DevIdp
}

/** Pins React 18.2 and its types, as next-auth's Next.js example does, in the app's package.json. */
function pinReact18(dir: string): void {
  const file = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> }
  manifest.dependencies.react = "18.2.0"
  manifest.dependencies["react-dom"] = "18.2.0"
  manifest.devDependencies["@types/react"] = "^18.2.23"
  manifest.devDependencies["@types/react-dom"] = "^18.2.8"
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

/** The app's own tsc, as `npx tsc` runs it: resolves with what it printed, empty when clean. */
export function typeCheck(dir: string): Promise<string> {
  return runFile(process.execPath, [join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir], { encoding: "utf8" }).then(
    () => "",
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  )
}

/**
 * Copies the example, pins `react`, migrates it, installs it with npm, builds it and starts it.
 *
 * @throws Error with the failing step's output (npm's ERESOLVE, next build's errors, the server's log).
 */
async function startNextExample(react: ReactLine, cleanup: NextExampleCleanup): Promise<NextExample> {
  const { scratch, dir } = copyFixtureOutside("next-app")
  cleanup.scratch = scratch
  if (react === "18.2") pinReact18(dir)
  const migration = await runBin([dir])
  if (migration.code !== 0) throw new Error(`the codemod exited with ${String(migration.code)}:\n${migration.stdout}\n${migration.stderr}`)
  const port = await freePort()
  const url = `http://127.0.0.1:${String(port)}`
  const [install, sso] = await Promise.all([installPacked(scratch, dir), startSsoIdp(dir, "auth.ts", url, "/auth/callback/sso")])
  cleanup.idp = sso.idp
  const next = join(dir, "node_modules", "next", "dist", "bin", "next")
  const started = performance.now()
  await runFile(process.execPath, [next, "build"], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" } })
  const build = (performance.now() - started) / 1000
  console.info(`React ${react} example: npm install ${install.toFixed(1)} s, next build ${build.toFixed(1)} s`)
  const app = (cleanup.app = await startApp(dir, {
    port,
    args: [next, "start", "-p", String(port), "-H", "127.0.0.1"],
    env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", AUTH_URL: `${url}/auth`, AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", ...sso.env },
    readyPath: "/auth/providers",
  }))
  return { dir, migration, app, issuer: sso.idp.issuer, seconds: { install, build } }
}

/** Stops what {@link startNextExample} started and removes the app's folder. */
async function stopNextExample(cleanup: NextExampleCleanup): Promise<void> {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
}

/** Signs `browser` in as Dana with the home page's Credentials form (a server action); returns the page it lands on. */
export async function signInWithCredentials(example: NextExample, browser: TestBrowser): Promise<Page> {
  const home = await browser.navigate(`${example.app.url}/`)
  const formIndex = parseForms(home.body).findIndex((form) => form.id === "credentials")
  return browser.submitForm(home, { formIndex, values: { email: "dana@example.com", password: "dana-password" } })
}

/**
 * Signs a new visitor in as Alice with the "sso" provider from the sign-in page, through the
 * local identity provider; returns the IdP's login page and the page the app sent back to.
 */
export async function signInThroughIdp(example: NextExample): Promise<{ visitor: TestBrowser; login: Page; back: Page }> {
  const visitor = new TestBrowser()
  const signInPage = await visitor.navigate(`${example.app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/signin/sso"))
  const login = await visitor.submitForm(signInPage, { formIndex })
  const back = await visitor.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
  return { visitor, login, back }
}

/**
 * Starts the example on `react` before the test file's tests (beforeAll) and stops it after them;
 * the returned object is filled in when it has started.
 */
export function useNextExample(react: ReactLine): NextExample {
  // Filled in by beforeAll, before any test reads it.
  const example = {} as NextExample
  const cleanup: NextExampleCleanup = {}
  beforeAll(async () => {
    Object.assign(example, await startNextExample(react, cleanup))
  }, scaled(300_000))
  afterAll(() => stopNextExample(cleanup))
  return example
}

/**
 * In Chromium with `browser`'s cookies (Dana signed in): the client page's `useSession` under
 * `SessionProvider basePath="/auth"` shows her, and `update({ user: { name } })` renames her
 * through the jwt callback, which the server component then shows too.
 */
export async function checkClientExample(example: NextExample, browser: TestBrowser): Promise<void> {
  const chromium = await launchChromium()
  const { url } = example.app
  try {
    const context = await chromium.newContext()
    await context.addCookies(browser.cookies(url).map((cookie) => ({ name: cookie.name, value: cookie.value, url })))
    const page = await context.newPage()
    await page.goto(`${url}/client-example`)
    const status = () => page.locator("#client-status").textContent()
    await expect.poll(status, { timeout: scaled(15_000) }).toBe("Client sees dana@example.com as Dana")
    await page.locator('#client-example[data-hydrated="true"]').waitFor({ timeout: scaled(15_000) })
    await page.locator("#new-name").fill("Dana Renamed")
    await page.locator("#update").click()
    await expect.poll(status, { timeout: scaled(15_000) }).toBe("Client sees dana@example.com as Dana Renamed")
    await page.goto(`${url}/server-example`)
    expect(await page.locator("#session-data").textContent()).toContain('"name": "Dana Renamed"')
  } finally {
    await chromium.close()
  }
}
