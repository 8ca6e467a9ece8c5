/**
 * The built-in pages: sign-in, sign-out, error and "page not found". Plain HTML forms, every
 * value escaped, no script, styled by the theme and each provider's brand color and logo. The
 * email pages are in `./email.ts`.
 */
import type { AuthErrorCode } from "../errors/error-codes.js"
import { errorMessages, signInPageMessages } from "../errors/error-messages.js"
import type { PageEntry } from "../internal.js"
import type { ProviderButtonStyles, Theme } from "../model.js"
import { brandButtonStyle, escapeHtml, hiddenInput, homePage, layout, logoMarkup, themeButtonStyle } from "./layout.js"

/** A provider as the sign-in page lists it: what its flow draws (`kind`), and `action`, where its form posts. */
export interface PageProvider extends PageEntry {
  id: string
  name: string
  action: string
  style: ProviderButtonStyles
}

/** One field of a built-in form, for {@link input}. */
export interface InputField {
  name: string
  label: string
  type: string
  placeholder?: string | undefined
  autocomplete?: string | undefined
  /** What the person typed before, shown again (escaped: it comes from the request). */
  value?: string | undefined
  autofocus?: boolean
  /** Default `true`. */
  required?: boolean
  attributes?: readonly (readonly [name: string, value: string | true])[]
}

/** One labelled `<input>` of a built-in form, its id `{id}-{name}`, every value escaped. */
export function input(id: string, field: InputField): string {
  const inputId = escapeHtml(`${id}-${field.name}`)
  const placeholder = field.placeholder === undefined ? "" : ` placeholder="${escapeHtml(field.placeholder)}"`
  const autocomplete = field.autocomplete === undefined ? "" : ` autocomplete="${escapeHtml(field.autocomplete)}"`
  const value = field.value === undefined ? "" : ` value="${escapeHtml(field.value)}"`
  const attributes = (field.attributes ?? []).filter(([name]) => name !== "autofocus" || field.autofocus !== true)
  const autofocus = field.autofocus === true ? " autofocus" : ""
  const more = attributes.map(([name, text]) => (text === true ? ` ${name}` : ` ${name}="${escapeHtml(text)}"`)).join("")
  const required = field.required === false ? "" : " required"
  return `<label for="${inputId}">${escapeHtml(field.label)}</label><input id="${inputId}" name="${escapeHtml(field.name)}" type="${escapeHtml(field.type)}"${placeholder}${autocomplete}${value}${autofocus}${more}${required}>`
}

/**
 * A provider's button: its brand color and logo; a provider without a brand color (email,
 * credentials) takes the theme's. The deprecated `bg` and `text` are still honoured for
 * providers written against older versions.
 */
function providerButton(provider: PageProvider, theme: Theme): string {
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const brand = provider.style.brandColor ?? provider.style.bg
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const style = brand === undefined ? themeButtonStyle(theme) : brandButtonStyle(brand, provider.style.text)
  const logo = logoMarkup(provider.style.logo, "logo")
  return `<button type="submit" class="button primary"${style}>${logo}<span>Sign in with ${escapeHtml(provider.name)}</span></button>`
}

/**
 * One provider's form. A refused credentials form (`refusal`) shows the refusal inside it,
 * above its fields, with the fields typed before filled in again and the first empty one focused.
 */
function providerForm(provider: PageProvider, hidden: string, theme: Theme, refusal?: { alert: string; values: ReadonlyMap<string, string> }): string {
  let inputs = ""
  if (provider.kind === "email") {
    inputs = input(provider.id, { name: "email", label: "Email", type: "email", placeholder: "you@example.com", autocomplete: "email" })
  } else if (provider.kind === "fields") {
    // Password managers fill a form whose fields say what they are.
    const autocomplete = (field: { name: string; type: string }): string | undefined =>
      field.type === "password" ? "current-password" : field.name === "username" ? "username" : undefined
    const fields = provider.fields ?? []
    const focus = refusal === undefined ? undefined : fields.find((field) => !refusal.values.has(field.name))?.name
    inputs = fields
      .map((field) => input(provider.id, { ...field, autocomplete: field.autocomplete ?? autocomplete(field), value: refusal?.values.get(field.name), autofocus: field.name === focus }))
      .join("")
  }
  return `<form method="post" action="${escapeHtml(provider.action)}">${refusal?.alert ?? ""}${hidden}${inputs}${providerButton(provider, theme)}</form>`
}

