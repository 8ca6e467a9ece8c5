/**
 * Debian's Chromium driven by playwright-core, for the tests that look at the pages as a person
 * does: never a downloaded browser. On a fresh machine (root with apt-get) it installs Debian's
 * package first, as the example's browser tests do; anywhere else a missing browser fails the
 * tests with instructions instead of skipping them.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

import { chromium, type Browser } from "playwright-core"

const CHROMIUM = "/usr/bin/chromium"

function installChromium(): void {
  if (existsSync(CHROMIUM) || process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env })
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env })
}

/**
 * Installs Chromium when missing and possible, then launches it headless, with `extraArgs`
 * after the defaults.
 *
 * @throws Error when `/usr/bin/chromium` is missing and cannot be installed here.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  installChromium()
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get update && apt-get install -y chromium\`.`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...extraArgs],
  })
}
