/**
 * The pages of password accounts: sign-up, the confirmation a mailed link opens, forgot
 * password, reset and change, and what the built-in sign-in page gains (its links to these and a
 * show-password toggle). Plain forms that work without script; the one script, the toggle, is
 * admitted by its hash alone. Fields carry the `autocomplete` tokens password managers read:
 * `username` for the address, `new-password` where one is chosen, `current-password` where one
 * is typed.
 *
 * @see https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill
 */
import { html } from "../http/context.js"
import { admitScripts } from "../http/script-policy.js"
import type { RequestContext } from "../internal.js"
import { hiddenInput, escapeHtml, layout, themeButtonStyle } from "../pages/layout.js"
import { input, type InputField } from "../pages/index.js"

/** Shows or hides the password of the field its button names; the button shows only once the script runs. */
const TOGGLE_SCRIPT =
  'document.querySelectorAll("[data-show-password]").forEach(function(b){var i=document.getElementById(b.getAttribute("aria-controls"));if(!i)return;b.hidden=false;b.addEventListener("click",function(){var s=i.type==="password";i.type=s?"text":"password";b.setAttribute("aria-pressed",String(s));b.textContent=s?"Hide password":"Show password"})})'

const STYLES = `.show-password{display:block;margin:-.5rem 0 .75rem auto;padding:.25rem .5rem;border:1px solid var(--border);border-radius:6px;background:var(--card);color:var(--link);font:inherit;font-size:.875rem;cursor:pointer}
.sent{text-align:left}`

let scriptSource: Promise<string> | undefined