/**
 * The app's loopback origin and another loopback name the browser was on: this page (`here`,
 * with a link to the sign-in page on the app's origin), or the page whose form just failed its
 * CSRF check. Both are origins only, checked to be loopback names; `openedAt` is never a link.
 */
export interface SignInOrigins {
  app: string
  openedAt: string
  here: boolean
  /** The sign-in page on the app's origin, keeping the requested page, when `here`. */
  signInUrl?: string
}

function originsNotice(origins: SignInOrigins): string {
  if (origins.here) {
    const link = origins.signInUrl === undefined ? "" : ` <a href="${escapeHtml(origins.signInUrl)}">Open the sign-in page at ${escapeHtml(origins.app)}</a>`
    return `<p class="error" role="alert">${escapeHtml(`This app's address is ${origins.app}, but this page was opened at ${origins.openedAt}: signing in only works at ${origins.app}.`)}${link}</p>`
  }
  return `<p class="error" role="alert">${escapeHtml(`This app's address is ${origins.app}, but the page was opened at ${origins.openedAt}, so its form could not be checked. You are now at ${origins.app}: sign in again here.`)}</p>`
}

/** Who is signed in, for the sign-in page of someone who already is. */
export interface SignedInNotice {
  /** The session's user (from the session, so escaped where shown). */
  user: { name?: string | null; email?: string | null }
  signOutUrl: string
}

/**
 * "You are signed in as …", with the way on to `callbackUrl` when there is one (its path on the
 * app's own origin) and the way out: signing in below then links or switches accounts knowingly.
 */
function signedInNotice(signedIn: SignedInNotice, callbackUrl: string | undefined, origin: string): string {
  const { name, email } = signedIn.user
  const who = typeof name === "string" && name !== "" ? `<strong>${escapeHtml(name)}</strong>${typeof email === "string" && email !== "" ? ` (${escapeHtml(email)})` : ""}` : typeof email === "string" && email !== "" ? `<strong>${escapeHtml(email)}</strong>` : undefined
  let onward = ""
  if (callbackUrl !== undefined) {
    const target = new URL(callbackUrl)
    const label = target.origin === origin ? `${target.pathname}${target.search}${target.hash}` : target.href
    onward = `<a href="${escapeHtml(target.href)}">Continue to ${escapeHtml(label)}</a>`
  }
  return `<div class="notice signed-in"><p>${who === undefined ? "You are signed in." : `You are signed in as ${who}.`}</p><p class="links">${onward}<a href="${escapeHtml(signedIn.signOutUrl)}">Sign out</a></p></div>`
}

/**
 * The sign-in page: one form (CSRF token, callback URL) per provider; OAuth buttons first,
 * then the email and credentials forms with their inputs, each group set apart by "or".
 * A refused credentials sign-in is shown inside the form it refers to, with what was typed
 * (its `values`); a sign-in the person cancelled is a neutral notice, not an error.
 */
