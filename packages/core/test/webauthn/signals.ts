/**
 * The Signal API calls a page makes, recorded as they are made: a browser test asserts that no
 * signal was sent the moment the client is done, instead of waiting a while for one to arrive.
 * The calls still go to Chromium, whose virtual authenticator still acts on them.
 *
 * @see https://w3c.github.io/webauthn/#sctn-signal-methods
 */
import type { BrowserContext, Page } from "playwright-core"

/** The `sessionStorage` item the calls are listed in: it outlives the tab's navigations on one origin. */
const ITEM = "test:webauthn-signals"

/**
 * Wraps the Signal API in every page `context` opens, so each call is listed (its name and the
 * credential it names) before Chromium gets it. The client calls a signal before it navigates,
 * so a page reached after a ceremony already lists any signal that ceremony sent.
 */
export async function recordSignals(context: BrowserContext): Promise<void> {
  await context.addInitScript((item) => {
    if (typeof PublicKeyCredential === "undefined") return
    const methods = PublicKeyCredential as unknown as Record<string, ((options: { credentialId?: string }) => Promise<void>) | undefined>
    for (const name of ["signalUnknownCredential", "signalAllAcceptedCredentials"]) {
      const real = methods[name]
      if (typeof real !== "function") continue
      methods[name] = function (this: unknown, options) {
        const listed = JSON.parse(sessionStorage.getItem(item) ?? "[]") as string[]
        sessionStorage.setItem(item, JSON.stringify([...listed, `${name} ${options.credentialId ?? ""}`.trim()]))
        return real.call(this, options)
      }
    }
  }, ITEM)
}

/** The signals the page's tab has sent so far, oldest first, as `"<method> <credential id>"`. */
export function signalsSent(page: Page): Promise<string[]> {
  return page.evaluate((item) => JSON.parse(sessionStorage.getItem(item) ?? "[]") as string[], ITEM)
}
