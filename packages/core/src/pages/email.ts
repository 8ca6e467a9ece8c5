/**
 * The pages of an email sign-in: "check your email" after the link is sent, and the
 * confirmation page the link opens, whose button (a POST) is what uses the token.
 */
import type { Theme } from "../model.js"
import { escapeHtml, hiddenInput, homePage, layout, themeButtonStyle } from "./layout.js"

/** The page shown after a sign-in link was sent. */
export function renderVerifyRequest(params: { theme: Theme; homeUrl: string }): string {
  const home = homePage(params.theme, params.homeUrl)
  return layout(
    params.theme,
    "Check your email",
    `<h1>Check your email</h1><p>We sent you an email with a sign-in link. Open it to sign in: it works once, and only for a short time.</p><p class="muted">No email? Check your spam folder, or go back and ask for a new link.</p><p class="links"><a href="${escapeHtml(home)}">Back to ${escapeHtml(params.theme.brandName ?? new URL(home).host)}</a></p>`,
    params.homeUrl,
  )
}

/**
 * The page a sign-in link opens. Mail scanners fetch links to inspect them; only a person
 * pressing the button sends the POST that uses the token.
 */
export function renderConfirmSignIn(params: {
  theme: Theme
  /** The app's origin. */
  homeUrl: string
  action: string
  csrfToken: string
  email: string
  token: string
  callbackUrl: string | undefined
}): string {
  return layout(
    params.theme,
    "Sign in",
    `<h1>Sign in</h1><p>Continue as <strong>${escapeHtml(params.email)}</strong>?</p><form method="post" action="${escapeHtml(params.action)}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("token", params.token)}${hiddenInput("email", params.email)}${hiddenInput("callbackUrl", params.callbackUrl)}<button type="submit" class="button primary"${themeButtonStyle(params.theme)}>Sign in</button></form>`,
    params.homeUrl,
  )
}
