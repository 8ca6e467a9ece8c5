/**
 * Passkey sign-up confirmed by email, in real Chromium with a CDP virtual authenticator: create a
 * passkey on the default page, land on "check your email", follow the mailed link in the same
 * browser, press its button, and be signed in; the passkey then signs in by autofill. The
 * confirmation page passes axe-core on a phone in light and dark. `Auth()` runs over real HTTP
 * on localhost (`@portcullis/test-kit/serve`, a secure context for WebAuthn).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

import type { AxeResults } from "axe-core"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { SECRET } from "../helpers.js"
import { passkeyProvider } from "./harness.js"
import { recordSignals, signalsSent } from "./signals.js"
import { scaled } from "@portcullis/test-time"

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

const adapter = MemoryAdapter()
/** The sign-up links sent, by address. */
const mails = new Map<string, string>()
const mailer = {
  id: "email",
  name: "Email",
  type: "email",
  from: "no-reply@example.com",
  sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => void mails.set(identifier, url),
}
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  adapter,
  logger: { error: () => undefined, warn: () => undefined },
  providers: [passkeyProvider() as never, mailer as never],
}

let served: ServedHandler
let origin = ""
let browser: Browser

/** `Auth()` for every path but `/account`, a plain app page from which the session is read. */
function handle(request: Request): Promise<Response> | Response {
  if (new URL(request.url).pathname === "/account") return new Response("<!doctype html><title>Account</title>", { headers: { "content-type": "text/html" } })
  return Auth(request, config)
}

beforeAll(async () => {
  served = await serveHandler(handle)
  origin = served.origin
  browser = await launchChromium()
}, scaled(120_000))

afterAll(async () => {
  await browser.close()
  await served.close()
})

async function sessionEmail(page: Page): Promise<string | null> {
  await page.goto(`${origin}/account`)
  return page.evaluate(async () => ((await (await fetch("/api/auth/session")).json()) as { user?: { email?: string } } | null)?.user?.email ?? null)
}

/** A page in `context` with a CDP virtual authenticator that has a platform passkey store and always verifies the user. */
async function withAuthenticator(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await context.newPage()
  const cdp = await enableVirtualAuthenticators(page)
  return { page, cdp, authenticatorId: await addVirtualAuthenticator(cdp) }
}

/** Creates a passkey for `email` on the default sign-in page and opens the mailed sign-up link in the same page. */
async function signUpUntilLink(page: Page, email: string): Promise<void> {
  await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
  // The email provider's form has an email field too: fill the passkey's.
  await page.fill("input[data-passkey-email]", email)
  await Promise.all([page.waitForURL((url) => url.pathname === "/api/auth/verify-request"), page.click('[data-passkey-action="register"]')])
  expect(await sessionEmail(page)).toBeNull()
  expect(await adapter.getUserByEmail(email)).toBeNull()
  await page.goto(mails.get(email) ?? expect.unreachable(`no sign-up link was mailed to ${email}`))
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Create your account")
}

/** A new browser context whose authenticator created a passkey for `email` on the default sign-in page: it waits on "check your email". */
async function createdPasskey(email: string): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext()
  const { page, cdp, authenticatorId } = await withAuthenticator(context)
  await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
  await page.fill("input[data-passkey-email]", email)
  await Promise.all([page.waitForURL((url) => url.pathname === "/api/auth/verify-request"), page.click('[data-passkey-action="register"]')])
  return { context, page, cdp, authenticatorId }
}

