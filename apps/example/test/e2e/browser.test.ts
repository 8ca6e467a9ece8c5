/**
 * The example in a real browser: the app and its Dev IdP on free loopback ports, Chromium
 * clicking through sign-in, consent and sign-out as a new user would, through the demo user's
 * password form and an email sign-in link, and through a passkey sign-up confirmed by email.
 */
import type { MailMessage } from "@portcullis/core"
import { DEFAULT_ACCOUNTS } from "@portcullis/dev-idp"
import { addVirtualAuthenticator, enableVirtualAuthenticators } from "@portcullis/test-kit/chromium"
import { totpCodeAt, totpStepAt } from "@portcullis/test-kit/totp"
import type { Browser, Page, Route } from "playwright-core"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { startExample, type RunningExample } from "../../src/app.js"
import type { SignInLink } from "../../src/email.js"
import { launchChromium, screenshot } from "./chromium.js"
import { scaled } from "@portcullis/test-time"

/** The Dev IdP account the tests sign in with: dev-idp's first default account, whose email is verified. */
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("@portcullis/dev-idp has no default account to sign in with")
const SECRET = "an-e2e-secret-for-the-example-app-32+"

// Launched by the first test that needs it, so that a missing Chromium fails every browser
// test with the install hint instead of leaving them reported as skipped.
let browser: Promise<Browser> | undefined

/** An example started for a test, with everything it logged. */
interface Started {
  example: RunningExample
  /** Errors `Auth()` or the pages reported: a passing flow reports none. */
  errors: string[]
  /** The sign-in links the app would have emailed, in order. */
  links: SignInLink[]
  /** Core's other mails the app would have sent (notices, address changes), in order. */
  mails: MailMessage[]
}

const started: Started[] = []

async function start(env: Record<string, string> = {}, idpAccessTokenTtl?: number): Promise<Started> {
  const errors: string[] = []
  const links: SignInLink[] = []
  const mails: MailMessage[] = []
  const example = await startExample({
    env: { AUTH_SECRET: SECRET, ...env },
    port: 0,
    idpPort: 0,
    ...(idpAccessTokenTtl === undefined ? {} : { idpAccessTokenTtl }),
    warn: () => undefined,
    authLogger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    onError: (error) => errors.push(String(error)),
    sendSignInLink: (link) => {
      links.push(link)
    },
    sendMail: (message) => {
      mails.push(message)
    },
  })
  const run = { example, errors, links, mails }
  started.push(run)
  return run
}

afterAll(async () => {
  await Promise.all(started.map(({ example }) => example.close()))
  await (await browser?.catch(() => undefined))?.close()
})

/**
 * Runs `body` in a fresh browser context (no cookies at the app or the IdP); on failure saves a
 * screenshot under test-results/ and names it in the error. Also fails on any script error or
 * Content-Security-Policy violation the page reports, but for the console errors the test
 * expects (`expected`: a refusal the page asked for, which Chromium logs as a failed load).
 */
function browserTest(name: string, body: (page: Page) => Promise<void>, expected: readonly RegExp[] = []): void {
  it(name, async () => {
    browser ??= launchChromium()
    const context = await (await browser).newContext()
    // Below the test's own timeout, so that a step that never happens fails here, with a screenshot.
    context.setDefaultTimeout(scaled(10_000))
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on("pageerror", (error) => pageErrors.push(error.message))
    page.on("console", (message) => {
      const source = message.location().url
      // The Dev IdP serves no icon; Chromium's request for one is not the example's failure.
      if (message.type() !== "error" || started.some(({ example }) => source === `${example.idp.issuer}/favicon.ico`)) return
      if (expected.some((pattern) => pattern.test(`${message.text()} (${source})`))) return
      pageErrors.push(`${message.text()} (${source})`)
    })
    try {
      await body(page)
      expect(pageErrors).toEqual([])
    } catch (error) {
      const path = await screenshot(page, name).catch((cause: unknown) => `none (${String(cause)})`)
      if (error instanceof Error) error.message += `\nScreenshot: ${path}`
      throw error
    } finally {
      await context.close()
    }
  })
}

