/**
 * A SvelteKit app on Svelte 5 laid out as @auth/sveltekit's example (test/fixtures/sveltekit-app:
 * `.svelte` components importing `@auth/sveltekit/components` and `@auth/sveltekit/client`, a
 * footer printing `@auth/sveltekit/package.json`'s version, `src/app.d.ts` referencing the
 * package's types), migrated by the built bin, installed with a plain `npm install` of our packed
 * tarballs, built with `vite build`, served by adapter-node and signed in, in Chromium, with Credentials through
 * the form action, with its OpenID Connect provider through the local identity provider
 * (@portcullis/dev-idp), and from the browser's own script.
 */
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { freePort } from "@portcullis/test-kit/system"
import type { Page as ChromiumPage } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { DevIdp } from "@portcullis/dev-idp"
import { scaled } from "@portcullis/test-time"
import { dependenciesOf, installPacked, migratedCopy, runFile, startApp, startSsoIdp, type BinRun, type StartedApp } from "./apps.js"

/** As `openssl rand -base64 32` writes one: the app runs under NODE_ENV=production, where core refuses a weak secret. */
const SECRET = "mWkXvVnu9wU05nq3nL/wWQzzRb2ItU31SqZ02onfSLs="

let dir: string
let migration: BinRun
let app: StartedApp
let issuer: string
const cleanup: { scratch?: string; app?: StartedApp; idp?: DevIdp } = {}

beforeAll(async () => {
  const copy = await migratedCopy("sveltekit-app")
  cleanup.scratch = copy.scratch
  dir = copy.dir
  migration = copy.migration
  const port = await freePort()
  const url = `http://127.0.0.1:${String(port)}`
  const [install, sso] = await Promise.all([installPacked(copy.scratch, dir), startSsoIdp(dir, "src/auth.ts", url, "/auth/callback/sso")])
  cleanup.idp = sso.idp
  issuer = sso.idp.issuer
  const started = performance.now()
  await runFile(process.execPath, [join(dir, "node_modules", "vite", "bin", "vite.js"), "build"], { cwd: dir, env: { ...process.env, NODE_ENV: "production" } })
  console.info(`SvelteKit example: npm install ${install.toFixed(1)} s, vite build ${((performance.now() - started) / 1000).toFixed(1)} s`)
  // What adapter-node's docs tell a deployment to set, and the providers' variables.
  app = cleanup.app = await startApp(dir, {
    port,
    args: ["build"],
    env: { NODE_ENV: "production", HOST: "127.0.0.1", ORIGIN: url, AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "github-client-id", AUTH_GITHUB_SECRET: "github-client-secret", ...sso.env },
    readyPath: "/auth/providers",
  })
}, scaled(300_000))

afterAll(async () => {
  await cleanup.app?.server.stop()
  await cleanup.idp?.close()
  if (cleanup.scratch !== undefined) rmSync(cleanup.scratch, { recursive: true, force: true })
})

it("migrates every place the app names @auth/sveltekit: .svelte script blocks, the package.json subpath, app.d.ts's reference", () => {
  expect(migration.stdout).toContain(
    "Changed 7 file(s):\n  package.json\n  src/app.d.ts\n  src/auth.ts\n  src/components/client-buttons.svelte\n  src/components/footer.svelte\n  src/components/header.svelte\n  src/routes/+page.svelte\n",
  )
  expect(migration.stdout).toContain("No manual step left.")
  expect(readFileSync(join(dir, "src/app.d.ts"), "utf8")).toBe('/// <reference types="@portcullis/sveltekit" />\n')
  expect(readFileSync(join(dir, "src/components/header.svelte"), "utf8")).toContain('import { SignIn, SignOut } from "@portcullis/sveltekit/components"')
  expect(readFileSync(join(dir, "src/components/client-buttons.svelte"), "utf8")).toContain('import { signIn, signOut } from "@portcullis/sveltekit/client"')
  expect(readFileSync(join(dir, "src/components/footer.svelte"), "utf8")).toContain('import packageJSON from "@portcullis/sveltekit/package.json"')
  expect(Object.keys(dependenciesOf(dir)).filter((name) => name.startsWith("@portcullis/")).sort()).toEqual(["@portcullis/core", "@portcullis/providers", "@portcullis/sveltekit"])
  expect(dependenciesOf(dir)["@auth/sveltekit"]).toBeUndefined()
})

