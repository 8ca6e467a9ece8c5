/**
 * The passkey control of the built-in sign-in page, and the one script it runs, served by us
 * from our own origin (no CDN): the page's Content-Security-Policy admits only that script.
 */
import { errorMessages } from "../errors/error-messages.js"
import { admitScripts } from "../http/script-policy.js"
import type { RequestContext } from "../internal.js"
import type { FlowProvider } from "../internal.js"
import { escapeHtml } from "../pages/layout.js"
import type { WebAuthnOptions } from "./options.js"
import { PAGE_SCRIPT, PAGE_SCRIPT_INTEGRITY } from "./page-script.generated.js"

/**
 * What the control says, in place of the page's generic passkey error, after the server refused
 * a passkey it does not know (the client has just told the browser to forget it), or one this
 * browser made whose sign-up link is still to be followed (kept), by the refusal's `code`.
 */
const NOTICES: Readonly<Record<string, string>> = {
  unknown_credential: "This passkey is not registered here, so your browser was asked to stop offering it. Sign in another way, or create a new passkey.",
  waiting_credential: "This passkey is not set up yet: open the link we emailed you, in this browser, to finish. Then it signs you in.",
}

function attribute(name: string, value: string): string {
  return ` ${name}="${escapeHtml(value)}"`
}

/** The element that loads the page script from our own origin, pinned by its SRI hash. */
function scriptTag(context: RequestContext, provider: FlowProvider<WebAuthnOptions>): string {
  return `<script src="${escapeHtml(`${context.config.basePath}/webauthn-script/${encodeURIComponent(provider.id)}`)}" integrity="${PAGE_SCRIPT_INTEGRITY}" defer></script>`
}

/**
 * The control: an email field that offers saved passkeys as autofill (`autocomplete="username
 * webauthn"`), a sign-in button and a create button. Everything the script needs (routes, CSRF
 * token, where to go after) is in the markup, never derived from `location`.
 */
function passkeyControl(context: RequestContext, provider: FlowProvider<WebAuthnOptions>, page: { csrfToken: string; callbackUrl: string | undefined }, notice: string | undefined): string {
  const { formFields, enableConditionalUI } = provider.options
  const email = formFields.email
  const inputId = `${provider.id}-email`
  const field =
    email === undefined
      ? ""
      : // The field's one use is a new passkey's account address: the hint says so, in plain words, since the sign-in button beside it ignores it.
        `<label for="${escapeHtml(inputId)}">${escapeHtml(email.label ?? "Email")}</label><input id="${escapeHtml(inputId)}" name="email" type="email" autocomplete="${escapeHtml(email.autocomplete ?? "username webauthn")}" placeholder="${escapeHtml(email.placeholder ?? "you@example.com")}" aria-describedby="${escapeHtml(inputId)}-hint" data-passkey-email><p class="muted hint" id="${escapeHtml(inputId)}-hint">Only needed to create a passkey. To sign in with one, press the button: your browser offers your passkeys.</p>`
  const data =
    attribute("data-passkey-provider", provider.id) +
    attribute("data-base-path", context.config.basePath) +
    attribute("data-csrf-token", page.csrfToken) +
    attribute("data-callback-url", page.callbackUrl ?? context.origin) +
    // Not offered again at once beside a notice about the passkey it just offered.
    attribute("data-autofill", String(enableConditionalUI && email !== undefined && notice === undefined))
  const script = scriptTag(context, provider)
  return `<form class="passkey"${data} data-passkey-form>${field}<button type="submit" class="button primary" data-passkey-action="authenticate"><span>Sign in with ${escapeHtml(provider.name)}</span></button><button type="button" class="button" data-passkey-action="register"><span>Create a passkey</span></button><p class="error" role="alert" data-passkey-error${notice === undefined ? " hidden>" : `>${escapeHtml(notice)}`}</p></form>${script}`
}

/** Where the page's card ends: the control goes last in it. */
const CARD_END = "</div></main>"

/**
 * Adds the passkey control to the built-in sign-in page, after the other providers' forms, and
 * lets the page's Content-Security-Policy admit its one script (same origin, pinned by its SRI
 * hash) and the requests that script makes to our routes. Back from a passkey refused as unknown
 * or still waiting for its link, the control's own box says so instead of the page's generic
 * passkey error: one message.
 */
export async function decoratePage(context: RequestContext, provider: FlowProvider<WebAuthnOptions>, response: Response, page: { csrfToken: string; callbackUrl: string | undefined }): Promise<Response> {
  let body = await response.text()
  const query = context.url.searchParams
  const code = query.get("error") === "WebAuthnVerificationError" ? query.get("code") : null
  const notice = code !== null && Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined
  if (notice !== undefined) body = body.replace(`<p class="error" role="alert">${escapeHtml(errorMessages.WebAuthnVerificationError)}</p>`, "")
  const at = body.lastIndexOf(CARD_END)
  if (at < 0) return new Response(body, response)
  // Another provider's form (or another flow's control) is already there: set this one apart.
  const separator = body.lastIndexOf("<form", at) > body.indexOf('<div class="card">') ? '\n<p class="or">or</p>\n' : ""
  const headers = new Headers(response.headers)
  admitScripts(headers, ["'self'", `'${PAGE_SCRIPT_INTEGRITY}'`], { connect: true })
  const decorated = body.slice(0, at) + separator + passkeyControl(context, provider, page, notice) + body.slice(at)
  return new Response(decorated, { status: response.status, statusText: response.statusText, headers })
}

/** `GET /webauthn-script/:id`: the sign-in page's passkey script (SimpleWebAuthn's browser side bundled in). */
export function servePageScript(_context: RequestContext): Response {
  return new Response(PAGE_SCRIPT, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "same-origin",
    },
  })
}

/**
 * The re-authentication page's passkey control: one button whose script asks the re-authentication
 * route for options naming only the signed-in user's passkeys (`{basePath}/reauth/:id`), then posts
 * the assertion to this provider's callback, and the page's script source for its policy.
 */
export function reauthControl(context: RequestContext, provider: FlowProvider<WebAuthnOptions>, page: { csrfToken: string; callbackUrl: string }): { markup: string; script: string } {
  const data =
    attribute("data-passkey-provider", provider.id) +
    attribute("data-base-path", context.config.basePath) +
    attribute("data-csrf-token", page.csrfToken) +
    attribute("data-callback-url", page.callbackUrl)
  const script = scriptTag(context, provider)
  const markup = `<form class="passkey"${data} data-reauth-passkey><button type="submit" class="button primary"><span>Use your passkey</span></button><p class="error" role="alert" data-passkey-error hidden></p></form>${script}`
  return { markup, script: `'${PAGE_SCRIPT_INTEGRITY}'` }
}

/**
 * The second-factor page's passkey control (`factors/`' challenge draws the form): the data
 * attributes its script reads (the provider, where the routes live), the script element, and its
 * source for the page's policy. The script asks `{basePath}/webauthn-options/:id?action=mfa` for
 * the pending user's passkeys and posts the assertion in the form, to `{basePath}/mfa/verify`.
 */
export function secondFactorControl(context: RequestContext, provider: FlowProvider<WebAuthnOptions>): { attributes: string; script: string; source: string } {
  return {
    attributes: attribute("data-passkey-provider", provider.id) + attribute("data-base-path", context.config.basePath),
    script: scriptTag(context, provider),
    source: `'${PAGE_SCRIPT_INTEGRITY}'`,
  }
}
