/**
 * The example's pages as a person sees them: on a 390×844 phone and a 1280×800 desktop, in
 * light and dark, each page fits the screen, keeps its header on one line, shows where its cards
 * end and passes axe-core with no violation, and so do the Dev IdP's login and consent pages;
 * the passkey buttons do not touch, a refused password keeps the username beside its own form,
 * "check your email" names the address, a cancelled sign-in is not an error, the session JSON
 * keeps its indentation, and signed in without a picture, the avatar shows initials. Set
 * `PAGES_SCREENSHOTS=1` to keep a screenshot of each in the system's temp folder (never the
 * repository).
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"

import type { AxeResults } from "axe-core"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { DEFAULT_ACCOUNTS } from "@portcullis/dev-idp"

import { startExample, type RunningExample } from "../../src/app.js"
import { launchChromium } from "./chromium.js"

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const SCREENSHOTS = process.env.PAGES_SCREENSHOTS === undefined ? undefined : join(tmpdir(), "auth-example-pages")

/** axe runs on the phone only: what it checks does not change with the width. */
const VIEWPORTS = [
  { name: "phone", width: 390, height: 844, axe: true },
  { name: "desktop", width: 1280, height: 800, axe: false },
]
const SCHEMES = ["light", "dark"] as const

/** The pages, in the order a person meets them: signed out, then signed in as the demo user. */
const SIGNED_OUT = [
  { name: "home-signed-out", path: "/" },
  { name: "sign-in", path: "/api/auth/signin" },
  { name: "check-email", path: "/api/auth/verify-request?provider=email&type=email" },
  { name: "not-found", path: "/no-such-page", status: 404 },
  { name: "auth-not-found", path: "/api/auth/no-such-page", status: 404 },
]
const SIGNED_IN = [
  { name: "home-signed-in", path: "/" },
  { name: "protected", path: "/protected" },
  { name: "devices", path: "/devices" },
  { name: "settings", path: "/settings" },
  { name: "account", path: "/account" },
  { name: "sign-out", path: "/api/auth/signout" },
  // Core's sign-in page while signed in: it says who, with the way on and a sign-out link.
  { name: "sign-in-signed-in", path: "/api/auth/signin?callbackUrl=%2Fprotected" },
]

type Rgb = [number, number, number]