/** The toggle's CSP source, `'sha256-…'` (standard base64, as CSP reads it). */
export function toggleScriptSource(): Promise<string> {
  scriptSource ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(TOGGLE_SCRIPT)).then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`)
  return scriptSource
}

/** The refusals a page can show, by the public code its URL carries. */
const MESSAGES: Readonly<Record<string, string>> = {
  invalidEmail: "Enter one email address, such as you@example.com.",
  tooShort: "This password is too short.",
  tooLong: "This password is too long.",
  common: "This password is too common: it is among the first an attacker tries. Choose another.",
  breached: "This password has appeared in a data breach, so attackers have it. Choose another.",
  invalidToken: "This link has expired or was used already. Ask for a new one below.",
  invalidCredentials: "The current password is not right.",
  emailTaken: "An account with this address exists already. Sign in, or reset its password.",
  noPassword: "Your account has no password yet: set a first one with “Forgot your password?” on the sign-in page.",
  rateLimited: "Too many wrong passwords: try again in a few minutes.",
}

/** A refusal's sentence, when the code is one the pages know. */
function alert(error: string | null | undefined, rules?: { minLength: number; maxLength: number }): string {
  if (error === null || error === undefined || !Object.hasOwn(MESSAGES, error)) return ""
  let message = MESSAGES[error] as string
  if (rules !== undefined && error === "tooShort") message = `This password is too short: use at least ${String(rules.minLength)} characters.`
  if (rules !== undefined && error === "tooLong") message = `This password is too long: use at most ${String(rules.maxLength)} characters.`
  return `<p class="error" role="alert">${escapeHtml(message)}</p>`
}

/** A password field with its show-password button. */
function passwordField(id: string, field: Omit<InputField, "type">, rules?: { minLength: number; maxLength: number }): string {
  const hint = rules === undefined ? [] : ([["minlength", String(rules.minLength)], ["aria-describedby", `${id}-${field.name}-hint`]] as const)
  const note = rules === undefined ? "" : `<p class="muted hint" id="${escapeHtml(`${id}-${field.name}-hint`)}">At least ${String(rules.minLength)} characters. A few unrelated words make a strong one.</p>`
  const control = `${id}-${field.name}`
  return `${input(id, { ...field, type: "password", attributes: hint })}${note}<button type="button" class="show-password" data-show-password aria-controls="${escapeHtml(control)}" aria-pressed="false" hidden>Show password</button>`
}

/** A page of these forms, its policy admitting the toggle's script by hash. */
async function page(context: RequestContext, title: string, body: string, status = 200): Promise<Response> {
  const response = html(context, layout(context.config.theme, title, body, context.origin, STYLES), status)
  admitScripts(response.headers, [await toggleScriptSource()])
  return response
}

function script(): string {
  return `<script>${TOGGLE_SCRIPT}</script>`
}

function button(context: RequestContext, label: string): string {
  return `<button type="submit" class="button primary"${themeButtonStyle(context.config.theme)}>${escapeHtml(label)}</button>`
}

/** The URL of a password page (`{basePath}/password/<route>`) on the request's origin, with the query values that are set. */
export function routeUrl(context: RequestContext, route: string, query?: Record<string, string | undefined>): string {
  const url = new URL(`${context.config.basePath}/password/${route}`, context.origin)
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

/** The links under a password form: back to the sign-in page, and the other password pages. */
function links(context: RequestContext, callbackUrl: string | undefined, shown: readonly ("signin" | "signup" | "forgot")[]): string {
  const signIn = new URL(`${context.config.basePath}/signin`, context.origin)
  if (callbackUrl !== undefined) signIn.searchParams.set("callbackUrl", callbackUrl)
  const all = {
    signin: `<a href="${escapeHtml(signIn.href)}">Sign in</a>`,
    signup: `<a href="${escapeHtml(routeUrl(context, "signup", { callbackUrl }))}">Create an account</a>`,
    forgot: `<a href="${escapeHtml(routeUrl(context, "reset-request", { callbackUrl }))}">Forgot your password?</a>`,
  }
  return `<p class="links">${shown.map((name) => all[name]).join("")}</p>`
}

/** `GET /password/signup`: the sign-up form, or (after it was sent) what happens next. */
export function signUpPage(
  context: RequestContext,
  params: { csrfToken: string; callbackUrl: string | undefined; rules: { minLength: number; maxLength: number }; error: string | null; sent: boolean },
): Promise<Response> {
  if (params.sent) {
    return page(
      context,
      "Check your email",
      `<h1>Check your email</h1><p class="sent">If the address can be used, we have sent it a link to confirm it. Open it to finish creating your account, then sign in.</p>${links(context, params.callbackUrl, ["signin"])}`,
    )
  }
  const id = "password-signup"
  const form =
    `<form method="post" action="${escapeHtml(routeUrl(context, "signup"))}">${alert(params.error, params.rules)}${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}` +
    input(id, { name: "name", label: "Name (optional)", type: "text", autocomplete: "name", required: false }) +
    input(id, { name: "email", label: "Email", type: "email", autocomplete: "username", placeholder: "you@example.com" }) +
    passwordField(id, { name: "password", label: "Password", autocomplete: "new-password" }, params.rules) +
    `${button(context, "Create account")}</form>`
  return page(context, "Create an account", `<h1>Create an account</h1>${form}${links(context, params.callbackUrl, ["signin"])}${script()}`)
}

/** `GET /password/reset-request`: the forgot-password form, or (after it was sent) what happens next. */
export function forgotPage(context: RequestContext, params: { csrfToken: string; callbackUrl: string | undefined; error: string | null; sent: boolean }): Promise<Response> {
  if (params.sent) {
    return page(
      context,
      "Check your email",
      `<h1>Check your email</h1><p class="sent">If an account has this address, we have sent it a link to choose a new password. It works once, within 15 minutes.</p>${links(context, params.callbackUrl, ["signin"])}`,
    )
  }
  const form =
    `<form method="post" action="${escapeHtml(routeUrl(context, "reset-request"))}">${alert(params.error)}${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}` +
    input("password-forgot", { name: "email", label: "Email", type: "email", autocomplete: "username", placeholder: "you@example.com" }) +
    `${button(context, "Email me a link")}</form>`
  return page(
    context,
    "Forgot your password?",
    `<h1>Forgot your password?</h1><p class="muted">Enter the address you sign in with: we mail it a link to choose a new password. This also sets a first password for an account that has none.</p>${form}${links(context, params.callbackUrl, ["signin", "signup"])}`,
  )
}

/** `GET /password/reset?token=`: the form that sets a new password with the link's token, or the page after. */
export function resetPage(context: RequestContext, params: { csrfToken: string; token: string | undefined; rules: { minLength: number; maxLength: number }; error: string | null; done: boolean }): Promise<Response> {
  if (params.done) {
    return page(
      context,
      "Password changed",
      `<h1>Password changed</h1><p class="sent">Your new password is set, and every session of your account was signed out. Sign in with it now.</p>${links(context, undefined, ["signin"])}`,
    )
  }
  if (params.token === undefined) {
    return page(context, "Link expired", `<h1>Link expired</h1>${alert("invalidToken")}${links(context, undefined, ["forgot", "signin"])}`, 400)
  }
  const id = "password-reset"
  const form =
    `<form method="post" action="${escapeHtml(routeUrl(context, "reset"))}">${alert(params.error, params.rules)}${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("token", params.token)}` +
    passwordField(id, { name: "password", label: "New password", autocomplete: "new-password" }, params.rules) +
    `${button(context, "Set new password")}</form>`
  return page(context, "Choose a new password", `<h1>Choose a new password</h1>${form}${script()}`)
}

/** `GET /password/change`: the form for a signed-in user, or the page after. */
export function changePage(context: RequestContext, params: { csrfToken: string; callbackUrl: string | undefined; rules: { minLength: number; maxLength: number }; error: string | null; done: boolean }): Promise<Response> {
  const back = params.callbackUrl === undefined ? "" : `<p class="links"><a href="${escapeHtml(params.callbackUrl)}">Back</a></p>`
  if (params.done) {
    return page(context, "Password changed", `<h1>Password changed</h1><p class="sent">Your new password is set. Your other sessions were signed out; this one goes on.</p>${back}`)
  }
  const id = "password-change"
  const form =
    `<form method="post" action="${escapeHtml(routeUrl(context, "change"))}">${alert(params.error, params.rules)}${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}` +
    passwordField(id, { name: "currentPassword", label: "Current password", autocomplete: "current-password" }) +
    passwordField(id, { name: "newPassword", label: "New password", autocomplete: "new-password" }, params.rules) +
    `${button(context, "Change password")}</form>`
  return page(context, "Change your password", `<h1>Change your password</h1>${form}${back}${script()}`)
}

/** `GET /password/verify?token=`: the button that confirms the address (a mail scanner's GET confirms nothing), or the page after. */
export function verifyPage(context: RequestContext, params: { csrfToken: string; token: string | undefined; done: boolean }): Promise<Response> {
  if (params.done) {
    return page(context, "Address confirmed", `<h1>Address confirmed</h1><p class="sent">Your account is ready: sign in with your address and password.</p>${links(context, undefined, ["signin"])}`)
  }
  if (params.token === undefined) {
    return page(context, "Link expired", `<h1>Link expired</h1><p class="error" role="alert">This link has expired or was used already. Sign in with your address and password: we mail a new link to an address still to be confirmed.</p>${links(context, undefined, ["signin"])}`, 400)
  }
  const form = `<form method="post" action="${escapeHtml(routeUrl(context, "verify"))}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("token", params.token)}${button(context, "Confirm my address")}</form>`
  return page(context, "Confirm your address", `<h1>Confirm your address</h1><p>Confirm that this address is yours to finish creating your account.</p>${form}`)
}

/** Where the sign-in page's card ends: the links go after the password form. */
const CARD_END = "</div></main>"

/**
 * Adds to the built-in sign-in page the password form's show-password toggle and its links
 * (forgot password, create an account), and admits the toggle's script by its hash.
 */
export async function decorateSignInPage(context: RequestContext, providerId: string, response: Response, callbackUrl: string | undefined): Promise<Response> {
  let body = await response.text()
  const control = `${providerId}-password`
  const field = body.indexOf(`id="${escapeHtml(control)}"`)
  if (field >= 0) {
    const end = body.indexOf(">", field) + 1
    body = `${body.slice(0, end)}<button type="button" class="show-password" data-show-password aria-controls="${escapeHtml(control)}" aria-pressed="false" hidden>Show password</button>${body.slice(end)}`
  }
  const at = body.lastIndexOf(CARD_END)
  if (at >= 0) body = `${body.slice(0, at)}${links(context, callbackUrl, ["forgot", "signup"])}${script()}${body.slice(at)}`
  body = body.replace("</style>", `${STYLES}\n</style>`)
  const headers = new Headers(response.headers)
  admitScripts(headers, [await toggleScriptSource()])
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}