/**
 * Logs in at the Dev IdP and allows the app on the consent page, which is always shown: the
 * IdP asks for consent by default and a fresh browser context holds no earlier grant. Ends back
 * at the app.
 */
async function logInAtIdp(page: Page, example: RunningExample): Promise<void> {
  await page.waitForURL((url) => url.origin === example.idp.issuer && url.pathname.startsWith("/interaction/"))
  await page.getByLabel("Email").fill(ALICE.email)
  await page.getByLabel("Password").fill(ALICE.password)
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.getByRole("button", { name: "Allow" }).click()
  const appOrigin = new URL(example.url).origin
  await page.waitForURL((url) => url.origin === appOrigin)
}

async function sessionCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies()
  return cookies.find((cookie) => cookie.name === "authjs.session-token")?.value
}

describe("the example with database sessions", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  browserTest("signs in through the protected page and the Dev IdP, then signs out", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/`)
    expect(await page.getByTestId("state").textContent()).toContain("Signed out")

    await page.getByRole("link", { name: "Protected", exact: true }).click()
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fprotected`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()

    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/protected`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Protected page")
    expect(await page.getByTestId("user-name").textContent()).toBe(ALICE.name)
    expect(await page.getByTestId("user-email").textContent()).toBe(ALICE.email)
    // The avatar comes from the IdP's origin: it must pass the page's policy and load.
    const avatarWidth = await page.locator("img.avatar").evaluate((image: HTMLImageElement) => image.naturalWidth)
    expect(avatarWidth).toBeGreaterThan(0)
    // A database session: the cookie is an opaque token, not a JWE.
    expect((await sessionCookie(page))?.split(".")).toHaveLength(1)

    await page.getByRole("link", { name: "Sign out" }).click()
    await page.waitForURL(`${example.url}/api/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${example.url}/`)
    expect(await page.getByTestId("state").textContent()).toContain("Signed out")
    expect(await sessionCookie(page)).toBeUndefined()

    await page.goto(`${example.url}/protected`)
    await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=%2Fprotected$/)
    expect(run.errors).toEqual([])
  })

  browserTest("signs in with the home page's own button (signIn(\"demo\") from @portcullis/core/client)", async (page) => {
    const { example } = run
    const clientPosts: string[] = []
    page.on("request", (request) => {
      if (request.method() === "POST" && request.headers()["x-auth-return-redirect"] === "1") clientPosts.push(new URL(request.url()).pathname)
    })
    await page.goto(`${example.url}/`)
    // Rendered disabled; clickable once /assets/client.js has run.
    await page.locator("button[data-sign-in=demo]:enabled").click()

    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/`)
    expect(clientPosts).toEqual(["/api/auth/signin/demo"])
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are signed in")
    expect(await page.getByTestId("user-name").textContent()).toBe(ALICE.name)
    expect(await page.getByTestId("state").textContent()).toContain("database session")
    expect(run.errors).toEqual([])
  })
})

