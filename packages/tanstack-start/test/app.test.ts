/**
 * The package as a user installs it: `pnpm pack` of core, providers, tanstack-start and
 * adapter-memory, a plain `npm install` with npm's defaults in a folder outside the workspace, a
 * real `vite build` of `test/fixtures/app` (nothing fetched) and the built Nitro server on Node.js.
 * One build, one Chromium and one dev IdP for the file sign in with OIDC and a password through
 * forms posted to server functions, with an email link and a passkey (a CDP virtual authenticator)
 * through `@portcullis/core/client`, and sign out; the server-rendered page and a client
 * navigation both see the session, and the request middleware hands it to a server route.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { DEFAULT_ACCOUNTS, startDevIdp } from "@portcullis/dev-idp"
import { crossSitePostStatus, signInWithEmailLinkAndPasskey, signInWithOidc, signInWithPassword, startPackedApp, type PackedApp } from "@portcullis/test-kit/packed-app"
import { scaled } from "@portcullis/test-time"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HERE = import.meta.dirname
const CLIENT = { id: "tanstack-start-app", secret: "tanstack-start-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")
const FRAMEWORK = ["@tanstack/react-start", "@tanstack/react-router", "@vitejs/plugin-react", "react", "react-dom", "vite"]

let app: PackedApp | undefined

beforeAll(async () => {
  const self = JSON.parse(await readFile(join(HERE, "..", "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  app = await startPackedApp({
    integration: "@portcullis/tanstack-start",
    server: join(HERE, "fixtures", "app", "server.mjs"),
    files: join(HERE, "fixtures", "app"),
    build: [join("node_modules", "vite", "bin", "vite.js"), "build"],
    framework: Object.fromEntries(FRAMEWORK.map((name) => [name, self.devDependencies[name] ?? ""])),
    client: CLIENT,
    startIdp: (redirectUri) => startDevIdp({ consent: "auto", clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [redirectUri] }] }),
    scaled,
  })
}, scaled(300_000))

afterAll(async () => {
  await app?.close()
}, scaled(30_000))

/** What /profile's loader (`auth()` through a server function) saw: server-rendered, then after a client navigation from the home page. */
async function profiles(running: PackedApp): Promise<[string | null, string | null]> {
  const { page, url } = running
  await page.goto(`${url}/profile`)
  const rendered = await page.locator("#profile-status").textContent()
  await page.click("#home")
  await page.waitForSelector("main[data-hydrated=yes]")
  await page.click("#profile")
  await page.waitForURL(`${url}/profile`)
  return [rendered, await page.locator("#profile-status").textContent()]
}

/** What the server route behind `authMiddleware` found in its context. */
async function me(running: PackedApp): Promise<unknown> {
  return running.page.evaluate(async () => (await fetch("/api/me")).json() as Promise<unknown>)
}

describe("an npm-installed, vite-built TanStack Start app in Chromium", () => {
  it("signs in with OIDC through the dev IdP from a form posted to a server function and out", async () => {
    await signInWithOidc(app ?? expect.unreachable(), ALICE, scaled)
  })

  it("signs in with a password from a server function; SSR, a client navigation and the request middleware see the session; signs out", async () => {
    const running = app ?? expect.unreachable()
    await running.click("password", "Signed in as ada@example.com")
    expect(await profiles(running)).toEqual(["Profile of ada@example.com", "Profile of ada@example.com"])
    expect(await me(running)).toEqual({ email: "ada@example.com" })
    await running.click("signout", "Signed out")
    expect(await profiles(running)).toEqual(["No profile: signed out", "No profile: signed out"])
    expect(await me(running)).toEqual({ email: null })
    await signInWithPassword(running)
  })

  it("signs in with an email link, adds a passkey, signs out and back in with the passkey; a cross-site post to the sign-in server function is refused", async () => {
    const running = app ?? expect.unreachable()
    await signInWithEmailLinkAndPasskey(running, scaled)
    // Start checks no origin on server functions: the package refuses the post itself.
    await running.page.goto(`${running.url}/`)
    const action = (await running.page.locator("form").first().getAttribute("action")) ?? expect.unreachable("no form on the page")
    expect(await crossSitePostStatus(running, action)).toBe(403)
    expect(running.server.output()).not.toMatch(/\berror\b/i)
  })
})
