/**
 * Passkeys in real Chromium, with a CDP virtual authenticator (CTAP2, platform, resident keys,
 * user verification): sign up on the default page, sign out, sign in with the button and with
 * autofill (on the default page and on the app's own page through the client), add a second
 * passkey, list and delete one; have the password manager forget (Signal API) a passkey the
 * server no longer knows. The server is `Auth()` over real HTTP on localhost (`@portcullis/test-kit/serve`),
 * a secure context for WebAuthn.
 */
import { join } from "node:path"

import { build } from "esbuild"
import type { Browser, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth } from "../../src/index.js"
import { FLOW } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { webauthn } from "../../src/webauthn/index.js"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { SECRET } from "../helpers.js"
import { recordSignals, signalsSent } from "./signals.js"
import { scaled } from "@portcullis/test-time"

const adapter = MemoryAdapter()
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  adapter,
  logger: { error: () => undefined, warn: () => undefined },
  providers: [{ id: "passkey", name: "Passkey", type: "webauthn", formFields: { email: { label: "Email", required: true } }, [FLOW]: webauthn } as never],
}

let served: ServedHandler
let origin = ""
let browser: Browser
let appScript = ""

const APP_PAGE = '<!doctype html><title>App</title><input id="email" autocomplete="username webauthn"><script src="/app.js"></script>'

function html(body: string): Response {
  return new Response(body, { headers: { "content-type": "text/html" } })
}

/** `Auth()`, and the app's own pages: one using the passkey client (`/app`, `/manage`) and a landing page. */
function handle(request: Request): Promise<Response> | Response {
  const path = new URL(request.url).pathname
  if (path === "/app.js") return new Response(appScript, { headers: { "content-type": "text/javascript" } })
  if (path === "/app" || path === "/manage") return html(APP_PAGE)
  if (path === "/account" || path === "/x") return html("<!doctype html><title>Account</title><h1>Account</h1>")
  return Auth(request, config)
}

beforeAll(async () => {
  const bundled = await build({ entryPoints: [join(import.meta.dirname, "app-page.ts")], bundle: true, format: "iife", write: false, logLevel: "silent" })
  appScript = bundled.outputFiles[0]?.text ?? ""
  served = await serveHandler(handle)
  origin = served.origin
  browser = await launchChromium()
}, scaled(120_000))

afterAll(async () => {
  await browser.close()
  await served.close()
})

async function withAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await enableVirtualAuthenticators(page)
  return { cdp, authenticatorId: await addVirtualAuthenticator(cdp) }
}

