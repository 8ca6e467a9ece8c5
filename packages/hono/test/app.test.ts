/**
 * The package as a user installs it: `pnpm pack` of core, providers, hono and adapter-memory, a
 * plain `npm install` with npm's defaults in a folder outside the workspace, and
 * `test/fixtures/app/server.mjs` started on Node.js. One Chromium and one dev IdP for the file
 * sign in with OIDC, an email link, a password and a passkey (a CDP virtual authenticator), each
 * from the app's own page through `@portcullis/core/client`, and sign out; Hono's `csrf()` stays on.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { DEFAULT_ACCOUNTS, startDevIdp } from "@portcullis/dev-idp"
import { crossSitePostStatus, signInWithEmailLinkAndPasskey, signInWithOidc, signInWithPassword, startPackedApp, type PackedApp } from "@portcullis/test-kit/packed-app"
import { scaled } from "@portcullis/test-time"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const HERE = import.meta.dirname
const CLIENT = { id: "hono-app", secret: "hono-app-client-secret" }
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")

let app: PackedApp | undefined

beforeAll(async () => {
  const self = JSON.parse(await readFile(join(HERE, "..", "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  app = await startPackedApp({
    integration: "@portcullis/hono",
    server: join(HERE, "fixtures", "app", "server.mjs"),
    framework: Object.fromEntries(["hono", "@hono/node-server"].map((name) => [name, self.devDependencies[name] ?? ""])),
    client: CLIENT,
    startIdp: (redirectUri) => startDevIdp({ consent: "auto", clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [redirectUri] }] }),
    scaled,
  })
}, scaled(240_000))

afterAll(async () => {
  await app?.close()
}, scaled(30_000))

describe("an npm-installed Hono app in Chromium", () => {
  it("signs in with OIDC through the dev IdP and out", async () => {
    await signInWithOidc(app ?? expect.unreachable(), ALICE, scaled)
  })

  it("signs in with an email link, adds a passkey, signs out and back in with the passkey", async () => {
    await signInWithEmailLinkAndPasskey(app ?? expect.unreachable(), scaled)
  })

  it("signs in with a password (credentials) and out, and Hono's csrf() still refuses a cross-site post to the app", async () => {
    const running = app ?? expect.unreachable()
    await signInWithPassword(running)
    expect(await crossSitePostStatus(running, "/profile")).toBe(403)
    expect(running.server.output()).not.toMatch(/error/i)
  })
})
