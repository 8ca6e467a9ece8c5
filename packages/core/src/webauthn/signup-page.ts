/**
 * The page a passkey sign-up link opens. It lives with the WebAuthn flow, not in src/pages/, so
 * an app without passkeys bundles none of it.
 */
import { escapeHtml, hiddenInput, layout, themeButtonStyle } from "../pages/layout.js"
import type { Theme } from "../model.js"

/** What the sign-up confirmation page shows and posts back. */
export interface SignUpPageParams {
  theme: Theme
  /** The app's origin. */
  homeUrl: string
  /** Where the form posts: the provider's callback route with the link's `pending` registration. */
  action: string
  csrfToken: string
  /** The confirmed address the account is created with. */
  email: string
  /** The name the account is created with, when the registration gave one. */
  name: string | undefined
  /** Whether the address has an account, which the passkey is added to instead. */
  existing: boolean
  token: string
  callbackUrl: string | undefined
  /** The sign-in page, for someone who does not want the account after all. */
  signInUrl: string
}

/**
 * The sign-up confirmation page: it names the address (and name) of the account to be created,
 * or, when the address has an account, says the passkey is added to it; only its button, a
 * `POST`, does it. Mail scanners fetch links to inspect them; a `GET` must change nothing.
 *
 * @example
 * ```ts
 * html(context, renderConfirmSignUp({ theme, homeUrl, action, csrfToken, email, name: undefined, existing: false, token, callbackUrl, signInUrl }))
 * ```
 */
export function renderConfirmSignUp(params: SignUpPageParams): string {
  const email = `<strong>${escapeHtml(params.email)}</strong>`
  const [title, text, button] = params.existing
    ? ["Add your passkey", `<p>The passkey you just created will be added to the account of ${email}, and you will be signed in.</p>`, "Sign in and add the passkey"]
    : ["Create your account", `<p>You are creating an account for ${email}${params.name === undefined ? "" : ` as <strong>${escapeHtml(params.name)}</strong>`}.</p>`, "Create account"]
  const fields = hiddenInput("csrfToken", params.csrfToken) + hiddenInput("token", params.token) + hiddenInput("email", params.email) + hiddenInput("callbackUrl", params.callbackUrl)
  return layout(
    params.theme,
    title,
    `<h1>${title}</h1>${text}<p class="muted">From now on, the passkey you just made signs you in on this device.</p><form method="post" action="${escapeHtml(params.action)}">${fields}<button type="submit" class="button primary"${themeButtonStyle(params.theme)}>${button}</button></form><p class="links"><a href="${escapeHtml(params.signInUrl)}">Back to sign in</a></p>`,
    params.homeUrl,
  )
}
