/**
 * The built-in pages as a person sees them: every page in Chromium on a 390×844 phone and a
 * 1280×800 desktop, in light and dark, must fit the screen, show where its card ends, show a
 * logo on every branded button, and pass axe-core with no violation. Screenshots go to the
 * system's temp folder, never the repository.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"

import type { AxeResults } from "axe-core"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import discordLogo from "@portcullis/providers/discord/logo.js"
import githubLogo from "@portcullis/providers/github/logo.js"
import googleLogo from "@portcullis/providers/google/logo.js"
import xLogo from "@portcullis/providers/twitter/logo.js"
import { Auth } from "../src/index.js"
import type { AuthConfig } from "../src/types.js"
import { launchChromium } from "@portcullis/test-kit/chromium"
import type jsQRModule from "jsqr"
import { mfaSetupPage } from "../src/factors/enrol-page.js"
import { backupCodesPage, mfaChallengePage, totpSetupPage } from "../src/factors/pages.js"
import { accountDeletedPage, checkInboxPage, confirmEmailPage, emailChangedPage, linkRefusedPage } from "../src/account/pages.js"
import { html } from "../src/http/context.js"
import { acmeProvider, PASSWORD, passwordProvider, SECRET } from "./helpers.js"
import { passwordProviderConfig } from "./password/harness.js"
import type { MailMessage } from "../src/types.js"
import { scaled } from "@portcullis/test-time"

/** Set `PAGES_SCREENSHOTS=1` to keep a screenshot of every page and mode; a failing page is always kept. */
const SCREENSHOT_DIR = join(tmpdir(), "auth-core-pages")
const SCREENSHOTS = process.env.PAGES_SCREENSHOTS === undefined ? undefined : SCREENSHOT_DIR
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** The providers a real app would list, with the logos @portcullis/providers ships. */
const BRANDED = [
  acmeProvider({ id: "google", name: "Google", style: { logo: googleLogo, brandColor: "#4285f4" } }),
  acmeProvider({ id: "github", name: "GitHub", style: { logo: githubLogo, brandColor: "#24292f" } }),
  acmeProvider({ id: "discord", name: "Discord", style: { logo: discordLogo, brandColor: "#5865f2" } }),
  acmeProvider({ id: "twitter", name: "X (Twitter)", style: { logo: xLogo, brandColor: "#000000" } }),
]
const BRANDED_IDS = BRANDED.map((provider) => provider.id)

/** A small violet square: the app's own logo from `theme.logo`, as a data URL the page's policy allows. */
/** The branded app's name: markup in it must reach the page as text. */
const BRAND = "Acme <Tools>"

const THEME_LOGO = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" rx="2" fill="#7c3aed"/></svg>').toString("base64")}`

function config(basePath: string, theme: AuthConfig["theme"]): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath,
    adapter: MemoryAdapter(),
    theme,
    logger: { error: () => undefined, warn: () => undefined },
    providers: [
      ...BRANDED,
      { id: "email", name: "Email", type: "email", from: "no-reply@app.example", sendVerificationRequest: () => undefined },
      passwordProvider(),
    ],
  }
}

/** The mails of the password accounts' app (`/password/auth`). */
const PASSWORD_MAILS: MailMessage[] = []

/** An app with `Password()` beside an OAuth button, its mails kept: its pages, and a sign-up walked through in the browser. */
function passwordApp(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/password/auth",
    adapter: MemoryAdapter(),
    theme: { colorScheme: "dark" },
    logger: { error: () => undefined, warn: () => undefined },
    mail: { send: (message) => void PASSWORD_MAILS.push(message) },
    providers: [BRANDED[1] as AuthConfig["providers"][number], passwordProviderConfig()],
  }
}

/** The base path of an app whose `url` names `localhost` on the server's port, while the server is opened on 127.0.0.1. */
const LOCAL = "/local/auth"

/** Three apps on one server, told apart by their base path: core's defaults, a themed app, and one forced dark (and LOCAL, once the port is known). */
const APPS: Record<string, AuthConfig> = {
  "/api/auth": config("/api/auth", undefined),
  "/themed/auth": config("/themed/auth", { brandColor: "#7c3aed", buttonText: "#ffffff", logo: THEME_LOGO, colorScheme: "auto" }),
  "/dark/auth": config("/dark/auth", { colorScheme: "dark" }),
  // The app's name and home link; JWT sessions, so the password form signs in without a stored user.
  "/branded/auth": { ...config("/branded/auth", { brandName: BRAND, homeUrl: "/start", logo: THEME_LOGO }), session: { strategy: "jwt" } },
  "/password/auth": passwordApp(),
}

