/**
 * The re-authentication page, drawn with the built-in pages' layout (theme, brand, dark mode): one
 * form per way this user has, each posting to `{basePath}/reauth/:id` with the CSRF token and the
 * page to return to; a passkey's control is the passkey flow's own, with its one script. Every
 * value from a request or the configuration is escaped.
 */
import { html } from "../http/context.js"
import { admitScripts } from "../http/script-policy.js"
import type { RequestContext } from "../internal.js"
import { escapeHtml, hiddenInput, layout, themeButtonStyle } from "../pages/layout.js"
import { input } from "../pages/index.js"
import type { ReauthWay } from "./ways.js"

/** Why the last attempt was refused (`?error=`), each with its sentence; any other value shows a neutral one. */
const ERRORS: Readonly<Record<string, string>> = {
  wrongUser: "That was another account. Use your own to continue.",
  CredentialsSignin: "Those details did not work. Check them and try again.",
  invalidCode: "That code did not work. Check it and try again.",
  replayed: "That code was already used. Wait for the next code in your app, then enter it.",
  rateLimited: "Too many wrong codes. Wait a few minutes, then try again.",
  locked: "Codes from your authenticator app are turned off after too many wrong ones. Use another way.",
}
const UNKNOWN_ERROR = "That did not work. Please try again."

function errorLine(code: string | null): string {
  if (code === null || code === "") return ""
  return `<p class="error" role="alert">${escapeHtml(Object.hasOwn(ERRORS, code) ? (ERRORS[code] as string) : UNKNOWN_ERROR)}</p>`
}

/** `ada@example.com` as `a•••@example.com`: enough to recognise, not to read off a shoulder. */
function maskedAddress(address: string): string {
  const at = address.lastIndexOf("@")
  return at <= 0 ? address : `${address.slice(0, 1)}•••${address.slice(at)}`
}

/** What the page needs beside the ways: the CSRF token, where to go after, the sign-in page, an error from the URL. */
export interface ReauthPageParams {
  ways: readonly ReauthWay[]
  csrfToken: string
  callbackUrl: string
  signInUrl: string
  /** The signed-in user's address, shown masked beside an email link. */
  email: string | undefined
  error: string | null
}

/**
 * The page: the ways, strongest first, one primary button; with none, says so and links to a
 * fresh sign-in. Its policy admits only the scripts the ways' controls bring (a passkey's).
 */
export function reauthPage(context: RequestContext, params: ReauthPageParams): Response {
  const { ways, csrfToken, callbackUrl } = params
  const button = themeButtonStyle(context.config.theme)
  const hidden = `${hiddenInput("csrfToken", csrfToken)}${hiddenInput("callbackUrl", callbackUrl)}`
  const parts: string[] = []
  const scripts: string[] = []
  for (const way of ways) {
    const first = parts.length === 0
    if (!first) parts.push('<p class="or">or</p>')
    const primary = first ? ` primary"${button}` : `"`
    const { provider } = way
    const action = escapeHtml(`${context.authUrl}/reauth/${encodeURIComponent(provider?.id ?? "totp")}`)
    if (way.kind === "passkey" && provider?.flow.reauth?.control !== undefined) {
      const control = provider.flow.reauth.control(context, provider, { csrfToken, callbackUrl })
      parts.push(control.markup)
      scripts.push(control.script)
    } else if (way.kind === "totp") {
      parts.push(
        `<form method="post" action="${action}">${hidden}<label for="reauth-totp">Code from your authenticator app</label><input id="reauth-totp" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required><button type="submit" class="button${primary}>Continue</button></form>`,
      )
    } else if (way.kind === "credentials" && provider !== undefined) {
      const fields = way.fields ?? []
      const inputs = fields.map((field) => input(`reauth-${provider.id}`, { ...field, autocomplete: field.autocomplete ?? (field.type === "password" ? "current-password" : undefined) })).join("")
      parts.push(`<form method="post" action="${action}">${hidden}${inputs}<button type="submit" class="button${primary}>Continue with ${escapeHtml(provider.name)}</button></form>`)
    } else if (way.kind === "oidc" && provider !== undefined) {
      parts.push(`<form method="post" action="${action}">${hidden}<button type="submit" class="button${primary}>Continue with ${escapeHtml(provider.name)}</button></form>`)
    } else if (way.kind === "email" && provider !== undefined) {
      const to = params.email === undefined ? "your address" : maskedAddress(params.email)
      parts.push(`<form method="post" action="${action}">${hidden}<button type="submit" class="button${primary}>Email a link to ${escapeHtml(to)}</button></form>`)
    }
  }
  const signIn = escapeHtml(params.signInUrl)
  const body =
    parts.length === 0
      ? `<h1>Sign in again</h1><p>There is no way to confirm it is you on this page. Sign in again to continue.</p><a class="button primary" href="${signIn}"${button}>Sign in</a>`
      : `<h1>Confirm it is you</h1><p>This step needs a recent sign-in. Confirm it is still you to continue.</p>${errorLine(params.error)}${parts.join("")}<p class="links"><a href="${signIn}">Sign in again instead</a></p>`
  const response = html(context, layout(context.config.theme, "Confirm it is you", body, context.origin))
  if (scripts.length > 0) {
    admitScripts(response.headers, ["'self'", ...scripts], { connect: true })
  }
  return response
}
