/**
 * `GET {basePath}/mfa/setup`: the page from which a user turns two-step sign-in on (a button that
 * starts the authenticator app's set-up), or, once it is on, makes new backup codes or turns it
 * off. Drawn with the built-in pages' layout, no script; every form carries the CSRF token.
 */
import { escapeHtml, hiddenInput, layout, themeButtonStyle } from "../pages/layout.js"
import type { FactorPageContext } from "./pages.js"

/** The refusals the enrolment routes send back here (`?error=`), each with its sentence. */
const SETUP_ERRORS: Readonly<Record<string, string>> = {
  FactorExists: "An authenticator app is already set up. Turn it off first to set up another.",
  LastFactor: "Two-step sign-in is required for your account, so it cannot be turned off.",
  NoFactor: "Set up an authenticator app first.",
  SetupExpired: "That set-up took too long. Start it again.",
}

/**
 * The set-up page: with no authenticator confirmed, a button that posts to
 * `{basePath}/mfa/totp/setup`; with one, the forms that post to `{basePath}/mfa/backup-codes` and
 * (unless the app requires a second factor of this user) `{basePath}/mfa/remove`. `error` comes
 * from the URL and is shown only as its fixed sentence.
 */
export function mfaSetupPage(
  context: FactorPageContext,
  params: { enrolled: boolean; required: boolean; csrfToken: string; callbackUrl?: string | undefined; error?: string | undefined },
): string {
  const base = context.authUrl
  const csrf = `${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}`
  const button = themeButtonStyle(context.config.theme)
  const error =
    params.error === undefined || params.error === ""
      ? ""
      : `<p class="error" role="alert">${escapeHtml(Object.hasOwn(SETUP_ERRORS, params.error) ? (SETUP_ERRORS[params.error] as string) : "That did not work. Please try again.")}</p>`
  const body = params.enrolled
    ? `<h1>Two-step sign-in is on</h1>${error}<p>Each sign-in asks for a code from your authenticator app, or for one of your backup codes.</p>` +
      `<form method="post" action="${escapeHtml(`${base}/mfa/backup-codes`)}">${csrf}<button type="submit" class="button">Make new backup codes</button></form>` +
      (params.required
        ? ""
        : `<form method="post" action="${escapeHtml(`${base}/mfa/remove`)}">${csrf}${hiddenInput("factor", "totp")}<button type="submit" class="button">Turn off two-step sign-in</button></form>`)
    : `<h1>Turn on two-step sign-in</h1>${error}<p>${params.required ? "Your account needs a second step to sign in. " : ""}After your usual sign-in, you will also enter a code from an authenticator app on your phone.</p>` +
      `<form method="post" action="${escapeHtml(`${base}/mfa/totp/setup`)}">${csrf}<button type="submit" class="button primary"${button}>Set up an authenticator app</button></form>`
  const back = params.callbackUrl === undefined ? "" : `<p class="links"><a href="${escapeHtml(params.callbackUrl)}">Back</a></p>`
  return layout(context.config.theme, "Two-step sign-in", `${body}${back}`, context.origin)
}