function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const rgb = (/rgba?\(([^)]+)\)/.exec(css)?.[1] ?? "0,0,0").split(/[\s,/]+/).map(Number).slice(0, 3) as Rgb
    const [r, g, bl] = rgb.map((channel) => {
      const c = channel / 255
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as Rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [x, y] = [luminance(a), luminance(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/**
 * Fails unless the loaded page fits, keeps its header's links on one line, shows its card edges
 * (the Dev IdP's pages have no card: `card: false`) and (when asked) passes axe-core.
 */
async function checkPage(page: Page, label: string, axe: boolean, expected: { card?: boolean } = {}): Promise<void> {
  const seen = await page.evaluate(() => {
    const card = document.querySelector(".card")
    const style = card === null ? undefined : getComputedStyle(card)
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      border: style === undefined ? undefined : { width: parseFloat(style.borderTopWidth), color: style.borderTopColor },
      background: getComputedStyle(document.body).backgroundColor,
      // axe measures text against the page's own background, and takes a transparent page for white:
      // measured here against what is painted, and a page must paint its own.
      muted: [...document.querySelectorAll(".muted, .note")].map((element) => {
        let behind: Element | null = element
        while (behind !== null && /^rgba\(.*, 0\)$|^transparent$/.test(getComputedStyle(behind).backgroundColor)) behind = behind.parentElement
        return { text: element.textContent.slice(0, 40), color: getComputedStyle(element).color, background: behind === null ? "" : getComputedStyle(behind).backgroundColor }
      }),
      headerLinks: [...document.querySelectorAll("header a")].map((link) => {
        const box = link.getBoundingClientRect()
        return { text: link.textContent, top: Math.round(box.top), bottom: Math.round(box.bottom) }
      }),
    }
  })
  expect(seen.scrollWidth, `${label}: no horizontal scrolling`).toBeLessThanOrEqual(seen.innerWidth)
  for (const muted of seen.muted) {
    expect(muted.background, `${label}: "${muted.text}" is on a background the page paints`).not.toBe("")
    expect(contrast(muted.color, muted.background), `${label}: "${muted.text}" reads at WCAG AA`).toBeGreaterThanOrEqual(4.5)
  }
  const [first] = seen.headerLinks
  for (const link of seen.headerLinks) expect(link.top, `${label}: "${link.text}" is on the header's one line`).toBeLessThan(first?.bottom ?? 0)
  if (expected.card !== false) {
    // The app's own pages have the header; core's sign-in and sign-out pages have none.
    if (seen.headerLinks.length > 0) expect(seen.headerLinks.length, `${label}: a header with the brand and its links`).toBe(4)
    expect(seen.border?.width, `${label}: the card has a border`).toBeGreaterThan(0)
    expect(contrast(seen.border?.color ?? "", seen.background), `${label}: the card's edge shows against the page`).toBeGreaterThanOrEqual(1.3)
  }
  if (!axe) return
  const violations = await page.evaluate(async () => {
    const engine = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe
    const results = await engine.run(document, { resultTypes: ["violations"] })
    return results.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`)
  })
  expect(violations, `${label}: axe-core violations`).toEqual([])
}

/** The gap in pixels between two elements, the second below the first. */
async function verticalGap(page: Page, first: string, second: string): Promise<number> {
  const [a, b] = await Promise.all([page.locator(first).boundingBox(), page.locator(second).boundingBox()])
  return (b?.y ?? 0) - ((a?.y ?? 0) + (a?.height ?? 0))
}

/** The Dev IdP account the pages sign in with. */
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("@portcullis/dev-idp has no default account")

describe("the example's pages in Chromium", () => {
  let browser: Browser
  let example: RunningExample

  beforeAll(async () => {
    if (SCREENSHOTS !== undefined) mkdirSync(SCREENSHOTS, { recursive: true })
    example = await startExample({
      env: { AUTH_SECRET: "a-pages-secret-for-the-example-app-32+" },
      port: 0,
      idpPort: 0,
      warn: () => undefined,
      authLogger: { error: () => undefined, warn: () => undefined },
      sendSignInLink: () => undefined,
      sendMail: () => undefined,
    })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser.close()
    await example.close()
  })

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(`fit a ${viewport.name} in ${scheme} mode, with card edges${viewport.axe ? " and no axe violation" : ""}`, async () => {
        const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, colorScheme: scheme })
        // An init script runs outside the pages' Content-Security-Policy.
        if (viewport.axe) await context.addInitScript(AXE_SOURCE)
        const page = await context.newPage()
        /** Checks the page the browser is on, after a click rather than a visit. */
        const check = async (name: string, expected: { card?: boolean } = {}) => {
          if (SCREENSHOTS !== undefined) await page.screenshot({ path: join(SCREENSHOTS, `${viewport.name}-${scheme}-${name}.png`), fullPage: true })
          await checkPage(page, `${name} (${viewport.name}, ${scheme})`, viewport.axe, expected)
        }
        const visit = async (pageCase: { name: string; path: string; status?: number }) => {
          const response = await page.goto(`${example.url}${pageCase.path}`)
          expect(response?.status(), `${pageCase.name} (${viewport.name}, ${scheme})`).toBe(pageCase.status ?? 200)
          await check(pageCase.name)
        }
        const toDemoIdp = async () => {
          await page.goto(`${example.url}/api/auth/signin`)
          await page.getByRole("button", { name: "Sign in with Dev IdP" }).click()
          await page.waitForURL((url) => url.origin === example.idp.issuer && url.pathname.startsWith("/interaction/"))
        }
        try {
          for (const pageCase of SIGNED_OUT) await visit(pageCase)

          await page.goto(`${example.url}/api/auth/signin`)
          expect(await verticalGap(page, '[data-passkey-action="authenticate"]', '[data-passkey-action="register"]'), "the passkey buttons do not touch").toBeGreaterThan(0)
          // One address per page check: core sends one address at most 3 sign-in mails per 15 minutes.
          const address = `carol.${viewport.name}.${scheme}@example.org`
          await page.getByLabel("Email", { exact: true }).fill(address)
          await page.getByRole("button", { name: "Sign in with Email" }).click()
          await page.waitForURL(`${example.url}/api/auth/verify-request?provider=email&type=email`)
          expect(await page.getByTestId("link-address").textContent()).toBe(address)
          expect(await page.locator("[data-testid=check-email] strong").count(), "only the address is in bold").toBe(1)
          await check("check-email-sent")

          // The Dev IdP's own pages, and coming back from it without signing in.
          await toDemoIdp()
          await check("idp-login", { card: false })
          await page.getByRole("button", { name: "Cancel" }).click()
          await page.waitForURL((url) => url.origin === example.url && url.searchParams.get("error") === "AccessDenied")
          expect(await page.getByRole("status").textContent()).toContain("You cancelled the sign-in")
          expect(await page.getByRole("alert").count(), "a cancelled sign-in is not an error").toBe(0)
          await check("sign-in-cancelled")
          await toDemoIdp()
          await page.getByLabel("Email").fill(ALICE.email)
          await page.getByLabel("Password").fill(`${ALICE.password}x`)
          await page.getByRole("button", { name: "Sign in", exact: true }).click()
          await page.getByRole("alert").waitFor()
          await check("idp-login-refused", { card: false })
          await page.getByLabel("Password").fill(ALICE.password)
          await page.getByRole("button", { name: "Sign in", exact: true }).click()
          await page.getByRole("button", { name: "Allow" }).waitFor()
          await check("idp-consent", { card: false })
          // The sentence that says who gets what is in the text color, not the muted one.
          const consent = page.locator("[data-consent-request]")
          expect(await consent.evaluate((element) => getComputedStyle(element).color === getComputedStyle(document.body).color)).toBe(true)
          await page.getByRole("button", { name: "Deny" }).click()
          await page.waitForURL((url) => url.origin === example.url && url.searchParams.get("error") === "AccessDenied")

          // A wrong password: the refusal beside the password form, the username kept.
          await page.goto(`${example.url}/api/auth/signin`)
          await page.getByLabel("Username").fill(example.demoUser.username)
          await page.getByLabel("Password").fill(`${example.demoUser.password}x`)
          await page.getByRole("button", { name: "Sign in with Demo user" }).click()
          await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
          expect(await page.getByLabel("Username").inputValue()).toBe(example.demoUser.username)
          expect(await page.locator("form:has([name=password]) [role=alert]").count(), "the refusal is in the password form").toBe(1)
          await check("sign-in-refused")
          await page.getByLabel("Password").fill(example.demoUser.password)
          await page.getByRole("button", { name: "Sign in with Demo user" }).click()
          await page.waitForURL(`${example.url}/`)
          for (const pageCase of SIGNED_IN) await visit(pageCase)

          // The session JSON shows all of itself on a phone: a long line wraps inside its box, nothing is
          // cut at its edge (a scrolling box hides that it scrolls), and each line keeps its indentation.
          await page.goto(`${example.url}/protected`)
          const json = page.getByTestId("session")
          expect(await json.evaluate((element) => element.scrollWidth <= element.clientWidth), "nothing past the box's right edge").toBe(true)
          expect(await json.evaluate((element) => element.getBoundingClientRect().right <= window.innerWidth)).toBe(true)
          expect(await json.innerText()).toContain('\n  "user": {\n    "name": "Demo User",')
          // Signed in with the password form, not the Dev IdP: the token page says so instead of sending the user to sign in.
          const tokenPage = await page.goto(`${example.url}/token`)
          expect(tokenPage?.status()).toBe(200)
          expect(new URL(page.url()).pathname).toBe("/token")
          expect(await page.getByTestId("no-token").innerText()).toContain("You signed in another way, so the app holds no Dev IdP token for you.")
          await check("token-signed-in-another-way")
          // The demo user has no picture: the avatar says who it is instead of an empty circle.
          await page.goto(`${example.url}/`)
          expect(await page.getByTestId("avatar-initials").textContent()).toBe("DU")
        } finally {
          await context.close()
        }
      })
    }
  }
})