/**
 * The second-factor pages (`src/factors/pages.ts`) under `/factors/`, served as their routes
 * will serve them, through `html()` and its policy; `/factors/branded/` with the branded app's theme.
 */
const FACTORS = "/factors"
const TOTP_URI = "otpauth://totp/Acme%20Tools:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme%20Tools&algorithm=SHA1&digits=6&period=30"
const BACKUP_CODES = ["k7mq-x2pd-4hwz", "9tfn-c3vr-8gbe", "p4zs-m6xk-2dqa", "w8hc-t5nj-7rfu", "b2ev-y9qp-3mkx", "f6ra-d4wt-9ncs", "h3xu-q8gm-5vbz", "n7pd-e2ky-6tcw", "s5jb-r9fh-4xme", "u2ct-w7qn-8dka"]

function factorPage(url: URL, origin: string): Response {
  const branded = url.pathname.startsWith(`${FACTORS}/branded/`)
  const context = { origin, authUrl: `${origin}/api/auth`, config: { theme: (branded ? APPS["/branded/auth"]?.theme : undefined) ?? {} } }
  const query = (name: string) => url.searchParams.get(name) ?? undefined
  switch (url.pathname.replace(/^.*\//, "")) {
    case "challenge":
      return html(undefined, mfaChallengePage(context, { factors: ["totp", "passkey", "email", "backup"], csrfToken: "csrf-token", error: query("error"), factor: query("factor") }))
    case "challenge-email":
      return html(undefined, mfaChallengePage(context, { factors: ["email", "backup"], csrfToken: "csrf-token", error: query("error"), factor: query("factor") }))
    case "totp-setup":
      return html(undefined, totpSetupPage(context, { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", uri: TOTP_URI, csrfToken: "csrf-token", error: query("error") }))
    case "backup-codes":
      return html(undefined, backupCodesPage(context, { codes: BACKUP_CODES, continueUrl: "/settings" }))
    case "setup":
      return html(undefined, mfaSetupPage(context, { enrolled: false, required: query("required") === "1", offers: { totp: true, passkeyElsewhere: false, email: false }, csrfToken: "csrf-token", callbackUrl: "/settings", error: query("error") }))
    case "setup-on":
      return html(undefined, mfaSetupPage(context, { enrolled: true, required: false, offers: { totp: true, passkeyElsewhere: false, email: false }, csrfToken: "csrf-token", callbackUrl: "/settings", error: query("error") }))
    default:
      return new Response("not here", { status: 404 })
  }
}

/** The account settings' pages (`src/account/pages.ts`) under `/account-pages/`, served through `html()` as their routes serve them. */
const ACCOUNT = "/account-pages"

function accountPage(url: URL, origin: string): Response {
  const branded = url.pathname.startsWith(`${ACCOUNT}/branded/`)
  const context = { origin, authUrl: `${origin}/api/auth`, config: { theme: (branded ? APPS["/branded/auth"]?.theme : undefined) ?? {} } }
  switch (url.pathname.replace(/^.*\//, "")) {
    case "check-inbox":
      return html(undefined, checkInboxPage(context))
    case "confirm":
      return html(undefined, confirmEmailPage(context, { email: "ada@new.example", token: "sealed-token", csrfToken: "csrf-token" }))
    case "refused":
      return html(undefined, linkRefusedPage(context), 403)
    case "changed":
      return html(undefined, emailChangedPage(context, "ada@new.example"))
    case "deleted":
      return html(undefined, accountDeletedPage(context, { rpId: "localhost", credentialIds: [] }))
    default:
      return new Response("not here", { status: 404 })
  }
}

/** jsQR, a QR decoder, as a script for a blank page (a UMD bundle: it defines `window.jsQR`). */
const JSQR_SOURCE = readFileSync(createRequire(import.meta.url).resolve("jsqr"), "utf8")
type JsQR = typeof jsQRModule.default

interface PageCase {
  name: string
  path: string
  /** Provider ids whose button must carry a logo. */
  branded?: string[]
  /** The page shows the theme's own logo. */
  themeLogo?: boolean
  status?: number
  /** The refusal shows inside the form of this provider, above its fields, not above the other providers. */
  refusedIn?: string
  /** The page says something neutral (role=status, in the text color): nothing went wrong. */
  neutral?: boolean
  /** The page is the branded app's: its title ends with the app's name, which links to `/start`. */
  brand?: boolean
  /** Visited signed in (with the password form of the branded app): the page says who. */
  signedIn?: boolean
}

const LINK = "token=0123456789abcdef&email=ada%40example.com&callbackUrl=%2Fwelcome"
/** Shaped as a password account's link token (its user's id, base64url, then a random part): the page opens, nothing is used. */
const RESET_TOKEN = "dXNlci1hZGE.0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
const PAGES: PageCase[] = [
  { name: "sign-in", path: "/api/auth/signin", branded: BRANDED_IDS },
  { name: "sign-in-cancelled", path: "/api/auth/signin?error=AccessDenied", branded: BRANDED_IDS, neutral: true },
  { name: "sign-in-wrong-password", path: "/api/auth/signin?error=CredentialsSignin&code=credentials", refusedIn: "credentials" },
  { name: "sign-out", path: "/api/auth/signout" },
  { name: "error-configuration", path: "/api/auth/error?error=Configuration", status: 503 },
  { name: "error-refused", path: "/api/auth/error?error=AccessDenied", status: 403 },
  { name: "error-link-used", path: "/api/auth/error?error=Verification", status: 403 },
  { name: "error-unknown-code", path: "/api/auth/error?error=Nonsense", status: 400 },
  { name: "verify-request", path: "/api/auth/verify-request" },
  { name: "email-confirmation", path: `/api/auth/callback/email?${LINK}` },
  { name: "not-found", path: "/api/auth/no-such-page", status: 404 },
  { name: "themed-sign-in", path: "/themed/auth/signin", branded: BRANDED_IDS, themeLogo: true },
  { name: "themed-sign-out", path: "/themed/auth/signout", themeLogo: true },
  { name: "forced-dark-sign-in", path: "/dark/auth/signin", branded: BRANDED_IDS },
  { name: "branded-sign-in", path: "/branded/auth/signin", branded: BRANDED_IDS, themeLogo: true, brand: true },
  { name: "branded-error", path: "/branded/auth/error?error=Verification", status: 403, themeLogo: true, brand: true },
  { name: "branded-verify-request", path: "/branded/auth/verify-request", themeLogo: true, brand: true },
  { name: "branded-email-confirmation", path: `/branded/auth/callback/email?${LINK}`, themeLogo: true, brand: true },
  { name: "branded-not-found", path: "/branded/auth/no-such-page", status: 404, themeLogo: true, brand: true },
  // Opened on 127.0.0.1 while the app's `url` says localhost (LOCAL, added once the port is known).
  { name: "sign-in-other-loopback-name", path: `${LOCAL}/signin?callbackUrl=%2Fme`, branded: BRANDED_IDS },
  { name: "sign-in-after-other-loopback-name", path: `${LOCAL}/signin?error=MissingCSRF&openedAt=http%3A%2F%2F127.0.0.1%3A3000`, branded: BRANDED_IDS },
  // Signed in (the last cases: the password form signs in before the first of them).
  { name: "branded-sign-in-signed-in", path: "/branded/auth/signin?callbackUrl=%2Fme", branded: BRANDED_IDS, themeLogo: true, brand: true, signedIn: true },
  // The re-authentication page (issue 38), offering the password form, then after a refused one.
  { name: "branded-reauth", path: "/branded/auth/reauth?callbackUrl=%2Fme", themeLogo: true, brand: true, signedIn: true },
  { name: "branded-reauth-wrong-user", path: "/branded/auth/reauth?callbackUrl=%2Fme&error=wrongUser", themeLogo: true, brand: true, signedIn: true },
  { name: "branded-sign-out", path: "/branded/auth/signout", themeLogo: true, brand: true, signedIn: true },
  // The change form of the one session cookie every app here shares (one secret, one origin).
  { name: "password-change", path: "/password/auth/password/change?callbackUrl=%2Fme", signedIn: true },
  // Password accounts (issue 39): the sign-in page's form with its links, and each page of the flow (forced dark).
  { name: "password-sign-in", path: "/password/auth/signin", branded: ["github"] },
  { name: "password-sign-up", path: "/password/auth/password/signup?callbackUrl=%2Fme" },
  { name: "password-sign-up-refused", path: "/password/auth/password/signup?error=tooShort" },
  { name: "password-sign-up-sent", path: "/password/auth/password/signup?sent=1" },
  { name: "password-forgot", path: "/password/auth/password/reset-request" },
  { name: "password-reset", path: `/password/auth/password/reset?token=${RESET_TOKEN}` },
  { name: "password-reset-expired", path: "/password/auth/password/reset", status: 400 },
  { name: "password-verify", path: `/password/auth/password/verify?token=${RESET_TOKEN}` },
  // The second-factor pages.
  { name: "mfa-challenge", path: `${FACTORS}/challenge` },
  { name: "mfa-challenge-email-sent", path: `${FACTORS}/challenge-email?factor=email` },
  { name: "mfa-totp-setup", path: `${FACTORS}/totp-setup` },
  { name: "mfa-backup-codes", path: `${FACTORS}/backup-codes`, neutral: true },
  { name: "branded-mfa-challenge-refused", path: `${FACTORS}/branded/challenge?error=invalidCode&factor=backup`, themeLogo: true, brand: true },
  { name: "branded-mfa-backup-codes", path: `${FACTORS}/branded/backup-codes`, themeLogo: true, brand: true, neutral: true },
  { name: "mfa-setup-required", path: `${FACTORS}/setup?required=1` },
  { name: "branded-mfa-setup-on-refused", path: `${FACTORS}/branded/setup-on?error=LastFactor`, themeLogo: true, brand: true },
  // The account settings' pages (issue 38).
  { name: "account-check-inbox", path: `${ACCOUNT}/check-inbox` },
  { name: "account-confirm-email", path: `${ACCOUNT}/confirm` },
  { name: "account-link-refused", path: `${ACCOUNT}/refused`, status: 403 },
  { name: "branded-account-email-changed", path: `${ACCOUNT}/branded/changed`, themeLogo: true, brand: true },
  { name: "branded-account-deleted", path: `${ACCOUNT}/branded/deleted`, themeLogo: true, brand: true },
]

/** axe-core runs once per page and color scheme (on the phone): what it checks does not change with the width. */
const VIEWPORTS = [
  { name: "phone", width: 390, height: 844, axe: true },
  { name: "desktop", width: 1280, height: 800, axe: false },
]
const SCHEMES = ["light", "dark"] as const

/** Serves the apps over real HTTP on 127.0.0.1, so Chromium loads the pages exactly as an app serves them. */
async function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((incoming, outgoing) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
    const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "127.0.0.1"}`)
    const app = Object.keys(APPS).find((basePath) => url.pathname.startsWith(`${basePath}/`))
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const body = incoming.method === "POST" ? Buffer.concat(chunks) : undefined
      const factors = url.pathname.startsWith(`${FACTORS}/`) ? factorPage(url, url.origin) : url.pathname.startsWith(`${ACCOUNT}/`) ? accountPage(url, url.origin) : undefined
      const response = factors ?? (app === undefined ? new Response("not here", { status: 404 }) : await Auth(new Request(url, { method: incoming.method ?? "GET", headers, body }), APPS[app] as AuthConfig))
      const head: Record<string, string | string[]> = {}
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") head[name] = value
      })
      head["set-cookie"] = response.headers.getSetCookie()
      outgoing.writeHead(response.status, head)
      outgoing.end(Buffer.from(await response.arrayBuffer()))
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

type Rgb = [number, number, number]

function parseRgb(css: string): Rgb {
  const [r = 0, g = 0, b = 0] = (/rgba?\(([^)]+)\)/.exec(css)?.[1] ?? "").split(/[\s,/]+/).map(Number)
  return [r, g, b]
}

function contrast(a: string, b: string): number {
  const luminance = (rgb: Rgb) => {
    const [r, g, bl] = rgb.map((channel) => {
      const c = channel / 255
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as Rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [x, y] = [luminance(parseRgb(a)), luminance(parseRgb(b))]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/** What the checks read from a loaded page, measured by the browser itself. */
interface Measure {
  scrollWidth: number
  innerWidth: number
  card: { borderWidth: number; borderColor: string; cardBackground: string; pageBackground: string } | undefined
  buttons: { id: string; logoWidth: number; logoColor: string; text: string }[]
  themeLogoWidth: number
  /** The form (its action) that holds the `role=alert` element, if any; `""` when it is outside every form. */
  alertForm: string | undefined
  /** The `role=status` element's text and background colors, with the page's, if there is one. */
  notice: { color: string; background: string; text: string; card: string } | undefined
  title: string
  /** The link above the card to the app's home page: where it goes, what it says, its width. */
  home: { href: string; text: string; width: number } | undefined
  /** The "you are signed in" notice's text and link names, if there is one. */
  signedIn: { text: string; links: string[] } | undefined
}

function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const card = document.querySelector(".card")
    const alert = document.querySelector("[role=alert]:not([hidden])")
    const notice = document.querySelector("[role=status]")
    const cardStyle = card === null ? undefined : getComputedStyle(card)
    const buttons = [...document.querySelectorAll("form")].flatMap((form) => {
      const id = /\/signin\/([\w-]+)$/.exec(new URL(form.action).pathname)?.[1]
      const button = form.querySelector("button")
      if (id === undefined || button === null) return []
      const logo = button.querySelector(".logo")
      return [
        {
          id,
          logoWidth: logo?.getBoundingClientRect().width ?? 0,
          // An inline SVG is filled with the button's text color; an <img> brings its own.
          logoColor: logo instanceof SVGElement ? getComputedStyle(logo).fill : getComputedStyle(button).color,
          text: getComputedStyle(button).color,
        },
      ]
    })
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      card:
        cardStyle === undefined
          ? undefined
          : {
              borderWidth: parseFloat(cardStyle.borderTopWidth),
              borderColor: cardStyle.borderTopColor,
              cardBackground: cardStyle.backgroundColor,
              pageBackground: getComputedStyle(document.body).backgroundColor,
            },
      buttons,
      themeLogoWidth: document.querySelector(".brand-logo")?.getBoundingClientRect().width ?? 0,
      title: document.title,
      home: ((link) => (link === null ? undefined : { href: link.href, text: link.textContent, width: link.getBoundingClientRect().width }))(document.querySelector<HTMLAnchorElement>("main > a.brand")),
      signedIn: ((notice: Element | null) =>
        notice === null ? undefined : { text: notice.querySelector("p")?.textContent ?? "", links: [...notice.querySelectorAll("a")].map((a) => a.textContent) })(document.querySelector(".signed-in")),
      alertForm: alert === null ? undefined : (alert.closest("form")?.action ?? ""),
      notice:
        notice === null
          ? undefined
          : {
              color: getComputedStyle(notice).color,
              background: getComputedStyle(notice).backgroundColor,
              text: getComputedStyle(document.body).color,
              card: getComputedStyle(document.querySelector(".card") ?? document.body).backgroundColor,
            },
    }
  })
}

/** The axe-core violations of the loaded page (axe is in every page through the context's init script). */
async function axeViolations(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe
    const results = await axe.run(document, { resultTypes: ["violations"] })
    return results.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`)
  })
  return violations
}

describe("the default pages in Chromium", () => {
  let browser: Browser
  let server: Server
  let origin: string

  beforeAll(async () => {
    if (SCREENSHOTS !== undefined) mkdirSync(SCREENSHOTS, { recursive: true })
    ;({ server, origin } = await serve())
    APPS[LOCAL] = { ...config(LOCAL, undefined), url: `http://localhost:${new URL(origin).port}${LOCAL}` }
    browser = await launchChromium()
  }, scaled(180_000))

  afterAll(async () => {
    await browser.close()
    await new Promise((resolve) => server.close(resolve))
    if (SCREENSHOTS !== undefined) console.log(`Screenshots of the default pages: ${SCREENSHOTS}`)
  })

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(`fit a ${viewport.name} (${viewport.width}×${viewport.height}) in ${scheme} mode, with card edges and logos${viewport.axe ? ", and no axe violation" : ""}`, async () => {
        const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, colorScheme: scheme })
        // An init script runs outside the page's Content-Security-Policy, which allows no script.
        if (viewport.axe) await context.addInitScript(AXE_SOURCE)
        const page = await context.newPage()
        let shown = ""
        try {
          for (const pageCase of PAGES) {
            const label = `${pageCase.name} (${viewport.name}, ${scheme})`
            if (pageCase.signedIn === true && !(await context.cookies()).some((cookie) => cookie.name.endsWith("session-token"))) {
              await page.goto(`${origin}/branded/auth/signin`)
              await page.getByLabel("Username").fill("ada")
              await page.getByLabel("Password").fill(PASSWORD)
              await page.getByRole("button", { name: "Sign in with Password" }).click()
              await page.waitForURL((url) => !url.pathname.includes("/signin"))
            }
            const response = await page.goto(`${origin}${pageCase.path}`)
            expect(response?.status(), label).toBe(pageCase.status ?? 200)
            expect(response?.headers()["content-type"], label).toMatch(/^text\/html/)
            shown = `${viewport.name}-${scheme}-${pageCase.name}`
            if (SCREENSHOTS !== undefined) await page.screenshot({ path: join(SCREENSHOTS, `${shown}.png`), fullPage: true })
            const seen = await measure(page)

            expect(seen.scrollWidth, `${label}: no horizontal scrolling`).toBeLessThanOrEqual(seen.innerWidth)
            expect(seen.card, `${label}: has a card`).toBeDefined()
            const card = seen.card as NonNullable<Measure["card"]>
            expect(card.borderWidth, `${label}: the card has a border`).toBeGreaterThan(0)
            expect(contrast(card.borderColor, card.pageBackground), `${label}: the card's edge shows against the page`).toBeGreaterThanOrEqual(1.3)
            expect(contrast(card.borderColor, card.cardBackground), `${label}: the card's edge shows against the card`).toBeGreaterThanOrEqual(1.3)

            const withLogo = seen.buttons.filter((button) => button.logoWidth >= 16).map((button) => button.id)
            expect(withLogo, `${label}: every branded button shows its logo`).toEqual(expect.arrayContaining(pageCase.branded ?? []))
            for (const button of seen.buttons.filter((b) => pageCase.branded?.includes(b.id))) {
              expect(button.logoColor, `${label}: the ${button.id} logo is drawn in the button's text color`).toBe(button.text)
            }
            if (pageCase.themeLogo === true) expect(seen.themeLogoWidth, `${label}: shows theme.logo`).toBeGreaterThan(0)
            // Every page names the app (theme.brandName, else its host) above the card, as a way back to it.
            expect(seen.home?.width, `${label}: a link to the app's home page`).toBeGreaterThan(0)
            if (pageCase.brand === true) {
              expect(seen.title, `${label}: the title ends with the app's name`).toMatch(/ · Acme <Tools>$/)
              expect(seen.home, `${label}: the app's name links to theme.homeUrl`).toMatchObject({ href: `${origin}/start`, text: BRAND })
            } else {
              // The app's origin (`url`'s for LOCAL); a page drawn before the origin is known links to "/".
              const app = pageCase.path.startsWith(LOCAL) && !pageCase.name.includes("not-found") ? `http://localhost:${new URL(origin).port}` : origin
              expect(seen.home?.href, `${label}: without a homeUrl, the app's origin`).toBe(`${app}/`)
              expect(seen.home?.text, `${label}: without a brandName, the app's host`).toBe(pageCase.name.includes("not-found") ? "Home page" : new URL(app).host)
              expect(seen.title, `${label}: without a brandName, the page's own title`).not.toContain("·")
            }
            if (pageCase.signedIn === true && pageCase.name.includes("sign-in")) {
              expect(seen.signedIn, `${label}: says who is signed in, with the way on and out`).toEqual({ text: "You are signed in as Ada Lovelace (ada@example.com).", links: ["Continue to /me", "Sign out"] })
            } else {
              expect(seen.signedIn, `${label}: says nothing of a session`).toBeUndefined()
            }
            if (pageCase.refusedIn !== undefined) expect(seen.alertForm, `${label}: the refusal is in the form it refers to`).toMatch(new RegExp(`/callback/${pageCase.refusedIn}$`))
            if (pageCase.neutral === true) {
              expect(seen.alertForm, `${label}: no alert`).toBeUndefined()
              expect(seen.notice?.color, `${label}: the notice is in the text color`).toBe(seen.notice?.text)
              expect(contrast(seen.notice?.background ?? "", seen.notice?.card ?? ""), `${label}: the notice is set apart from the card`).toBeGreaterThan(1)
            }

            if (viewport.axe) expect(await axeViolations(page), `${label}: axe-core violations`).toEqual([])
          }
        } catch (error) {
          // The page that failed, to look at: screenshots cost more than every check together.
          const path = join(SCREENSHOT_DIR, `failed-${shown}.png`)
          mkdirSync(SCREENSHOT_DIR, { recursive: true })
          await page.screenshot({ path, fullPage: true })
          throw new Error(`${(error as Error).message}\nScreenshot: ${path}`, { cause: error })
        } finally {
          await context.close()
        }
      })
    }
  }

  it("keeps the username after a wrong password, with the password empty and focused, the refusal in that form", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    try {
      const typed = `ada "<b>lovelace</b>"`
      await page.goto(`${origin}/api/auth/signin`)
      await page.getByLabel("Username").fill(typed)
      await page.getByLabel("Password").fill("not-her-password")
      await page.getByRole("button", { name: "Sign in with Password" }).click()
      await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
      expect(await page.getByLabel("Username").inputValue()).toBe(typed)
      expect(await page.getByLabel("Password").inputValue()).toBe("")
      expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("password")
      expect(await page.locator("form:has(#credentials-password) [role=alert]").textContent()).toBe("Those details did not work. Check them and try again.")
      // Read once: a reload no longer fills it in.
      await page.reload()
      expect(await page.getByLabel("Username").inputValue()).toBe("")
    } finally {
      await context.close()
    }
  })

  it("walks a password sign-up: the form, the mailed link's confirmation, then sign-in from the sign-in page, with the show-password toggle (ASVS 6.2.1)", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" })
    const page = await context.newPage()
    const password = "violet lanterns over the quiet harbour"
    try {
      await page.goto(`${origin}/password/auth/signin?callbackUrl=%2Fme`)
      await page.getByRole("link", { name: "Create an account" }).click()
      await page.getByLabel("Email").fill("walker@example.com")
      const field = page.getByLabel("Password", { exact: true })
      expect(await field.getAttribute("autocomplete")).toBe("new-password")
      await field.fill(password)
      await page.getByRole("button", { name: "Show password" }).click()
      expect(await field.getAttribute("type")).toBe("text")
      expect(await page.getByRole("button", { name: "Hide password" }).getAttribute("aria-pressed")).toBe("true")
      await page.getByRole("button", { name: "Create account" }).click()
      await page.getByRole("heading", { name: "Check your email" }).waitFor()
      const link = await vi.waitFor(() => {
        const mail = PASSWORD_MAILS.find((sent) => sent.to === "walker@example.com" && sent.kind === "passwordVerify")
        expect(mail?.url).toBeDefined()
        return mail?.url ?? ""
      })
      await page.goto(link)
      await page.getByRole("button", { name: "Confirm my address" }).click()
      await page.getByRole("heading", { name: "Address confirmed" }).waitFor()
      await page.getByRole("link", { name: "Sign in" }).click()
      await page.getByLabel("Email").fill("walker@example.com")
      expect(await page.getByLabel("Password", { exact: true }).getAttribute("autocomplete")).toBe("current-password")
      await page.getByLabel("Password", { exact: true }).fill(password)
      await page.getByRole("button", { name: "Sign in with Password" }).click()
      await page.waitForURL((url) => !url.pathname.includes("/signin"))
      const session = (await (await page.request.get(`${origin}/password/auth/session`)).json()) as { user: { email: string } }
      expect(session.user.email).toBe("walker@example.com")
    } finally {
      await context.close()
    }
  })

  it("opened on 127.0.0.1 while `url` says localhost: the first sign-in lands on localhost's sign-in page naming both, the requested page kept, and the next one works (ASVS 3.5.1)", async () => {
    const context = await browser.newContext()
    const authorize: URL[] = []
    await context.route("https://acme.example/**", async (route) => {
      authorize.push(new URL(route.request().url()))
      await route.fulfill({ status: 200, contentType: "text/plain", body: "Acme's sign-in page" })
    })
    const page = await context.newPage()
    const local = `http://localhost:${new URL(origin).port}`
    try {
      await page.goto(`${origin}${LOCAL}/signin?callbackUrl=%2Fme`)
      expect(await page.getByRole("alert").textContent()).toContain(`but this page was opened at ${origin}`)
      await page.getByRole("button", { name: "Sign in with GitHub" }).click()
      await page.waitForURL((url) => url.searchParams.get("error") === "MissingCSRF")
      expect(new URL(page.url()).origin).toBe(local)
      expect(await page.getByRole("alert").textContent()).toBe(`This app's address is ${local}, but the page was opened at ${origin}, so its form could not be checked. You are now at ${local}: sign in again here.`)
      expect(await page.locator("form[action$='/signin/github'] input[name=callbackUrl]").inputValue()).toBe(`${local}/me`)
      await page.getByRole("button", { name: "Sign in with GitHub" }).click()
      await page.waitForURL((url) => url.origin === "https://acme.example")
      expect(authorize[0]?.searchParams.get("redirect_uri")).toBe(`${local}${LOCAL}/callback/github`)
      const kept = (await context.cookies(local)).find((cookie) => cookie.name === "authjs.callback-url")
      expect(decodeURIComponent(kept?.value ?? "")).toBe(`${local}/me`)
    } finally {
      await context.close()
    }
  })

  it("draws the TOTP setup's QR code so that it decodes to the otpauth URI (ISO/IEC 18004), at 390 and 1280 px, light and dark", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    // The screenshot as the camera of a phone would see it, decoded by jsQR in a blank page of the browser.
    const reader = await context.newPage()
    await reader.addScriptTag({ content: JSQR_SOURCE })
    try {
      for (const viewport of VIEWPORTS) {
        for (const scheme of SCHEMES) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height })
          await page.emulateMedia({ colorScheme: scheme })
          await page.goto(`${origin}${FACTORS}/totp-setup`)
          const shot = await page.locator("svg.qr").screenshot()
          const { width, data } = await reader.evaluate(async (png) => {
            const image = new Image()
            image.src = `data:image/png;base64,${png}`
            await image.decode()
            const canvas = document.createElement("canvas")
            canvas.width = image.width
            canvas.height = image.height
            const drawing = canvas.getContext("2d") as CanvasRenderingContext2D
            drawing.drawImage(image, 0, 0)
            const decode = (window as unknown as { jsQR: JsQR }).jsQR
            return { width: image.width, data: decode(drawing.getImageData(0, 0, image.width, image.height).data, image.width, image.height)?.data }
          }, shot.toString("base64"))
          expect(width, `${viewport.name}, ${scheme}: the code is at least 180 px wide`).toBeGreaterThanOrEqual(180)
          expect(data, `${viewport.name}, ${scheme}`).toBe(TOTP_URI)
        }
      }
    } finally {
      await context.close()
    }
  })

  it("downloads the backup codes as a text file without any script, and the continue link goes on", async () => {
    const context = await browser.newContext({ acceptDownloads: true, javaScriptEnabled: false })
    const page = await context.newPage()
    try {
      await page.goto(`${origin}${FACTORS}/branded/backup-codes`)
      expect(await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents()).toEqual(BACKUP_CODES)
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the codes" }).click()])
      expect(download.suggestedFilename()).toBe("acme-tools-backup-codes.txt")
      const text = readFileSync(await download.path(), "utf8")
      for (const code of BACKUP_CODES) expect(text).toContain(`${code}\n`)
      expect(await page.getByRole("link", { name: "I have saved my codes" }).getAttribute("href")).toBe(`${origin}/settings`)
    } finally {
      await context.close()
    }
  })

  it("follows colorScheme: a page forced dark stays dark in a light browser, and auto follows the browser", async () => {
    const context = await browser.newContext({ colorScheme: "light" })
    const page = await context.newPage()
    try {
      const background = async (path: string) => {
        await page.goto(`${origin}${path}`)
        return page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      }
      expect(contrast(await background("/dark/auth/signin"), "rgb(0, 0, 0)")).toBeLessThan(1.5)
      expect(contrast(await background("/api/auth/signin"), "rgb(255, 255, 255)")).toBeLessThan(1.5)
    } finally {
      await context.close()
    }
  })

  it("shows the sign-in page with theme.brandColor and theme.buttonText on the app's own buttons", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    try {
      await page.goto(`${origin}/themed/auth/signin`)
      const button = page.locator('form[action$="/signin/email"] button')
      expect(await button.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).color])).toEqual([
        "rgb(124, 58, 237)",
        "rgb(255, 255, 255)",
      ])
    } finally {
      await context.close()
    }
  })
})