it("builds with vite build on Svelte 5 after a plain npm install", () => {
  expect(existsSync(join(dir, "build", "index.js"))).toBe(true)
})

it("prints our package's version in the footer that read @auth/sveltekit/package.json", async () => {
  const version = (JSON.parse(readFileSync(join(dir, "node_modules/@portcullis/sveltekit/package.json"), "utf8")) as { version: string }).version
  expect(await (await fetch(`${app.url}/`)).text()).toContain(`id="auth-version">@auth/sveltekit@${version}<`)
})

it("denies the protected page before sign-in", async () => {
  expect(await (await fetch(`${app.url}/protected`)).text()).toContain('<p id="protected">Access denied</p>')
})

/** A fresh Chromium page for `run`, closed after it. */
async function inChromium(run: (page: ChromiumPage) => Promise<void>): Promise<void> {
  const chromium = await launchChromium()
  try {
    await run(await (await chromium.newContext()).newPage())
  } finally {
    await chromium.close()
  }
}

/** Fills the local identity provider's login form as Alice. */
async function loginAtIdp(page: ChromiumPage): Promise<void> {
  await page.waitForURL((at) => at.origin === issuer, { timeout: scaled(10_000) })
  await page.getByLabel("Email").fill("alice@example.com")
  await page.getByLabel("Password").fill("alice-password")
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
}

it("signs in with Credentials through the SignIn component's form action, in Chromium", () =>
  inChromium(async (page) => {
    await page.goto(`${app.url}/`)
    await page.locator("#credentials input[name=email]").fill("carol@example.com")
    await page.locator("#credentials input[name=password]").fill("carol-password")
    await page.getByRole("button", { name: "Sign in with email" }).click()
    await page.waitForURL(`${app.url}/protected`, { timeout: scaled(10_000) })
    await expect.poll(() => page.locator("#protected").textContent(), { timeout: scaled(10_000) }).toBe("Protected page of Carol")
    expect(await page.locator("#status").textContent()).toBe("Signed in as carol@example.com")
  }))

it("signs in with the OpenID Connect provider from the header's SignIn, through the sign-in page and the local identity provider, in Chromium", () =>
  inChromium(async (page) => {
    await page.goto(`${app.url}/`)
    await page.locator("header").getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL((at) => at.pathname === "/auth/signin", { timeout: scaled(10_000) })
    await page.getByRole("button", { name: "Sign in with Company SSO" }).click()
    await loginAtIdp(page)
    await page.waitForURL((at) => at.origin === app.url, { timeout: scaled(10_000) })
    await page.goto(`${app.url}/`)
    expect(await page.locator("#status").textContent()).toBe("Signed in as alice@example.com")
  }))

it("signs in and out from the browser's script with signIn and signOut of the migrated client import, in Chromium", () =>
  inChromium(async (page) => {
    await page.goto(`${app.url}/`)
    await page.locator('#client-buttons[data-hydrated="true"]').waitFor({ timeout: scaled(10_000) })
    await page.locator("#client-sign-in").click()
    await loginAtIdp(page)
    await page.waitForURL(`${app.url}/protected`, { timeout: scaled(10_000) })
    expect(await page.locator("#status").textContent()).toBe("Signed in as alice@example.com")
    await page.goto(`${app.url}/`)
    await page.locator('#client-buttons[data-hydrated="true"]').waitFor({ timeout: scaled(10_000) })
    await page.locator("#client-sign-out").click()
    await expect.poll(() => page.locator("#status").textContent(), { timeout: scaled(10_000) }).toBe("Not signed in")
  }))
