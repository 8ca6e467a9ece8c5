/**
 * What a person typed into a refused credentials form, kept for the built-in sign-in page so a
 * wrong password does not also cost them their username. Only fields that are not `password`
 * fields are kept, in a short-lived HttpOnly cookie of their own browser, read once by the next
 * sign-in page, which escapes every value it puts back. Loaded with `import()` where it is used,
 * so only a refused sign-in fetches it.
 */
import { clearCookie } from "../http/cookies.js"
import type { RequestContext } from "../internal.js"
import type { InternalCredentialsProvider } from "./provider.js"

/** The most the cookie may hold: a username, not a document. A longer value is not kept. */
const MAX_KEPT = 1024

/**
 * Keeps the non-password fields of a refused form for the built-in sign-in page. Nothing is
 * kept when the app has its own sign-in page, or when every field is a password.
 */
export function keepTypedFields(context: RequestContext, provider: InternalCredentialsProvider, credentials: Readonly<Record<string, string>>): void {
  if (context.config.pages.signIn !== undefined) return
  const kept = new URLSearchParams({ provider: provider.id })
  for (const field of provider.fields) {
    const value = credentials[field.name]
    if (field.type !== "password" && value !== undefined && value !== "") kept.set(`field.${field.name}`, value)
  }
  // URLSearchParams encodes every byte a cookie value may not carry (space, comma, semicolon, quote, backslash).
  const value = kept.toString()
  if (kept.size < 2 || value.length > MAX_KEPT) return
  const cookie = context.cookies.credentialsInput
  context.setCookies.push({ name: cookie.name, value, options: cookie.options })
}

/**
 * The fields kept by {@link keepTypedFields} for `provider`'s form, for the sign-in page that
 * shows the refusal; the cookie is cleared whenever the browser sends it. Anything malformed is
 * dropped: the value comes from the request, and only names the provider declares are used.
 */
export function takeTypedFields(context: RequestContext, use: boolean, provider: InternalCredentialsProvider): ReadonlyMap<string, string> | undefined {
  const cookie = context.cookies.credentialsInput
  const raw = context.jar.get(cookie.name)
  if (raw === undefined) return undefined
  if (!context.setCookies.some((queued) => queued.name === cookie.name)) context.setCookies.push(clearCookie(cookie))
  if (!use || raw.length > MAX_KEPT) return undefined
  const kept = new URLSearchParams(raw)
  if (kept.get("provider") !== provider.id) return undefined
  const values = new Map<string, string>()
  for (const field of provider.fields) {
    const value = kept.get(`field.${field.name}`)
    if (field.type !== "password" && value !== null) values.set(field.name, value)
  }
  return values
}
