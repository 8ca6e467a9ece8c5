/**
 * The example's browser tests: Debian's Chromium from `@portcullis/test-kit/chromium`, and where their
 * failure screenshots go.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"

import type { Locator, Page } from "playwright-core"

export { launchChromium } from "@portcullis/test-kit/chromium"

/** Where failure screenshots go (git-ignored). */
const RESULTS_DIR = fileURLToPath(new URL("../../test-results/", import.meta.url))

/** Saves a full-page screenshot of `page` as `test-results/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const path = `${RESULTS_DIR}${name.replace(/[^\w-]+/g, "-").replace(/^-|-$/g, "")}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}

/**
 * One provider's form on core's sign-in page, found by where it posts (`callback/credentials`,
 * `signin/email`, `callback/password`): "Email" and "Password" label fields of several forms.
 */
export function signInForm(page: Page, route: string): Locator {
  return page.locator(`form[action$="/api/auth/${route}"]`)
}