describe("passkey sign-up with an email provider, in Chromium", () => {
  it("creates the passkey, mails a link, and signs in once the link is followed in the same browser", async () => {
    const context = await browser.newContext()
    const { page, cdp, authenticatorId } = await withAuthenticator(context)

    await signUpUntilLink(page, "ada@example.com")
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    expect(await page.locator("main").textContent()).toContain("You are creating an account for ada@example.com.")
    await Promise.all([page.waitForURL(`${origin}/account`), page.getByRole("button", { name: "Create account" }).click()])
    expect(await sessionEmail(page)).toBe("ada@example.com")
    expect((await adapter.getUserByEmail("ada@example.com"))?.emailVerified).toBeInstanceOf(Date)

    // Signed out, the passkey signs in: the page's autofill request is answered by the authenticator.
    await page.goto(`${origin}/api/auth/signout`)
    await Promise.all([page.waitForURL((url) => !url.pathname.endsWith("/signout")), page.click("button[type=submit]")])
    expect(await sessionEmail(page)).toBeNull()
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.waitForURL(`${origin}/account`, { timeout: scaled(15_000) })
    expect(await sessionEmail(page)).toBe("ada@example.com")
    await context.close()
  }, scaled(60_000))

  it("creates a passkey even when the page's autofill options arrive after the person pressed Create a passkey (the autofill gives way)", async () => {
    const context = await browser.newContext()
    const { page, cdp, authenticatorId } = await withAuthenticator(context)
    // The autofill's options answer late, as on a slow network, and the new passkey's registration
    // is held at the server meanwhile: an autofill started now would sign in with the passkey just
    // made, which the server does not store until the emailed link is followed.
    const held = (): { promise: Promise<void>; release: () => void } => {
      let release = (): void => undefined
      const promise = new Promise<void>((resolve) => (release = resolve))
      return { promise, release }
    }
    const autofill = held()
    const registration = held()
    await page.route("**/api/auth/webauthn-options/passkey?action=authenticate*", async (route) => {
      await autofill.promise
      await route.continue()
    })
    await page.route("**/api/auth/callback/passkey", async (route) => {
      if (route.request().postData()?.includes("action=register") === true) await registration.promise
      await route.continue()
    })
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.fill("input[data-passkey-email]", "hedy@example.com")
    await page.click('[data-passkey-action="register"]')
    await expect.poll(async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length).toBe(1)
    autofill.release()
    // Time for an autofill to answer with the new passkey, were it started.
    await page.waitForTimeout(scaled(1_000))
    registration.release()
    await page.waitForURL((url) => url.pathname === "/api/auth/verify-request")
    // The password manager keeps the passkey, and the mailed link still creates the account.
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    expect(mails.get("hedy@example.com")).toBeDefined()
    await context.close()
  }, scaled(60_000))

  it("adds the passkey to the account an address already has once its mailed link is followed, and the passkey then signs in by autofill", async () => {
    const owner = await adapter.createUser({ id: crypto.randomUUID(), email: "lin@example.com", emailVerified: new Date() })
    const { context, page, cdp, authenticatorId } = await createdPasskey("lin@example.com")
    await page.goto(mails.get("lin@example.com") ?? expect.unreachable("no link was mailed to lin@example.com"))
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Add your passkey")
    expect(await page.locator("main").textContent()).toContain("The passkey you just created will be added to the account of lin@example.com")
    await Promise.all([page.waitForURL(`${origin}/account`), page.getByRole("button", { name: "Sign in and add the passkey" }).click()])
    expect(await sessionEmail(page)).toBe("lin@example.com")
    expect(await adapter.listAuthenticatorsByUserId(owner.id)).toHaveLength(1)

    await page.goto(`${origin}/api/auth/signout`)
    await Promise.all([page.waitForURL((url) => !url.pathname.endsWith("/signout")), page.click("button[type=submit]")])
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.waitForURL(`${origin}/account`, { timeout: scaled(15_000) })
    expect(await sessionEmail(page)).toBe("lin@example.com")
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    await context.close()
  }, scaled(60_000))

  it("has the browser forget a passkey the server does not know (Signal API) and shows one message, not two error boxes", async () => {
    // A passkey only the authenticator holds: made for a sign-up whose link was never followed.
    const { context, page, cdp, authenticatorId } = await createdPasskey("orphan@example.com")
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    await context.clearCookies()

    // The autofill offers it; the server refuses it, and the browser is told to forget it.
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await expect.poll(async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length, { timeout: scaled(15_000) }).toBe(0)
    await page.waitForURL((url) => url.searchParams.get("code") === "unknown_credential")
    await page.waitForLoadState("load")
    const alerts = () => page.locator('[role="alert"]:visible').allTextContents()
    expect(await alerts()).toEqual([expect.stringContaining("This passkey is not registered here, so your browser was asked to stop offering it.")])
    // The person tries the button once more: nothing left to offer, so the ceremony ends cancelled,
    // and that message replaces the first instead of joining it.
    await page.click('[data-passkey-action="authenticate"]')
    await expect.poll(alerts, { timeout: scaled(15_000) }).toEqual([expect.stringContaining("The passkey request was cancelled or timed out.")])
    expect(await sessionEmail(page)).toBeNull()
    await context.close()
  }, scaled(60_000))

  it("keeps a passkey waiting for its link when the page offers it before the link is followed, says to open the link, and the link still finishes it", async () => {
    const { context, page, cdp, authenticatorId } = await createdPasskey("waits@example.com")
    await recordSignals(context)

    // Back on the sign-in page before opening the mail: the autofill offers the new passkey.
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.waitForURL((url) => url.searchParams.get("code") === "waiting_credential")
    await page.waitForLoadState("load")
    expect(await page.locator('[role="alert"]:visible').allTextContents()).toEqual([expect.stringContaining("This passkey is not set up yet: open the link we emailed you")])
    // A signal would have been sent before the page changed, so it would be listed by now.
    expect(await signalsSent(page)).toEqual([])
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)

    await page.goto(mails.get("waits@example.com") ?? expect.unreachable("no sign-up link was mailed to waits@example.com"))
    await Promise.all([page.waitForURL(`${origin}/account`), page.getByRole("button", { name: "Create account" }).click()])
    expect(await sessionEmail(page)).toBe("waits@example.com")
    await context.close()
  }, scaled(60_000))

  it("shows the sign-up page on a 390 px phone in light and dark, with no horizontal scrolling and no axe-core violation", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    // An init script runs outside the page's Content-Security-Policy, which allows no script.
    await context.addInitScript(AXE_SOURCE)
    const { page } = await withAuthenticator(context)
    await signUpUntilLink(page, "grace@example.com")
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme })
      const seen = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe
        const { violations } = await axe.run(document, { resultTypes: ["violations"] })
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          background: getComputedStyle(document.body).backgroundColor,
          violations: violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
        }
      })
      expect(seen.overflow, colorScheme).toBeLessThanOrEqual(0)
      // The page follows the scheme: a near-white or a near-black background.
      expect(seen.background, colorScheme).toBe(colorScheme === "light" ? "rgb(243, 244, 246)" : "rgb(13, 17, 23)")
      expect(seen.violations, colorScheme).toEqual([])
    }
    expect(await adapter.getUserByEmail("grace@example.com")).toBeNull()
    await context.close()
  }, scaled(60_000))
})
