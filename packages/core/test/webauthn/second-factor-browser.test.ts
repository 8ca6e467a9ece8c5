/**
 * A passkey as the second factor in real Chromium, with a CDP virtual authenticator holding the
 * user's passkey: a password sign-in pends, the `/mfa` page (on a 390 px phone, dark, axe-clean,
 * its one script admitted by the policy) offers "Use a passkey", and the passkey completes the
 * sign-in at level 2. Under `mfa.required` with passkeys the only factor, a user who has none is
 * sent to `/mfa/setup` and creates one there, which completes the sign-in. `Auth()` serves over
 * real HTTP on localhost, a secure context for WebAuthn.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

import type { AxeResults } from "axe-core"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth } from "../../src/index.js"
import type { AuthConfig, SessionAssurance } from "../../src/types.js"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { scaled } from "@portcullis/test-time"
import { PASSWORD, SECRET, passwordProvider } from "../helpers.js"
import { b64url, cbor, fromB64url } from "./authenticator.js"
import { passkeyProvider } from "./harness.js"

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const USER = "user-ada"

const adapter = MemoryAdapter({ users: [{ id: USER, name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] })
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  adapter,
  logger: { error: () => undefined, warn: () => undefined },
  providers: [passwordProvider(), passkeyProvider({ formFields: {} }) as never],
  mfa: { factors: ["passkey"] },
}

/** Every user must have a second factor, and a passkey is the only kind: Ada has none yet. */
const newcomers = MemoryAdapter({ users: [{ id: USER, name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] })
const required: AuthConfig = { ...config, adapter: newcomers, mfa: { factors: ["passkey"], required: true } }

let served: ServedHandler
let browser: Browser
/** The configuration the server answers with: each test sets its own. */
let active = config

function handle(request: Request): Promise<Response> | Response {
  if (new URL(request.url).pathname === "/dashboard") return new Response("<!doctype html><title>Dashboard</title><h1>Dashboard</h1>", { headers: { "content-type": "text/html" } })
  return Auth(request, active)
}

beforeAll(async () => {
  served = await serveHandler(handle)
  browser = await launchChromium()
}, scaled(120_000))

afterAll(async () => {
  await browser.close()
  await served.close()
})

/** A passkey of Ada's: its private key for the virtual authenticator, its public key in the store. */
async function adaPasskey(rpId: string) {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])
  const jwk = await crypto.subtle.exportKey("jwk", keys.publicKey)
  const id = crypto.getRandomValues(new Uint8Array(16))
  const handle = crypto.getRandomValues(new Uint8Array(16))
  const publicKey = cbor(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, fromB64url(jwk.x ?? "")], [-3, fromB64url(jwk.y ?? "")]]))
  await adapter.createAuthenticator({ credentialID: b64url(id), userId: USER, providerAccountId: b64url(handle), credentialPublicKey: b64url(publicKey), counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false, transports: "internal" })
  const base64 = (bytes: Uint8Array | ArrayBuffer): string => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString("base64")
  return { credentialId: base64(id), isResidentCredential: true, rpId, privateKey: base64(await crypto.subtle.exportKey("pkcs8", keys.privateKey)), userHandle: base64(handle), signCount: 0 }
}

/** A phone-sized dark page with axe loaded, a CDP virtual authenticator, and the policy refusals it logs. */
async function phone() {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" })
  await context.addInitScript(AXE_SOURCE)
  const page = await context.newPage()
  const violations: string[] = []
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
  })
  const cdp = await enableVirtualAuthenticators(page)
  return { context, page, violations, cdp, authenticatorId: await addVirtualAuthenticator(cdp) }
}

/** Signs Ada in with her password (going to the dashboard after), waiting until the browser lands on `pending` (a path). */
async function signInWithPassword(page: Page, pending: string): Promise<void> {
  await page.goto(`${served.origin}/api/auth/signin?callbackUrl=%2Fdashboard`)
  await page.fill("input[name=username]", "ada")
  await page.fill("input[name=password]", PASSWORD)
  await Promise.all([page.waitForURL(`${served.origin}${pending}`), page.click("form[action$='/callback/credentials'] button[type=submit]")])
}

async function axeViolations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const results = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, { resultTypes: ["violations"] })
    return results.violations.map((violation) => `${violation.id}: ${violation.help}`)
  })
}

/**
 * Checks the page fits the phone with no axe violation, presses its button `name` and answers the
 * assurance of the session it leads to, once on the dashboard.
 */
async function pressOnPhone(page: Page, name: string): Promise<SessionAssurance | undefined> {
  const button = page.getByRole("button", { name })
  expect(await button.isVisible()).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  expect(await axeViolations(page)).toEqual([])
  await Promise.all([page.waitForURL(`${served.origin}/dashboard`), button.click()])
  return page.evaluate(async () => ((await (await fetch("/api/auth/session")).json()) as { assurance?: SessionAssurance } | null)?.assurance)
}

describe("a passkey as the second factor in Chromium", () => {
  it("V6.3.3: a password sign-in pends; on the /mfa page (390 px, dark, axe-clean) the passkey completes it at level 2 with hwk and mfa", async () => {
    active = config
    const { context, page, violations, cdp, authenticatorId } = await phone()
    await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: await adaPasskey(new URL(served.origin).hostname) })

    await signInWithPassword(page, "/api/auth/mfa")

    expect(await pressOnPhone(page, "Use a passkey")).toMatchObject({ level: 2, methods: ["pwd", "hwk", "mfa"] })
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
    expect(credentials[0]?.signCount).toBe(1)
    expect(violations).toEqual([])
    await context.close()
  }, scaled(60_000))

  it("V6.3.3 / WebAuthn §7.1: under required with passkeys only, a user with none is sent to /mfa/setup (390 px, dark, axe-clean), creates one there and is signed in at level 2", async () => {
    active = required
    const { context, page, violations, cdp, authenticatorId } = await phone()

    await signInWithPassword(page, "/api/auth/mfa/setup")

    expect(await page.getByRole("button", { name: "Set up an authenticator app" }).count()).toBe(0)
    expect(await pressOnPhone(page, "Create a passkey")).toMatchObject({ level: 2, methods: ["pwd", "hwk", "mfa"] })
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect((await newcomers.listAuthenticatorsByUserId(USER)).map((passkey) => passkey.credentialID)).toEqual(credentials.map((credential) => Buffer.from(credential.credentialId, "base64").toString("base64url")))
    expect(violations).toEqual([])
    await context.close()
  }, scaled(60_000))
})
