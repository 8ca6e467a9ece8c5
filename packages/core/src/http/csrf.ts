/**
 * CSRF protection: a double-submit token whose cookie carries an HMAC bound to the secret, so
 * a cookie planted by a sibling subdomain is not accepted.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended
 */
import type { RequestContext } from "../internal.js"
import { deriveKeys, hmac, randomString, verifyHmac, type SecretKey } from "../crypto/crypto.js"
import type { MissingCSRF } from "../errors/flow-errors.js"
import type { CsrfFailure } from "./other-loopback.js"

const SALT = "authjs.csrf"
const BINDING_SALT = "authjs.flow-binding"
async function readCookieToken(context: RequestContext): Promise<string | undefined> {
  const value = context.jar.get(context.cookies.csrfToken.name)
  if (value === undefined || value.length > 256) return undefined
  const bar = value.indexOf("|")
  if (bar <= 0) return undefined
  const token = value.slice(0, bar)
  const valid = await verifyHmac(token, value.slice(bar + 1), await deriveKeys(context.config.secrets, SALT, "hmac"))
  return valid ? token : undefined
}

/** The CSRF token of this browser: the one its cookie holds, or a new one set on the response. */
export async function csrfToken(context: RequestContext): Promise<string> {
  const existing = await readCookieToken(context)
  if (existing !== undefined) return existing
  const token = randomString(32)
  // The first secret's key signs; the list is passed whole so its derived keys stay cached.
  const [key] = await deriveKeys(context.config.secrets, SALT, "hmac")
  const cookie = context.cookies.csrfToken
  context.setCookies.push({ name: cookie.name, value: `${token}|${await hmac(token, key as SecretKey)}`, options: cookie.options })
  return token
}

/**
 * For a server call (`context.serverCall`), which skips the token check: makes sure the browser
 * holds a CSRF cookie, setting a new one on the response (and in this request's jar) when it has
 * none, so a flow started here binds its checks to {@link browserBinding} as one started from a
 * form does.
 */
export async function ensureCsrfCookie(context: RequestContext): Promise<void> {
  if ((await readCookieToken(context)) !== undefined) return
  await csrfToken(context)
  // `csrfToken` has just queued the new cookie last.
  const cookie = context.setCookies.at(-1)
  if (cookie !== undefined) context.jar.set(cookie.name, cookie.value)
}

function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/**
 * Checks the token a state-changing POST carries against the browser's CSRF cookie; a server
 * call (`context.serverCall`), which no request can make, carries none and is not checked.
 * `openedAt` is where the posting page says it was opened (the sign-in page's hidden field),
 * read, like the `Origin` and `Referer` headers, only to explain a refusal.
 *
 * @throws {MissingCSRF} when the form has no token, the cookie is missing or forged, or they differ.
 */
export async function verifyCsrf(context: RequestContext, submitted: string | null, openedAt?: string | null): Promise<void> {
  // Core's own server-side call for server code (see `RequestContext.serverCall`): no form, no token.
  if (context.serverCall === true) return
  if (submitted === null || submitted === "") throw await refusal(context, openedAt, "noToken")
  const expected = await readCookieToken(context)
  if (expected === undefined) throw await refusal(context, openedAt, "noCookie")
  if (!equal(expected, submitted)) throw await refusal(context, openedAt, "mismatch")
}

/**
 * The refusal, in words, naming the likely cause when the posting page was on another loopback
 * name than the app's (`./other-loopback.ts`, fetched with the refusal: a passing check never
 * loads it).
 */
async function refusal(context: RequestContext, claimed: string | null | undefined, reason: CsrfFailure): Promise<MissingCSRF> {
  return (await import("./other-loopback.js")).csrfRefusal(context, claimed, reason)
}

/**
 * A digest of this browser's CSRF token, or `undefined` when it has no valid CSRF cookie. The
 * CSRF cookie is `__Host-` on https, so no other host can plant it: check values sealed with
 * this digest are refused in any other browser.
 */
export async function browserBinding(context: RequestContext): Promise<string | undefined> {
  const token = await readCookieToken(context)
  if (token === undefined) return undefined
  const [key] = await deriveKeys(context.config.secrets, BINDING_SALT, "hmac")
  return hmac(token, key as SecretKey)
}