describe("two-step sign-in", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  /** Signs in with the Dev IdP from a fresh browser (no cookies at the app or the IdP), starting at the settings page. */
  async function signInFresh(page: Page): Promise<void> {
    const { example } = run
    await page.context().clearCookies()
    await page.goto(`${example.url}/settings`)
    await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=%2Fsettings$/)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
  }

  browserTest("turns on an authenticator app from the settings page, then every Dev IdP sign-in asks for a code or a backup code (RFC 6238)", async (page) => {
    const { example } = run
    await signInFresh(page)
    await page.waitForURL(`${example.url}/settings`)
    expect(await page.getByTestId("two-step").textContent()).toContain("off")

    await page.getByRole("link", { name: "Turn on two-step sign-in" }).click()
    await page.getByRole("button", { name: "Set up an authenticator app" }).click()
    // Core's set-up page: the QR code drawn in the page, and the key to type in by hand.
    expect(await page.locator("svg.qr").count()).toBe(1)
    const secret = ((await page.locator(".secret").textContent()) ?? "").replace(/\s/g, "")
    const enrolledAt = totpStepAt()
    await page.getByLabel("Code from your authenticator app").fill(totpCodeAt(secret, enrolledAt))
    await page.getByRole("button", { name: "Turn on two-step sign-in" }).click()
    await page.getByRole("heading", { name: "Save your backup codes" }).waitFor()
    const backupCodes = await page.locator("ul.codes li").allTextContents()
    expect(backupCodes).toHaveLength(10)
    await page.getByRole("link", { name: "I have saved my codes" }).click()
    await page.waitForURL(`${example.url}/settings`)
    expect(await page.getByTestId("two-step").textContent()).toContain("on")

    // The Dev IdP alone no longer signs in: the sign-in waits on core's challenge, with no session yet.
    await signInFresh(page)
    await page.waitForURL((url) => url.pathname === "/api/auth/mfa")
    expect(await (await page.request.get(`${example.url}/api/auth/session`)).json()).toBeNull()
    // The step that confirmed is spent: the app's next code.
    await page.getByLabel("Code from your authenticator app").fill(totpCodeAt(secret, enrolledAt + 1))
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForURL(`${example.url}/settings`)
    expect(await page.getByTestId("signed-in-with").textContent()).toContain("an authenticator code")

    await signInFresh(page)
    await page.waitForURL((url) => url.pathname === "/api/auth/mfa")
    await page.getByText("Use a backup code instead").click()
    await page.getByLabel("Backup code").fill(backupCodes[0] ?? "")
    await page.getByRole("button", { name: "Use this backup code" }).click()
    await page.waitForURL(`${example.url}/settings`)
    expect(await page.getByTestId("signed-in-with").textContent()).toContain("a backup code")
    expect(await page.getByTestId("backup-codes-left").textContent()).toBe("9")
    expect(run.errors).toEqual([])
  })
})