export function renderSignIn(params: {
  theme: Theme
  /** The app's origin. */
  homeUrl: string
  providers: PageProvider[]
  csrfToken: string
  callbackUrl: string | undefined
  error: AuthErrorCode | undefined
  /** Another loopback name than the app's, seen on this page or the form before it. */
  origins?: SignInOrigins | undefined
  /** Who is signed in already, and where their sign-out page is (back to this page after). */
  signedIn?: SignedInNotice | undefined
}): string {
  const { origins } = params
  // The other name explains a MissingCSRF better than "open for too long", which it replaces.
  const explained = origins !== undefined && params.error === "MissingCSRF"
  const originsAlert = origins !== undefined && (origins.here || explained) ? originsNotice(origins) : ""
  const error = explained ? undefined : params.error
  const notice = error === undefined ? undefined : signInPageMessages[error]
  const message = error === undefined || notice !== undefined ? undefined : errorMessages[error]
  const alert = message === undefined ? "" : `<p class="error" role="alert">${escapeHtml(message)}</p>`
  const forms = params.providers.filter((provider) => provider.kind === "fields")
  // The refusal names no provider in its URL: the form whose typed values came back when known, else the first.
  const refused = params.error === "CredentialsSignin" ? (forms.find((provider) => provider.values !== undefined) ?? forms[0]) : undefined
  const refusal = (provider: PageProvider) => (provider === refused ? { alert, values: provider.values ?? new Map<string, string>() } : undefined)
  const top = originsAlert + (params.signedIn === undefined ? "" : signedInNotice(params.signedIn, params.callbackUrl, params.homeUrl)) + (notice === undefined ? (refused === undefined ? alert : "") : `<p class="notice" role="status">${escapeHtml(notice)}</p>`)
  // A browser posting across loopback names sends `Origin: null`: the form says where it was opened, to explain a refusal.
  const hidden = `${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}${hiddenInput("openedAt", origins?.here === true ? origins.openedAt : undefined)}`
  const groups = [
    params.providers.filter((provider) => provider.kind === "button"),
    params.providers.filter((provider) => provider.kind === "email"),
    forms,
  ]
    .filter((group) => group.length > 0)
    .map((group) => group.map((provider) => providerForm(provider, hidden, params.theme, refusal(provider))).join("\n"))
  return layout(params.theme, "Sign in", `<h1>Sign in</h1>${top}${groups.join('\n<p class="or">or</p>\n')}`, params.homeUrl)
}

/** The sign-out confirmation page, with a way back for a person who changed their mind. */
export function renderSignOut(params: { theme: Theme; action: string; csrfToken: string; callbackUrl: string | undefined; homeUrl: string }): string {
  return layout(
    params.theme,
    "Sign out",
    `<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form method="post" action="${escapeHtml(params.action)}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}<button type="submit" class="button primary"${themeButtonStyle(params.theme)}>Sign out</button></form><p class="links"><a href="${escapeHtml(params.callbackUrl ?? homePage(params.theme, params.homeUrl))}">Stay signed in</a></p>`,
    params.homeUrl,
  )
}

/** The links under a failure: start the sign-in again, or leave. */
function wayBack(signinUrl: string, home: string): string {
  return `<p class="links"><a href="${escapeHtml(signinUrl)}">Try signing in again</a><a href="${escapeHtml(home)}">Go to the home page</a></p>`
}

/**
 * The error page: the code's fixed sentence and a way back. `logged` says core has just logged
 * this failure, so the page may point the site owner at the log: only a page rendered in the
 * failing request knows that, never one reached through a URL anybody can type.
 */
export function renderError(params: { theme: Theme; code: AuthErrorCode | undefined; homeUrl: string; signinUrl: string; logged?: boolean }): string {
  const message = params.code === undefined ? "Something went wrong while signing in. Please try again." : errorMessages[params.code]
  const owner = params.logged === true ? `<p class="muted">Site owner: the server log says what went wrong.</p>` : ""
  return layout(
    params.theme,
    "Sign-in problem",
    `<h1>We could not sign you in</h1><p class="error" role="alert">${escapeHtml(message)}</p>${owner}${wayBack(params.signinUrl, homePage(params.theme, params.homeUrl))}`,
    params.homeUrl,
  )
}

/** The page a browser gets for an address under the base path that no route serves. */
export function renderNotFound(params: { theme: Theme; homeUrl: string; signinUrl: string }): string {
  return layout(
    params.theme,
    "Page not found",
    `<h1>Page not found</h1><p>${escapeHtml(errorMessages.UnknownAction)}</p><p class="links"><a href="${escapeHtml(params.signinUrl)}">Go to the sign-in page</a><a href="${escapeHtml(homePage(params.theme, params.homeUrl))}">Go to the home page</a></p>`,
    params.homeUrl,
  )
}