async function sessionEmail(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const session = (await (await fetch("/api/auth/session")).json()) as { user?: { email?: string } } | null
    return session?.user?.email ?? null
  })
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${origin}/api/auth/signout`)
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith("/signout")), page.click("button[type=submit]")])
  // Read the session from a page of the app: the auth pages' policy allows no fetch.
  await page.goto(`${origin}/account`)
  expect(await sessionEmail(page)).toBeNull()
}

describe("passkeys in Chromium with a virtual authenticator", () => {
  it("signs up, signs out, signs in with the button and with autofill, adds, lists and deletes passkeys", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const violations: string[] = []
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    const { cdp, authenticatorId } = await withAuthenticator(page)

    // Sign up from the default page, whose URL has a callbackUrl query.
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.fill("input[name=email]", "ada@example.com")
    await Promise.all([page.waitForURL(`${origin}/account`), page.click('[data-passkey-action="register"]')])
    expect(await sessionEmail(page)).toBe("ada@example.com")
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
    expect(credentials).toHaveLength(1)
    await signOut(page)

    // The button. The virtual authenticator answers autofill at once: the page's autofill
    // request is cut off here, so it is the button that signs in.
    let autofill = true
    await page.route("**/webauthn-options/**", (route) => {
      if (autofill) {
        autofill = false
        return route.abort()
      }
      return route.continue()
    })
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await expect.poll(() => autofill).toBe(false)
    await Promise.all([page.waitForURL(`${origin}/account`), page.click('[data-passkey-action="authenticate"]')])
    expect(await sessionEmail(page)).toBe("ada@example.com")
    await page.unroute("**/webauthn-options/**")
    await signOut(page)

    // Autofill on the default page: the conditional request is answered by the virtual authenticator.
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.waitForURL(`${origin}/account`, { timeout: scaled(15_000) })
    expect(await sessionEmail(page)).toBe("ada@example.com")
    await signOut(page)

    // signIn("passkey") of the main client, which loads the served passkey script on demand.
    await page.goto(`${origin}/manage`)
    await Promise.all([page.waitForURL(`${origin}/account`), page.evaluate(() => window.passkeys.signIn("passkey", { callbackUrl: "/account" }))])
    expect(await sessionEmail(page)).toBe("ada@example.com")
    await signOut(page)

    // Autofill on the app's own page, through the client.
    await page.goto(`${origin}/app`)
    await page.waitForURL(`${origin}/account`, { timeout: scaled(15_000) })
    expect(await sessionEmail(page)).toBe("ada@example.com")

    // A second passkey for the signed-in user, then list and delete.
    // A second device: the first already holds a passkey for this user and is excluded.
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId })
    const second = await addVirtualAuthenticator(cdp, "usb")
    await page.goto(`${origin}/manage`)
    const added = await page.evaluate(() => window.passkeys.register("passkey", { callbackUrl: "/account", redirect: false }))
    expect(added).toMatchObject({ ok: true, url: `${origin}/account` })
    const listed = await page.evaluate(() => window.passkeys.list())
    expect(listed).toHaveLength(2)
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId: second })).credentials).toHaveLength(1)
    await page.evaluate((id) => window.passkeys.remove(id), listed[1]?.id ?? "")
    expect((await page.evaluate(() => window.passkeys.list())).map((passkey) => passkey.id)).toEqual([listed[0]?.id])

    expect(violations).toEqual([])
    await context.close()
  }, scaled(90_000))

  it("tells the password manager to forget a passkey the server does not know, and only then", async () => {
    const context = await browser.newContext()
    const signals: unknown[] = []
    await context.exposeBinding("recordSignal", (_source, options: unknown) => signals.push(options))
    // Chromium's own signal would reach the virtual authenticator; record the call instead.
    await context.addInitScript(() => {
      const record = (window as unknown as { recordSignal: (options: unknown) => Promise<void> }).recordSignal
      Object.defineProperty(PublicKeyCredential, "signalUnknownCredential", { configurable: true, writable: true, value: (options: unknown) => record(options) })
    })
    const page = await context.newPage()
    await withAuthenticator(page)
    await page.goto(`${origin}/manage`)
    expect(await page.evaluate(() => window.passkeys.register("passkey", { email: "gone@example.com", redirect: false }))).toMatchObject({ ok: true })
    const user = await adapter.getUserByEmail("gone@example.com")
    const [stored] = await adapter.listAuthenticatorsByUserId(user?.id ?? "")
    if (stored === undefined) throw new Error("the sign-up stored no passkey")
    // Its only passkey is kept, and the password manager is told nothing.
    await expect(page.evaluate((id) => window.passkeys.remove(id), stored.credentialID)).rejects.toThrow(/HTTP 409.*last way to sign in/)
    await context.clearCookies()
    const signIn = () => page.evaluate(() => window.passkeys.signIn("passkey", { redirect: false }))

    // Another refusal (the stored passkey names another user handle): nothing to forget.
    await adapter.deleteAuthenticator(stored.credentialID)
    await adapter.createAuthenticator({ ...stored, providerAccountId: "another-user-handle" })
    const refused = new URL((await signIn())?.url ?? "")
    expect([refused.searchParams.get("error"), refused.searchParams.get("code")]).toEqual(["WebAuthnVerificationError", null])
    expect(signals).toEqual([])

    // The server no longer knows the passkey the browser still holds.
    await adapter.deleteAuthenticator(stored.credentialID)
    const unknown = new URL((await signIn())?.url ?? "")
    expect(unknown.searchParams.get("code")).toBe("unknown_credential")
    expect(signals).toEqual([{ rpId: "localhost", credentialId: stored.credentialID }])

    // A browser without the Signal API still gets the result.
    await page.evaluate(() => Reflect.deleteProperty(PublicKeyCredential, "signalUnknownCredential"))
    expect(new URL((await signIn())?.url ?? "").searchParams.get("code")).toBe("unknown_credential")
    expect(signals).toHaveLength(1)
    await context.close()
  }, scaled(60_000))

  it("attack: a callbackUrl carrying code=unknown_credential does not make the browser forget the passkey that just signed in", async () => {
    // No stand-in for the Signal API here: Chromium's own signal reaches the virtual authenticator.
    const context = await browser.newContext()
    await recordSignals(context)
    const page = await context.newPage()
    const { cdp, authenticatorId } = await withAuthenticator(page)
    const held = async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.map((credential) => credential.credentialId)
    await page.goto(`${origin}/manage`)
    expect(await page.evaluate(() => window.passkeys.register("passkey", { email: "kept@example.com", redirect: false }))).toMatchObject({ ok: true })
    const [credential] = await held()
    await signOut(page)

    // The link an attacker sends: the default page, then autofill signs in and goes to the crafted URL.
    const crafted = `${origin}/x?code=unknown_credential`
    await page.goto(`${origin}/api/auth/signin?callbackUrl=${encodeURIComponent("/x?code=unknown_credential")}`)
    await page.waitForURL(crafted, { timeout: scaled(15_000) })
    expect(await sessionEmail(page)).toBe("kept@example.com")
    // The client signals before it navigates: by now a signal would be listed.
    expect(await signalsSent(page)).toEqual([])
    expect(await held()).toEqual([credential])
    await signOut(page)
    // An app page whose signInWithPasskey() sends the browser to the crafted URL.
    await page.goto(`${origin}/manage`)
    const result = await page.evaluate(() => window.passkeys.signIn("passkey", { callbackUrl: "/x?code=unknown_credential", redirect: false }))
    expect(result).toMatchObject({ ok: true, url: crafted })
    expect(await signalsSent(page)).toEqual([])
    expect(await held()).toEqual([credential])

    // A credential the server really does not know is still forgotten.
    await adapter.deleteAuthenticator(Buffer.from(credential ?? "", "base64").toString("base64url"))
    await context.clearCookies()
    await page.goto(`${origin}/manage`)
    const refused = await page.evaluate(() => window.passkeys.signIn("passkey", { redirect: false }))
    expect(refused).toMatchObject({ ok: false, error: "WebAuthnVerificationError" })
    // The record sees the signal it must see, so its empty lists above mean none was sent.
    expect(await signalsSent(page)).toEqual([expect.stringMatching(/^signalUnknownCredential \S+$/)])
    await expect.poll(held, { timeout: scaled(5_000) }).toEqual([])
    await context.close()
  }, scaled(90_000))

  it("V7.5.1: re-authenticates with the re-authentication page's passkey button, keeping the same session with a new authTime", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const violations: string[] = []
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    await withAuthenticator(page)
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.fill("input[name=email]", "lin@example.com")
    await Promise.all([page.waitForURL(`${origin}/account`), page.click('[data-passkey-action="register"]')])
    const read = () => page.evaluate(async () => (await (await fetch("/api/auth/sessions")).json()) as { id: string }[])
    const assurance = () => page.evaluate(async () => ((await (await fetch("/api/auth/session")).json()) as { assurance: { authTime: number } }).assurance)
    const before = { sessions: await read(), assurance: await assurance() }
    // authTime counts seconds: one passes, so the re-authentication's is a new one.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await page.goto(`${origin}/api/auth/reauth?callbackUrl=%2Faccount`)
    await Promise.all([page.waitForURL(`${origin}/account`), page.click("form[data-reauth-passkey] button")])
    expect(await read()).toEqual(before.sessions.map((session) => ({ ...session, lastSeenAt: expect.any(String) as string })))
    expect((await assurance()).authTime).toBeGreaterThan(before.assurance.authTime)
    expect(violations).toEqual([])
    await context.close()
  }, scaled(60_000))

  it("says so on the page when the person cancels, and signs nobody in", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const { cdp, authenticatorId } = await withAuthenticator(page)
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false })
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.fill("input[name=email]", "grace@example.com")
    await page.click('[data-passkey-action="register"]')
    await expect.poll(() => page.locator("[data-passkey-error]").isVisible(), { timeout: scaled(15_000) }).toBe(true)
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin")
    expect(await sessionEmail(page)).toBeNull()
    await context.close()
  }, scaled(60_000))
})
