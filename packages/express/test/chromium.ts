/** Debian's Chromium driven by playwright-core: never a downloaded browser. */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"

/**
 * Launches headless Chromium.
 *
 * @throws Error when `/usr/bin/chromium` is missing, saying how to install it: the browser test
 * fails rather than skips, so a missing browser is never mistaken for a pass.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get update && apt-get install -y chromium\` (the tests do it themselves when run as root).`)
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] })
}
