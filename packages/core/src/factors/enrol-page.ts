/**
 * `GET {basePath}/mfa/setup`: the page from which a user turns two-step sign-in on (a button that
 * starts the authenticator app's set-up; for a sign-in waiting under `mfa.required`, a button that
 * creates a passkey), or, once it is on, makes new backup codes or turns it off. It offers only
 * the kinds `mfa.factors` lists, and says in plain words when none of them can be set up here.
 * Drawn with the built-in pages' layout; no script but the passkey flow's own, which its control
 * brings; every form carries the CSRF token.
 */
import { escapeHtml, hiddenInput, layout, themeButtonStyle } from "../pages/layout.js"
import type { FactorPageContext } from "./pages.js"

/** The refusals the enrolment routes send back here (`?error=`), each with its sentence. */
const SETUP_ERRORS: Readonly<Record<string, string>> = {
  FactorExists: "An authenticator app is already set up. Turn it off first to set up another.",
  LastFactor: "Two-step sign-in is required for your account, so it cannot be turned off.",
  NoFactor: "Set up an authenticator app first.",
  SetupExpired: "That set-up took too long. Start it again.",
  passkeyFailed: "That passkey could not be set up. Please try again.",
}

/** What the set-up page offers, of the kinds `mfa.factors` lists. */
export interface SetupOffers {
  /** The authenticator app. */
  totp: boolean
  /** A passkey for the sign-in waiting for its second step: the passkey flow's control. */
  passkey?: { attributes: string; script: string; source: string } | undefined
  /** A signed-in user adds a passkey through the passkey provider, not here: the page says so. */
  passkeyElsewhere: boolean
  /** Emailed codes are listed: nothing to set up, but an address to confirm (the page says so when nothing else is offered). */
  email: boolean
}

/** The ways to turn two-step sign-in on that `offers` holds, or the sentence saying none can be set up here. */
function turnOn(base: string, csrf: string, offers: SetupOffers, button: string): string {
  const forms: string[] = []
  if (offers.totp) {
    forms.push(
      `<p>After your usual sign-in, you will also enter a code from an authenticator app on your phone.</p>` +
        `<form method="post" action="${escapeHtml(`${base}/mfa/totp/setup`)}">${csrf}<button type="submit" class="button primary"${button}>Set up an authenticator app</button></form>`,
    )
  }
  const { passkey } = offers
  if (passkey !== undefined) {
    const primary = forms.length === 0
    forms.push(
      `<p>${primary ? "" : "Or "}create a passkey: your phone, computer or security key confirms it is you, with your fingerprint, face or screen lock.</p>` +
        `<form method="post" action="${escapeHtml(`${base}/mfa/passkey/register`)}" data-mfa-passkey-register${passkey.attributes}>${csrf}<input type="hidden" name="credential" value=""><button type="submit" class="button${primary ? " primary" : ""}"${primary ? button : ""}>Create a passkey</button><p class="error" role="alert" data-passkey-error hidden></p></form>${passkey.script}`,
    )
  } else if (offers.passkeyElsewhere) {
    forms.push("<p>A passkey you add to your account also works as your second step.</p>")
  }
  if (forms.length > 0) return forms.join("")
  const email = offers.email
    ? "<p>Here, the second step is a code we email you, and it needs an email address you have confirmed. If you signed in with an email link, sign in another way: the code cannot come to the same inbox as the link.</p>"
    : ""
  return `${email}<p>The second step this site uses cannot be set up on this page. Please contact the site's support team, who can help you finish signing in.</p>`
}

/**
 * The set-up page: with no authenticator confirmed, what `params.offers` holds (a button that
 * posts to `{basePath}/mfa/totp/setup`, a passkey's form posting to `{basePath}/mfa/passkey/register`),
 * or the sentence that nothing can be set up here; with one, the forms that post to `{basePath}/mfa/backup-codes` and
 * (unless the app requires a second factor of this user) `{basePath}/mfa/remove`. `error` comes
 * from the URL and is shown only as its fixed sentence.
 */
export function mfaSetupPage(
  context: FactorPageContext,
  params: { enrolled: boolean; required: boolean; offers: SetupOffers; csrfToken: string; callbackUrl?: string | undefined; error?: string | undefined },
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
    : `<h1>Turn on two-step sign-in</h1>${error}${params.required ? "<p>Your account needs a second step to sign in.</p>" : ""}${turnOn(base, csrf, params.offers, button)}`
  const back = params.callbackUrl === undefined ? "" : `<p class="links"><a href="${escapeHtml(params.callbackUrl)}">Back</a></p>`
  return layout(context.config.theme, "Two-step sign-in", `${body}${back}`, context.origin)
}