describe("the provider token page", () => {
  let run: Started
  beforeAll(async () => {
    // Tokens that are due for a refresh 2 seconds after they are issued (core refreshes within 60 s of expiry).
    run = await start({}, 62)
  })

  browserTest("shows the Dev IdP token and a refreshed one once it is due", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/token`)
    await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=%2Ftoken$/)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/token`)
    const first = Number(await page.getByTestId("token-expires").getAttribute("data-expires-at"))
    expect(first).toBeGreaterThan(Date.now() / 1000)
    // Past the 2 seconds the token is fresh: the next load refreshes it at the IdP. The app and
    // the IdP run in this process, so its clock moves those seconds on instead of waiting them out.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true })
    try {
      vi.setSystemTime(Date.now() + 3_000)
      await page.reload()
      const second = Number(await page.getByTestId("token-expires").getAttribute("data-expires-at"))
      expect(second).toBeGreaterThan(first)
      expect(example.idp.refreshGrants).toBeGreaterThanOrEqual(1)
      expect(run.errors).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("the Dev IdP as a person uses it", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  browserTest("says the sign-in was cancelled when the person presses Cancel at the Dev IdP, and lets them try again", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/api/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await page.waitForURL((url) => url.origin === example.idp.issuer)
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.waitForURL((url) => url.pathname === "/api/auth/signin" && url.searchParams.get("error") === "AccessDenied")
    expect(await page.getByRole("status").textContent()).toContain("You cancelled the sign-in")
    expect(await page.locator("body").textContent()).not.toContain("permission")

    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/`)
    expect(await page.getByTestId("user-email").textContent()).toBe(ALICE.email)
    // The refusal at the IdP is logged as what it is; the second try logs nothing.
    expect(run.errors).toEqual([expect.stringMatching(/^AccessDenied: The user refused access/)])
    run.errors.length = 0
  })

  browserTest("ends the Dev IdP's session on sign-out, so the next sign-in asks which account to use", async (page) => {
    const { example } = run
    const bob = DEFAULT_ACCOUNTS[1] ?? expect.unreachable("@portcullis/dev-idp has no second default account")
    await page.goto(`${example.url}/api/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
    expect(await page.getByTestId("user-email").textContent()).toBe(ALICE.email)

    await page.goto(`${example.url}/api/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${example.url}/`)

    await page.goto(`${example.url}/api/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    // The sign-out ended Alice's session at the IdP too (endSessionOnSignOut): it asks again.
    await page.waitForURL((url) => url.origin === example.idp.issuer && url.pathname.startsWith("/interaction/"))
    await page.getByLabel("Email").fill(bob.email)
    await page.getByLabel("Password").fill(bob.password)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL(`${example.url}/`)
    expect(await page.getByTestId("user-email").textContent()).toBe(bob.email)
    expect(run.errors).toEqual([])
  })
})

describe("the example's own sign-in forms, with database sessions", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })
  // Each test checks exactly what it caused to be logged and sent.
  beforeEach(() => {
    run.errors.length = 0
    run.links.length = 0
  })

  browserTest("signs the demo user in with the password form, after showing the error for a wrong password", async (page) => {
    const { example } = run
    const { username, password } = example.demoUser
    await page.goto(`${example.url}/protected`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fprotected`)

    await page.getByLabel("Username").fill(username)
    await page.getByLabel("Password").fill(`${password}x`)
    await page.getByRole("button", { name: "Sign in with Demo user" }).click()
    await page.waitForURL(
      `${example.url}/api/auth/signin?error=CredentialsSignin&code=credentials&callbackUrl=${encodeURIComponent(`${example.url}/protected`)}`,
    )
    expect(await page.getByRole("alert").textContent()).toBe("Those details did not work. Check them and try again.")
    expect(await sessionCookie(page)).toBeUndefined()

    // The username is still there; only the password is typed again.
    expect(await page.getByLabel("Username").inputValue()).toBe(username)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in with Demo user" }).click()
    // The refusal kept where the user was going, so the second try lands there.
    await page.waitForURL(`${example.url}/protected`)
    await page.goto(`${example.url}/`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("You are signed in")
    expect(await page.getByTestId("user-name").textContent()).toBe("Demo User")
    expect(await page.getByTestId("user-email").textContent()).toBe("demo@example.com")
    // A database session for the user seeded in the memory adapter: an opaque token.
    expect((await sessionCookie(page))?.split(".")).toHaveLength(1)
    // The refusal is logged (never the password); nothing else went wrong.
    expect(run.errors).toEqual(['CredentialsSignin: The `authorize` of provider "credentials" refused the credentials.'])
    expect(run.errors.join("\n")).not.toContain(password)
  })

  browserTest("signs in with an email link: the address on the sign-in page, the link, the confirmation", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/protected`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fprotected`)
    await page.getByLabel("Email", { exact: true }).fill(" Carol@Example.org ")
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL(`${example.url}/api/auth/verify-request?provider=email&type=email`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your email")
    expect(await page.getByTestId("check-email").textContent()).toContain("printed in the terminal")
    expect(await page.getByTestId("link-address").textContent()).toBe("carol@example.org")

    expect(run.links.map((link) => link.email)).toEqual(["carol@example.org"])
    const link = run.links[0] as SignInLink
    expect(new URL(link.url).pathname).toBe("/api/auth/callback/email")
    expect(await sessionCookie(page)).toBeUndefined()

    // Opening the link only asks to confirm; pressing the button signs in.
    await page.goto(link.url)
    expect(await page.locator("main").textContent()).toContain("Continue as carol@example.org?")
    expect(await sessionCookie(page)).toBeUndefined()
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${example.url}/protected`)
    expect(await page.getByTestId("user-email").textContent()).toBe("carol@example.org")
    expect(await page.getByTestId("user-name").textContent()).toBe("(no name shared)")
    expect(run.errors).toEqual([])
  })
})

describe("passkeys in the example", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  browserTest("signs up with a passkey, confirms the address by the link, signs out, and signs in with the passkey button", async (page) => {
    const { example } = run
    // A platform authenticator that keeps passkeys and verifies the user without being asked.
    const cdp = await enableVirtualAuthenticators(page)
    const authenticatorId = await addVirtualAuthenticator(cdp)

    await page.goto(`${example.url}/protected`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fprotected`)
    await page.getByLabel("Email for a new passkey").fill("dora@example.net")
    await page.getByRole("button", { name: "Create a passkey" }).click()
    await page.waitForURL(`${example.url}/api/auth/verify-request?provider=email&type=email`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your email")
    expect(await page.getByTestId("check-email").textContent()).toContain("printed in the terminal")
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    expect(await sessionCookie(page)).toBeUndefined()

    // The link the app would have emailed: it creates the account, and only in this browser.
    expect(run.links.map((link) => link.email)).toEqual(["dora@example.net"])
    const link = run.links[0] as SignInLink
    expect(new URL(link.url).pathname).toBe("/api/auth/callback/passkey")
    await page.goto(link.url)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Create your account")
    expect(await page.locator("main").textContent()).toContain("dora@example.net")
    expect(await sessionCookie(page)).toBeUndefined()
    await page.getByRole("button", { name: "Create account" }).click()
    await page.waitForURL(`${example.url}/protected`)
    expect(await page.getByTestId("user-email").textContent()).toBe("dora@example.net")

    await page.getByRole("link", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${example.url}/`)
    expect(await page.getByTestId("state").textContent()).toContain("Signed out")

    // The virtual authenticator answers the sign-in page's autofill at once: its options request
    // is held (never answered), so it is the button that signs in.
    let autofill: Route | undefined
    await page.route("**/api/auth/webauthn-options/**", async (route) => {
      if (autofill === undefined) autofill = route
      else await route.continue()
    })
    await page.goto(`${example.url}/protected`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fprotected`)
    await expect.poll(() => autofill !== undefined).toBe(true)
    await page.getByRole("button", { name: "Sign in with Passkey" }).click()
    await page.waitForURL(`${example.url}/protected`)
    expect(await page.getByTestId("user-email").textContent()).toBe("dora@example.net")
    await page.unroute("**/api/auth/webauthn-options/**")
    expect(run.errors).toEqual([])
  })
})

describe("the example with AUTH_SESSION_STRATEGY=jwt", () => {
  let run: Started
  beforeAll(async () => {
    run = await start({ AUTH_SESSION_STRATEGY: "jwt" })
  })

  browserTest("keeps the session in an encrypted cookie and reads it back", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/protected`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/protected`)

    // A compact JWE has five parts.
    expect((await sessionCookie(page))?.split(".")).toHaveLength(5)
    const response = await page.request.get(`${example.url}/api/auth/session`)
    expect(await response.json()).toMatchObject({ user: { name: ALICE.name, email: ALICE.email } })

    await page.goto(`${example.url}/`)
    expect(await page.getByTestId("state").textContent()).toContain("JWT session")
    expect(run.errors).toEqual([])
  })

  browserTest("seals the demo user signed in with the password form into the cookie", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/api/auth/signin`)
    await page.getByLabel("Username").fill(example.demoUser.username)
    await page.getByLabel("Password").fill(example.demoUser.password)
    await page.getByRole("button", { name: "Sign in with Demo user" }).click()
    await page.waitForURL(`${example.url}/`)
    expect((await sessionCookie(page))?.split(".")).toHaveLength(5)
    expect(await page.getByTestId("user-name").textContent()).toBe("Demo User")
    expect(run.errors).toEqual([])
  })
})

describe("the signed-in devices page", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  /** Signs the demo user in with the password form in `page`'s browser. */
  async function signInDemoUser(page: Page, example: RunningExample): Promise<void> {
    await page.goto(`${example.url}/api/auth/signin?callbackUrl=%2Fdevices`)
    await page.getByLabel("Username").fill(example.demoUser.username)
    await page.getByLabel("Password").fill(example.demoUser.password)
    await page.getByRole("button", { name: "Sign in with Demo user" }).click()
    await page.waitForURL(`${example.url}/devices`)
  }

  it("lists both browsers, and signing the other out from here ends its session on its next request", async () => {
    const { example } = run
    browser ??= launchChromium()
    const here = await (await browser).newContext()
    const phone = await (await browser).newContext({
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    })
    for (const context of [here, phone]) context.setDefaultTimeout(scaled(10_000))
    const page = await here.newPage()
    const other = await phone.newPage()
    const pageErrors: string[] = []
    page.on("pageerror", (error) => pageErrors.push(error.message))
    try {
      await signInDemoUser(page, example)
      await signInDemoUser(other, example)
      await page.reload()

      const devices = page.getByTestId("device")
      expect(await devices.count()).toBe(2)
      expect(await page.locator(`[data-testid="device"][data-current="true"]`).textContent()).toContain("Chrome on Linux")
      const phoneRow = devices.filter({ hasText: "Safari on iPhone" })
      expect(await phoneRow.textContent()).toContain("Signed in with Demo user")

      await phoneRow.getByRole("button", { name: "Sign out this device" }).click()
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="device"]').length === 1)
      expect(await page.getByTestId("device").textContent()).toContain("This device")
      expect(await page.getByText("No other device is signed in.").count()).toBe(1)

      // The phone's next page finds no session and sends it to sign in.
      await other.goto(`${example.url}/protected`)
      await other.waitForURL((url) => url.pathname === "/api/auth/signin")
      // This browser stays signed in.
      await page.goto(`${example.url}/protected`)
      expect(new URL(page.url()).pathname).toBe("/protected")
      expect(pageErrors).toEqual([])
      expect(run.errors).toEqual([])
    } catch (error) {
      const path = await screenshot(page, "devices page").catch((cause: unknown) => `none (${String(cause)})`)
      if (error instanceof Error) error.message += `\nScreenshot: ${path}`
      throw error
    } finally {
      await Promise.all([here.close(), phone.close()])
    }
  })

  it("tells two Chrome on Linux sessions apart: this device, active now; the other, when it was last active, in the browser's time zone", async () => {
    const { example } = run
    browser ??= launchChromium()
    // Not UTC, with half an hour in the offset: a time left in UTC cannot pass for local.
    const here = await (await browser).newContext({ timezoneId: "Asia/Kolkata", locale: "en-GB" })
    const there = await (await browser).newContext()
    for (const context of [here, there]) context.setDefaultTimeout(scaled(10_000))
    const page = await here.newPage()
    try {
      // The earlier tests' sessions end first: the page then lists these two browsers only.
      await signInDemoUser(page, example)
      if ((await page.locator("button[data-revoke-others]").count()) > 0) {
        await page.locator("button[data-revoke-others]:enabled").click()
        await page.getByText("No other device is signed in.").waitFor()
      }
      await signInDemoUser(await there.newPage(), example)
      await page.reload()
      const rows = page.getByTestId("device")
      expect(await rows.count()).toBe(2)
      const texts = await rows.allInnerTexts()
      expect(texts.every((text) => text.startsWith("Chrome on Linux"))).toBe(true)
      expect(new Set(texts).size, "the two rows read differently").toBe(2)
      expect(await page.locator('[data-testid="device"][data-current="true"]').innerText()).toMatch(/This device[\s\S]*Signed in with Demo user on .* · Active now$/)
      expect(await page.locator('[data-testid="device"]:not([data-current])').innerText()).toMatch(/Sign out this device[\s\S]*Last active /)
      const local = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" })
      const times = await page.locator("time[data-local-time]").evaluateAll((elements) => elements.map((element) => ({ datetime: element.getAttribute("datetime") ?? "", text: element.textContent })))
      expect(times).toHaveLength(3)
      for (const time of times) expect(time.text, time.datetime).toBe(local.format(new Date(time.datetime)))
      expect(run.errors).toEqual([])
    } finally {
      await Promise.all([here.close(), there.close()])
    }
  })

  browserTest("sends a signed-out visitor to sign in first", async (page) => {
    const { example } = run
    await page.goto(`${example.url}/devices`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Fdevices`)
  })
})

