/**
 * CSRF protection: a double-submit token whose cookie carries an HMAC bound to the secret, so
 * a cookie planted by a sibling subdomain is not accepted.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended
 */
import type { RequestContext } from "./internal.js"
import { deriveKeys, hmac, randomString, verifyHmac, type SecretKey } from "./crypto.js"
import { MissingCSRF } from "./errors.js"

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

function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/**
 * Checks the token a state-changing POST carries against the browser's CSRF cookie.
 *
 * @throws {MissingCSRF} when the form has no token, the cookie is missing or forged, or they differ.
 */
export async function verifyCsrf(context: RequestContext, submitted: string | null): Promise<void> {
  if (submitted === null || submitted === "") throw new MissingCSRF("The request has no `csrfToken`: fetch one from GET /csrf and send it with the form.")
  const expected = await readCookieToken(context)
  if (expected === undefined) throw new MissingCSRF("The CSRF cookie is missing or was not set by this server.")
  if (!equal(expected, submitted)) throw new MissingCSRF("The submitted `csrfToken` does not match the CSRF cookie.")
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
