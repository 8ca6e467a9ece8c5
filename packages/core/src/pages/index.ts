/**
 * The built-in pages: sign-in, sign-out, error. Plain HTML forms, every value escaped, no
 * script, styled by the theme and each provider's brand color. The email pages are in
 * `./email.ts`.
 */
import { errorMessages, type AuthErrorCode } from "../errors.js"
import type { ProviderButtonStyles } from "../providers/index.js"
import type { Theme } from "../types.js"
import { escapeHtml, hiddenInput, layout, safeColor, textOn } from "./layout.js"

/** A provider as the sign-in page lists it: `action` is where its form posts. */
export interface PageProvider {
  id: string
  name: string
  type: "oauth" | "oidc" | "email" | "credentials"
  action: string
  style: ProviderButtonStyles
  /** The inputs of a credentials form. */
  fields?: readonly { name: string; label: string; type: string; placeholder: string | undefined }[]
}

function input(id: string, field: { name: string; label: string; type: string; placeholder?: string | undefined; autocomplete?: string }): string {
  const inputId = escapeHtml(`${id}-${field.name}`)
  const placeholder = field.placeholder === undefined ? "" : ` placeholder="${escapeHtml(field.placeholder)}"`
  const autocomplete = field.autocomplete === undefined ? "" : ` autocomplete="${field.autocomplete}"`
  return `<label for="${inputId}">${escapeHtml(field.label)}</label><input id="${inputId}" name="${escapeHtml(field.name)}" type="${escapeHtml(field.type)}"${placeholder}${autocomplete} required>`
}

function buttonStyle(style: ProviderButtonStyles): string {
  // The deprecated `bg` and `text` are still honoured for providers written against older versions.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const color = safeColor(style.brandColor ?? style.bg)
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const text = safeColor(style.text)
  return color === undefined ? "" : ` style="background:${color};color:${text ?? textOn(color)}"`
}

function providerForm(provider: PageProvider, hidden: string): string {
  let inputs = ""
  if (provider.type === "email") {
    inputs = input(provider.id, { name: "email", label: "Email", type: "email", placeholder: "you@example.com", autocomplete: "email" })
  } else if (provider.type === "credentials") {
    // Password managers fill a form whose fields say what they are.
    const autocomplete = (field: { name: string; type: string }): string | undefined =>
      field.type === "password" ? "current-password" : field.name === "username" ? "username" : undefined
    inputs = (provider.fields ?? []).map((field) => input(provider.id, { ...field, autocomplete: autocomplete(field) })).join("")
  }
  return `<form method="post" action="${escapeHtml(provider.action)}">${hidden}${inputs}<button type="submit"${buttonStyle(provider.style)}>Sign in with ${escapeHtml(provider.name)}</button></form>`
}

/**
 * The sign-in page: one form (CSRF token, callback URL) per provider; OAuth buttons first,
 * then the email and credentials forms with their inputs, each group set apart.
 */
export function renderSignIn(params: {
  theme: Theme
  providers: PageProvider[]
  csrfToken: string
  callbackUrl: string | undefined
  error: AuthErrorCode | undefined
}): string {
  const error =
    params.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(errorMessages[params.error])}</p>`
  const hidden = `${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}`
  const groups = [
    params.providers.filter((provider) => provider.type === "oauth" || provider.type === "oidc"),
    params.providers.filter((provider) => provider.type === "email"),
    params.providers.filter((provider) => provider.type === "credentials"),
  ]
    .filter((group) => group.length > 0)
    .map((group) => group.map((provider) => providerForm(provider, hidden)).join("\n"))
  return layout(params.theme, "Sign in", `<h1>Sign in</h1>${error}${groups.join("\n<hr>\n")}`)
}

/** The sign-out confirmation page. */
export function renderSignOut(params: { theme: Theme; action: string; csrfToken: string; callbackUrl: string | undefined }): string {
  return layout(
    params.theme,
    "Sign out",
    `<h1>Are you sure you want to sign out?</h1><form method="post" action="${escapeHtml(params.action)}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}<button type="submit">Sign out</button></form>`,
  )
}

/** The error page: the code's fixed sentence and a way back. */
export function renderError(params: { theme: Theme; code: AuthErrorCode | undefined; homeUrl: string; signinUrl: string }): string {
  const message = params.code === undefined ? "Something went wrong while signing in." : errorMessages[params.code]
  return layout(
    params.theme,
    "Error",
    `<h1>Sign-in error</h1><p class="error" role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(params.signinUrl)}">Sign in</a> · <a href="${escapeHtml(params.homeUrl)}">Home</a></p>`,
  )
}
