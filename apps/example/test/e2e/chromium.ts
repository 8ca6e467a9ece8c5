/**
 * Debian's Chromium driven by playwright-core: never a downloaded browser.
 */
import { existsSync, mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"

import { chromium, type Browser, type Page } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"

/** Where failure screenshots go (git-ignored). */
const RESULTS_DIR = fileURLToPath(new URL("../../test-results/", import.meta.url))

/**
 * Launches headless Chromium.
 *
 * @throws Error when `/usr/bin/chromium` is missing, saying how to install it: the browser tests
 * fail rather than skip, so a missing browser is never mistaken for a pass.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the example's browser tests drive Debian's Chromium. Install it with \`apt-get update && apt-get install -y chromium\` (the tests do it themselves when run as root).`,
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  })
}

/** Saves a full-page screenshot of `page` as `test-results/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const path = `${RESULTS_DIR}${name.replace(/[^\w-]+/g, "-").replace(/^-|-$/g, "")}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}
