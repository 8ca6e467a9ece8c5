/**
 * An Astro app written in auth-astro's documented shape (test/fixtures/astro-app: the `auth()`
 * integration in `astro.config.mjs`, `auth.config.ts` with `defineConfig` and providers from
 * `@auth/core`, `getSession` from `auth-astro/server` and the `SignIn` / `SignOut` / `Auth`
 * components in `.astro` frontmatter, `auth-astro/client` in a page's `<script>`), migrated by the
 * built bin, installed with a plain `npm install` of our packed tarballs, built with `astro build`
 * (telemetry off, nothing fetched), served by `@astrojs/node` and signed in, in Chromium, with its
 * OpenID Connect provider through the dev IdP and with Credentials from the page's script.
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { DevIdp } from "@portcullis/dev-idp"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { freePort } from "@portcullis/test-kit/system"
import { scaled } from "@portcullis/test-time"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { dependenciesOf, installPacked, migratedCopy, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

/** As `openssl rand -base64 32` writes one: the app runs under NODE_ENV=production, where core refuses a weak secret. */
const SECRET = "kQ1s0bT6m2cC0n3y5rXh8wz7bJp4fLq9uV2eA6dN1gY="

let dir: string
let migration: BinRun
let app: StartedApp
let issuer: string
const cleanup: { scratch?: string; app?: StartedApp; idp?: DevIdp; browser?: Browser } = {}

beforeAll(async () => {
  const copy = await migratedCopy("astro-app")
  cleanup.scratch = copy.scratch
  dir = copy.dir
  migration = copy.migration
  const port = await freePort()
  const url = `http://127.0.0.1:${String(port)}`
  const [install, sso, browser] = await Promise.all([installPacked(copy.scratch, dir), startSsoIdp(dir, "auth.config.ts", url, "/api/auth/callback/sso"), launchChromium()])
  cleanup.idp = sso.idp
  cleanup.browser = browser
  issuer = sso.idp.issuer
  const started = performance.now()
  await runFile(process.execPath, [join(dir, "node_modules", "astro", "astro.js"), "build"], { cwd: dir, env: { ...process.env, NODE_ENV: "production", ASTRO_TELEMETRY_DISABLED: "1", ...sso.env } })
  console.info(`Astro example: npm install ${install.toFixed(1)} s, astro build ${((performance.now() - started) / 1000).toFixed(1)} s`)
  app = cleanup.app = await startApp(dir, {
    port,
    args: ["dist/server/entry.mjs"],
    env: { NODE_ENV: "production", HOST: "127.0.0.1", AUTH_URL: url, AUTH_SECRET: SECRET, ASTRO_TELEMETRY_DISABLED: "1", ...sso.env },
    readyPath: "/api/auth/providers",
  })
}, scaled(300_000))

afterAll(async () => {
  await cleanup.browser?.close()
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
})

it("migrates auth-astro's integration, config, server, client and components, in .astro frontmatter and script blocks", () => {
  expect(migration.stdout).toContain("Changed 5 file(s):\n  astro.config.mjs\n  auth.config.ts\n  package.json\n  src/pages/index.astro\n  src/pages/protected.astro\n")
  expect(migration.stdout).toContain("No manual step left.")
  expect(readFileSync(join(dir, "astro.config.mjs"), "utf8")).toContain('import auth from "@portcullis/astro"')
  expect(readFileSync(join(dir, "auth.config.ts"), "utf8")).toContain('import { defineConfig } from "@portcullis/astro"')
  const index = readFileSync(join(dir, "src/pages/index.astro"), "utf8")
  expect(index).toContain('import { getSession } from "@portcullis/astro/server"')
  expect(index).toContain('import { SignIn, SignOut } from "@portcullis/astro/components"')
  expect(index).toContain('await import("@portcullis/astro/client")')
  expect(Object.keys(dependenciesOf(dir)).filter((name) => name.startsWith("@portcullis/")).sort()).toEqual(["@portcullis/astro", "@portcullis/core", "@portcullis/providers"])
  expect(Object.keys(dependenciesOf(dir))).not.toContain("auth-astro")
})

it("signs in through the SignIn component with the OpenID Connect provider at the dev IdP, and out with SignOut, in Chromium", async () => {
  const page = await (await (cleanup.browser ?? expect.unreachable()).newContext()).newPage()
  await page.goto(`${app.url}/`)
  expect(await page.locator("#status").textContent()).toBe("Not signed in")
  await page.click("#sso")
  await page.waitForURL((at) => at.origin === issuer, { timeout: scaled(10_000) })
  await page.getByLabel("Email").fill("alice@example.com")
  await page.getByLabel("Password").fill("alice-password")
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.waitForURL(`${app.url}/`, { timeout: scaled(10_000) })
  await expect.poll(() => page.locator("#status").textContent(), { timeout: scaled(10_000) }).toBe("Signed in as alice@example.com")
  await page.click("#sign-out")
  await expect.poll(() => page.locator("#status").textContent(), { timeout: scaled(10_000) }).toBe("Not signed in")
})

it("signs in with Credentials from the page's script (auth-astro/client's signIn) and the Auth component renders the session", async () => {
  const page = await (await (cleanup.browser ?? expect.unreachable()).newContext()).newPage()
  await page.goto(`${app.url}/protected`)
  expect(await page.locator("#protected").textContent()).toBe("Access denied")
  await page.goto(`${app.url}/`)
  await page.locator("#credentials input[name=email]").fill("carol@example.com")
  await page.locator("#credentials input[name=password]").fill("carol-password")
  await page.getByRole("button", { name: "Sign in with email" }).click()
  await page.waitForURL(`${app.url}/protected`, { timeout: scaled(10_000) })
  expect(await page.locator("#protected").textContent()).toBe("Protected page of Carol")
  expect(app.server.output()).not.toMatch(/error/i)
})