describe("the account page", () => {
  let run: Started
  beforeAll(async () => {
    run = await start()
  })

  /** The session ids `GET /sessions` lists for this browser's user, this one's marked. */
  async function sessionIds(page: Page): Promise<{ id: string; current: boolean }[]> {
    return page.evaluate(async () => ((await (await fetch("/api/auth/sessions")).json()) as { id: string; current: boolean }[]).map(({ id, current }) => ({ id, current })))
  }

  browserTest("V7.5.1: unlinking with a stale session goes through ReauthRequired to a passkey re-authentication and back, then succeeds on the same session; the address changes by its link, every change is noticed, and the account is deleted", async (page) => {
    const { example } = run
    const cdp = await enableVirtualAuthenticators(page)
    const authenticatorId = await addVirtualAuthenticator(cdp)

    // Alice signs in with the Dev IdP; her verified address (with email links on) is another way in.
    await page.goto(`${example.url}/account`)
    await page.waitForURL(`${example.url}/api/auth/signin?callbackUrl=%2Faccount`)
    await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
    await logInAtIdp(page, example)
    await page.waitForURL(`${example.url}/account`)
    const linked = page.getByTestId("linked-account")
    expect(await linked.textContent()).toContain("Dev IdP")

    // A fresh session adds a passkey at once, from the page.
    const signedIn = await sessionIds(page)
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page.getByTestId("passkey").waitFor()
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    const before = { sessions: await sessionIds(page), cookie: await sessionCookie(page), devices: await page.getByTestId("device").count() }
    // Adding a passkey is no new sign-in: the same session, one device.
    expect(before.sessions).toEqual(signedIn)
    expect(before.devices).toBe(1)

    // Eleven minutes on (session.reauthAge is ten), the Dev IdP account can go, but only once Alice proves it is her.
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 11 * 60 * 1000)
      await page.reload()
      await page.getByRole("button", { name: "Unlink" }).click()
      await page.waitForURL((url) => url.pathname === "/api/auth/reauth" && url.searchParams.get("callbackUrl") === `${example.url}/account`)
      expect(await linked.count(), "nothing was unlinked").toBe(0)
      await page.locator("form[data-reauth-passkey] button").click()
      await page.waitForURL(`${example.url}/account`)
      expect(await linked.count(), "still linked after re-authenticating").toBe(1)

      await page.getByRole("button", { name: "Unlink" }).click()
      await page.getByRole("button", { name: "Link Dev IdP" }).waitFor()
      expect(await linked.count()).toBe(0)
      expect(await page.getByText("No account at another provider is linked.").count()).toBe(1)
      // The same session throughout: its id, its cookie, and one device listed.
      expect(await sessionIds(page)).toEqual(before.sessions)
      expect(await sessionCookie(page)).toBe(before.cookie)
      expect(await page.getByTestId("device").count()).toBe(before.devices)

      // Still recent: the address changes through the link mailed to the new one, and the old one is told.
      await page.getByLabel("New email address").fill("alice.new@example.org")
      await page.getByRole("button", { name: "Change email" }).click()
      await page.getByText("Check alice.new@example.org").waitFor()
      const change = run.mails.find((mail) => mail.kind === "emailChange")
      expect(change?.to).toBe("alice.new@example.org")
      await page.goto(change?.url ?? "")
      await page.getByRole("button", { name: "Use this address" }).click()
      await page.getByRole("heading", { name: "Email address changed" }).waitFor()
      await page.goto(`${example.url}/account`)
      expect(await page.getByTestId("user-email").textContent()).toBe("alice.new@example.org")

      // Deleting the account signs out everywhere and leaves nothing to sign in with.
      page.once("dialog", (dialog) => void dialog.accept())
      await page.getByRole("button", { name: "Delete my account" }).click()
      await page.waitForURL(`${example.url}/`)
      expect(await page.getByTestId("state").textContent()).toContain("Signed out")
      expect(await sessionCookie(page)).toBeUndefined()
    } finally {
      vi.useRealTimers()
    }
    // Each change that touched how Alice signs in was told to her, in plain words (OWASP ASVS v5 6.3.7).
    const notices = run.mails.filter((mail) => mail.kind === "notice")
    expect(notices.map(({ to, subject }) => [to, subject])).toEqual([
      [ALICE.email, "A passkey was added"],
      [ALICE.email, "Your Dev IdP account was unlinked"],
      [ALICE.email, "Your email address was changed"],
    ])
    for (const notice of notices) expect(`${notice.text} ${notice.html}`).not.toMatch(/https?:|token/i)

    expect(run.errors).toEqual([])
  }, [/status of 403 .*\/api\/auth\/accounts\/unlink\)$/])
})
