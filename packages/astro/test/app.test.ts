/**
 * The package as a user installs it: `pnpm pack` of core, providers, astro and adapter-memory, a
 * plain `npm install` with npm's defaults in a folder outside the workspace, a real `astro build`
 * of `test/fixtures/app` (server output on `@astrojs/node`, telemetry off, nothing fetched) and its
 * standalone server. One Chromium and one dev IdP for the file sign in with OIDC through the
 * `SignIn` component, an email link, a password and a passkey (a CDP virtual authenticator)
 * through `@portcullis/astro/client`, and sign out through `SignOut`; the page reads the session
 * with `Astro.locals.auth()` and `getSession(Astro.request)`. Astro's `security.checkOrigin` stays
 * at its default, on.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { DEFAULT_ACCOUNTS, startDevIdp } from "@portcullis/dev-idp"
import { crossSitePostStatus, signInWithEmailLinkAndPasskey, signInWithOidc, signInWithPassword, startPackedApp, type PackedApp } from "@portcullis/test-kit/packed-app"
import { scaled } from "@portcullis/test-time"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HERE = import.meta.dirname
const CLIENT = { id: "astro-app", secret: "astro-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")
/** What Astro answers a form post its origin check refuses. */
const REFUSED = "Cross-site POST form submissions are forbidden"

let app: PackedApp | undefined

beforeAll(async () => {
  const self = JSON.parse(await readFile(join(HERE, "..", "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  app = await startPackedApp({
    integration: "@portcullis/astro",
    files: join(HERE, "fixtures", "app"),
    server: join(HERE, "fixtures", "app", "server.mjs"),
    build: ["node_modules/astro/astro.js", "build"],
    buildEnv: { ASTRO_TELEMETRY_DISABLED: "1" },
    framework: Object.fromEntries(["astro", "@astrojs/node"].map((name) => [name, self.devDependencies[name] ?? ""])),
    client: CLIENT,
    startIdp: (redirectUri) => startDevIdp({ consent: "auto", clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [redirectUri] }] }),
    scaled,
  })
}, scaled(240_000))

afterAll(async () => {
  await app?.close()
}, scaled(30_000))

describe("an npm-installed, astro-built app in Chromium", () => {
  it("signs in with OIDC through the dev IdP from the SignIn component; Astro.locals.auth() and getSession(Astro.request) see the session; signs out from SignOut", async () => {
    const running = app ?? expect.unreachable()
    await signInWithOidc(running, ALICE, scaled)
    // The IdP remembers Alice: the second sign-in comes straight back.
    await running.click("oidc", `Signed in as ${ALICE.email}`)
    expect(await running.page.locator("#read").textContent()).toBe(ALICE.email)
    await running.click("signout", "Signed out")
  })

  it("signs in with an email link, adds a passkey, signs out and back in with the passkey", async () => {
    await signInWithEmailLinkAndPasskey(app ?? expect.unreachable(), scaled)
  })

  it("signs in with a password (credentials) and out; Astro's origin check still refuses a cross-site post to the app's page", async () => {
    const running = app ?? expect.unreachable()
    await signInWithPassword(running)
    expect(await crossSitePostStatus(running, "/")).toBe(403)
    expect(running.server.output()).not.toMatch(/error/i)
  })

  it("requireRecentAuth(context): the sign-in page when signed out, the session after a sign-in, the re-authentication page once it is older than maxAge, each back to the endpoint (OWASP ASVS V7.5.1)", async () => {
    const running = app ?? expect.unreachable()
    const recent = (path: string): Promise<unknown> => running.page.evaluate(async (url) => (await fetch(url)).json() as Promise<unknown>, path)
    const back = (path: string): string => encodeURIComponent(`${running.url}${path}`)
    expect(await recent("/recent")).toEqual({ ok: false, url: `${running.url}/api/auth/signin?callbackUrl=${back("/recent")}` })
    await running.click("password", "Signed in as ada@example.com")
    expect(await recent("/recent")).toMatchObject({ ok: true, session: { user: { email: "ada@example.com" } } })
    // Authentication times are whole seconds: a second later, maxAge 0 has passed.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect(await recent("/recent?maxAge=0")).toEqual({ ok: false, url: `${running.url}/api/auth/reauth?callbackUrl=${back("/recent?maxAge=0")}` })
    await running.click("signout", "Signed out")
  })

  it("with checkOrigin on, Astro refuses a provider's form_post callback and its back-channel logout before core sees them (403), as the README says", async () => {
    const running = app ?? expect.unreachable()
    const base = running.url.replace("localhost", "127.0.0.1")
    const form = { "content-type": "application/x-www-form-urlencoded" }
    const formPost = await fetch(`${base}/api/auth/callback/dev-idp`, { method: "POST", headers: { ...form, origin: "http://127.0.0.1:1" }, body: "code=x&state=y", redirect: "manual" })
    const logout = await fetch(`${base}/api/auth/backchannel-logout/dev-idp`, { method: "POST", headers: form, body: "logout_token=x", redirect: "manual" })
    expect([formPost.status, await formPost.text(), logout.status, await logout.text()]).toEqual([403, REFUSED, 403, REFUSED])
  })
})
