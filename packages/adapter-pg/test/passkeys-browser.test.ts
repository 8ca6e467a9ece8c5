/**
 * Passkeys in real Chromium on PostgreSQL: `Passkey()` from `@portcullis/providers` with
 * `PostgresAdapter` and database sessions, over real HTTP on localhost (a secure context for
 * WebAuthn), driven through the built-in sign-in page with a CDP virtual authenticator (CTAP2,
 * platform, resident keys, user verification). No email provider is configured, so a passkey
 * sign-up creates the user at once. Every step is checked in the database as well as in the
 * browser.
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import type * as PasskeyClient from "@portcullis/core/webauthn/client"
import { addVirtualAuthenticator, enableVirtualAuthenticators, launchChromium } from "@portcullis/test-kit/chromium"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import Passkey from "@portcullis/providers/passkey"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { scaled } from "@portcullis/test-time"

const EMAIL = "ada@example.com"
const pool = useDatabase("passkeys_browser", migrate)

/** What `Auth()` logged, to tell why a sign-in was refused. */
const logged: { code?: string; message: string; cause?: unknown }[] = []
/** Every status this server answered with: none may be a 5xx. */
const statuses: number[] = []

let config: AuthConfig
let served: ServedHandler | undefined
let origin = ""
let browser: Browser | undefined
let context: BrowserContext
let page: Page
let cdp: CDPSession

// The app's own page: a place to read the session (the auth pages' policy allows no fetch), and
// the passkey functions from the script `Auth()` serves, as `signIn("passkey")` of the client loads them.
const ACCOUNT_PAGE = '<!doctype html><title>Account</title><h1>Account</h1><script src="/api/auth/webauthn-script/passkey"></script>'

/** `Auth()`, recording every status it answers, and the app's `/account` page. */
async function handle(request: Request): Promise<Response> {
  if (new URL(request.url).pathname === "/account") return new Response(ACCOUNT_PAGE, { headers: { "content-type": "text/html" } })
  try {
    const response = await Auth(request, config)
    statuses.push(response.status)
    return response
  } catch (error) {
    statuses.push(500)
    throw error
  }
}

beforeAll(async () => {
  config = {
    secret: "a-passkeys-browser-test-secret-of-32-characters",
    trustHost: true,
    adapter: PostgresAdapter(pool()),
    session: { strategy: "database" },
    logger: { error: (error) => logged.push(error), warn: () => undefined },
    providers: [Passkey({ formFields: { email: { label: "Email", required: true } } })],
  }
  served = await serveHandler(handle)
  // localhost, not 127.0.0.1: an IP address cannot be a WebAuthn relying party id.
  origin = served.origin
  browser = await launchChromium()
  context = await browser.newContext()
  page = await context.newPage()
  cdp = await enableVirtualAuthenticators(page)
  await addVirtualAuthenticator(cdp)
}, scaled(120_000))

afterAll(async () => {
  // Each step runs even when an earlier one throws; the pool and the database server are
  // closed by `useDatabase` and the run's global set-up.
  await browser?.close().catch(() => undefined)
  await served?.close()
}, scaled(30_000))

/**
 * The signed-in user's address, read with the browser's cookies but outside any page: a page the
 * test left (a refused sign-in's, whose passkey autofill may still be settling) can navigate
 * under a script evaluated in it.
 */
async function sessionEmail(): Promise<string | null> {
  const response = await page.context().request.get(`${origin}/api/auth/session`)
  const session = (await response.json()) as { user?: { email?: string } } | null
  return session?.user?.email ?? null
}

async function signOut(): Promise<void> {
  await page.goto(`${origin}/api/auth/signout`)
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith("/signout")), page.click("button[type=submit]")])
  expect(await sessionEmail()).toBeNull()
}

/** Signs in with the page's button. The page's autofill request is cut off first: the virtual
 * authenticator would answer it at once, and it is the button under test. */
async function clickSignIn(): Promise<void> {
  let autofill = true
  await page.route("**/webauthn-options/**", (route) => {
    if (!autofill) return route.continue()
    autofill = false
    return route.abort()
  })
  await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
  await expect.poll(() => autofill, { timeout: scaled(15_000) }).toBe(false)
  await page.click('[data-passkey-action="authenticate"]')
  await page.waitForURL((url) => url.pathname === "/account" || url.searchParams.has("error"), { timeout: scaled(20_000) })
  await page.unroute("**/webauthn-options/**")
}

