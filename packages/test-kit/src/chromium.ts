/**
 * Debian's Chromium driven by playwright-core, for every browser test in the repository: never a
 * downloaded browser. On a fresh machine it is installed first (see `./system.ts`); anywhere
 * else a missing browser fails the tests with instructions instead of skipping them.
 *
 * @module
 */
import { existsSync } from "node:fs"
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core"
import { ensureDebianPackages } from "./system.js"

/** Where Debian puts Chromium. */
export const CHROMIUM = "/usr/bin/chromium"

/** Installs Chromium when it is missing and this process may. */
export function installChromium(): void {
  ensureDebianPackages(["chromium"], `test -x ${CHROMIUM}`)
}

/**
 * Installs Chromium when missing and possible, then launches it headless, with `extraArgs` after
 * the defaults (no network beyond the machine, no sandbox as root, a fresh profile).
 *
 * @throws Error when `/usr/bin/chromium` is missing and cannot be installed here.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  installChromium()
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get update && apt-get install -y chromium\` and run the tests again.`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", ...extraArgs],
  })
}

/**
 * Turns on CDP's virtual authenticators for `page`, for passkey tests: the session adds, lists
 * and removes them (`WebAuthn.getCredentials`, `WebAuthn.removeVirtualAuthenticator`).
 */
export async function enableVirtualAuthenticators(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  return cdp
}

/**
 * Adds a CTAP2 authenticator that keeps passkeys (resident keys), verifies the user without
 * asking, and simulates their presence: a platform one (`"internal"`) or a security key
 * (`"usb"`). Returns its id.
 */
export async function addVirtualAuthenticator(cdp: CDPSession, transport: "internal" | "usb" = "internal"): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return authenticatorId
}
