/**
 * The example's pages as a person sees them: on a 390×844 phone and a 1280×800 desktop, in
 * light and dark, each page fits the screen, shows where its cards end and passes axe-core
 * with no violation; signed in without a picture, the avatar shows initials. Set
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
  { name: "sign-out", path: "/api/auth/signout" },
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

/** Fails unless the loaded page fits, shows its card edges and (when asked) passes axe-core. */
async function checkPage(page: Page, label: string, axe: boolean): Promise<void> {
  const seen = await page.evaluate(() => {
    const card = document.querySelector(".card")
    const style = card === null ? undefined : getComputedStyle(card)
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      border: style === undefined ? undefined : { width: parseFloat(style.borderTopWidth), color: style.borderTopColor },
      background: getComputedStyle(document.body).backgroundColor,
    }
  })
  expect(seen.scrollWidth, `${label}: no horizontal scrolling`).toBeLessThanOrEqual(seen.innerWidth)
  expect(seen.border?.width, `${label}: the card has a border`).toBeGreaterThan(0)
  expect(contrast(seen.border?.color ?? "", seen.background), `${label}: the card's edge shows against the page`).toBeGreaterThanOrEqual(1.3)
  if (!axe) return
  const violations = await page.evaluate(async () => {
    const engine = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe
    const results = await engine.run(document, { resultTypes: ["violations"] })
    return results.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`)
  })
  expect(violations, `${label}: axe-core violations`).toEqual([])
}

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
        const visit = async (pageCase: { name: string; path: string; status?: number }) => {
          const label = `${pageCase.name} (${viewport.name}, ${scheme})`
          const response = await page.goto(`${example.url}${pageCase.path}`)
          expect(response?.status(), label).toBe(pageCase.status ?? 200)
          if (SCREENSHOTS !== undefined) await page.screenshot({ path: join(SCREENSHOTS, `${viewport.name}-${scheme}-${pageCase.name}.png`), fullPage: true })
          await checkPage(page, label, viewport.axe)
        }
        try {
          for (const pageCase of SIGNED_OUT) await visit(pageCase)
          await page.goto(`${example.url}/api/auth/signin`)
          await page.getByLabel("Username").fill(example.demoUser.username)
          await page.getByLabel("Password").fill(example.demoUser.password)
          await page.getByRole("button", { name: "Sign in with Demo user" }).click()
          await page.waitForURL(`${example.url}/`)
          for (const pageCase of SIGNED_IN) await visit(pageCase)
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