/** The user's passkeys as PostgreSQL holds them. */
async function storedPasskeys(): Promise<{ credentialID: string; counter: string }[]> {
  const { rows } = await pool().query<{ credentialID: string; counter: string }>(
    `SELECT a."credentialID", a.counter FROM authenticators a JOIN users u ON u.id = a."userId" WHERE u.email = $1 ORDER BY a."createdAt"`,
    [EMAIL],
  )
  return rows
}

/** POSTs a delete to the management route from the account page, as the client does. */
async function deletePasskey(credentialId: string): Promise<{ status: number; body: { code?: string } }> {
  await page.goto(`${origin}/account`)
  return page.evaluate(async (id) => {
    const { csrfToken } = (await (await fetch("/api/auth/csrf")).json()) as { csrfToken: string }
    const response = await fetch("/api/auth/webauthn-credentials/passkey", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ action: "delete", credentialId: id, csrfToken }),
    })
    return { status: response.status, body: (await response.json()) as { code?: string } }
  }, credentialId)
}

describe("passkeys in Chromium on PostgreSQL", () => {
  it("signs up on the built-in page, signs out, signs in with the button, adds, lists and deletes a passkey", async () => {
    await page.goto(`${origin}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.fill("input[name=email]", EMAIL)
    await Promise.all([page.waitForURL(`${origin}/account`, { timeout: scaled(20_000) }), page.click('[data-passkey-action="register"]')])
    expect(await sessionEmail()).toBe(EMAIL)
    const { rows: users } = await pool().query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [EMAIL])
    expect(users).toHaveLength(1)
    const userId = users[0]?.id
    const { rows: accounts } = await pool().query(`SELECT type, provider FROM accounts WHERE "userId" = $1`, [userId])
    expect(accounts).toEqual([{ type: "webauthn", provider: "passkey" }])
    const { rows: sessions } = await pool().query(`SELECT 1 FROM sessions WHERE "userId" = $1`, [userId])
    expect(sessions).toHaveLength(1)
    const [first] = await storedPasskeys()
    expect(await storedPasskeys()).toHaveLength(1)

    await signOut()
    await clickSignIn()
    expect(new URL(page.url()).pathname).toBe("/account")
    expect(await sessionEmail()).toBe(EMAIL)

    // A second device: the first already holds a passkey for this user and is excluded.
    await addVirtualAuthenticator(cdp, "usb")
    await page.goto(`${origin}/account`)
    const added = await page.evaluate(() => {
      const client = (globalThis as unknown as Record<symbol, typeof PasskeyClient>)[Symbol.for("@portcullis/core/webauthn/client")]
      return client?.registerPasskey("passkey", { callbackUrl: "/account", redirect: false })
    })
    expect(added).toMatchObject({ ok: true, url: `${origin}/account` })
    const stored = await storedPasskeys()
    expect(stored).toHaveLength(2)

    const listed = await page.evaluate(async () => ((await (await fetch("/api/auth/webauthn-credentials/passkey")).json()) as { passkeys: { id: string }[] }).passkeys)
    expect(listed.map((passkey) => passkey.id).sort()).toEqual(stored.map((passkey) => passkey.credentialID).sort())

    expect((await deletePasskey(first?.credentialID ?? "")).status).toBe(200)
    expect((await storedPasskeys()).map((passkey) => passkey.credentialID)).toEqual([stored[1]?.credentialID])
    expect(statuses.filter((status) => status >= 500)).toEqual([])
  }, scaled(90_000))

  it("refuses to delete the last passkey (409) and keeps it in PostgreSQL", async () => {
    const [last] = await storedPasskeys()
    expect(last).toBeDefined()
    const refused = await deletePasskey(last?.credentialID ?? "")
    expect(refused).toMatchObject({ status: 409, body: { code: "last_sign_in_method" } })
    expect(await storedPasskeys()).toEqual([last])
  }, scaled(30_000))

  it("refuses a sign-in whose signature counter went backwards, with no session and no 5xx", async () => {
    await signOut()
    await pool().query(`UPDATE authenticators SET counter = 1000000`)
    logged.length = 0
    await clickSignIn()
    const url = new URL(page.url())
    expect([url.pathname, url.searchParams.get("error")]).toEqual(["/api/auth/signin", "WebAuthnVerificationError"])
    expect(logged.map((error) => [error.code, error.cause instanceof Error ? error.cause.message : ""])).toEqual([
      ["WebAuthnVerificationError", expect.stringMatching(/counter value \d+ was lower than expected 1000000/)],
    ])
    expect(await sessionEmail()).toBeNull()
    // The stored counter is not lowered to the cloned authenticator's.
    expect((await storedPasskeys()).map((passkey) => passkey.counter)).toEqual(["1000000"])
    expect(statuses.filter((status) => status >= 500)).toEqual([])
  }, scaled(60_000))
})
