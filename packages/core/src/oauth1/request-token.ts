/**
 * The request token between leaving for the provider and coming back: sealed (with its secret)
 * in a short-lived HttpOnly cookie bound to the provider that issued it and to the origin and
 * browser that started the sign-in, so any instance sharing the secret can finish it, no URL
 * ever carries the secret, and no other provider's callback takes it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-4.2 Confidentiality of Requests
 */
import { clearCookie, type SetCookie } from "../http/cookies.js"
import type { RequestContext } from "../internal.js"
import { deriveKeys, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { InvalidCheck } from "../errors/flow-errors.js"
import type { FlowBinding } from "../internal.js"

/** Seconds a sign-in may take between the request token and the callback. */
export const REQUEST_TOKEN_MAX_AGE = 15 * 60

const SALT = "authjs.oauth1"

/** What the cookie holds: the temporary credentials, the provider that issued them, and the flow's binding. */
export interface SealedRequestToken extends FlowBinding {
  token: string
  secret: string
  /** The id of the provider that issued the request token: only its callback completes the sign-in. */
  provider: string
}

interface Payload {
  t: string
  s: string
  p: string
  o: string
  b: string
  u?: string
  exp: number
}

/** The cookie that remembers a request token for this browser. */
export async function requestTokenCookie(context: RequestContext, sealed: SealedRequestToken): Promise<SetCookie> {
  const [key] = await deriveKeys(context.config.secrets, SALT, "jwe")
  const payload: Payload = { t: sealed.token, s: sealed.secret, p: sealed.provider, o: sealed.origin, b: sealed.browser, exp: Math.floor(Date.now() / 1000) + REQUEST_TOKEN_MAX_AGE }
  if (sealed.userId !== undefined) payload.u = sealed.userId
  const cookie = context.cookies.oauth1RequestToken
  return { name: cookie.name, value: await sealJwe(payload, key as SecretKey), options: { ...cookie.options, maxAge: REQUEST_TOKEN_MAX_AGE } }
}

/**
 * Opens this browser's request token cookie, clearing it on the response whatever happens next:
 * a callback is answered once (a replayed one finds no cookie).
 *
 * @throws {InvalidCheck} when the cookie is missing, expired or not ours, or was sealed for
 *   another provider, origin or browser.
 */
export async function takeRequestToken(context: RequestContext, provider: string, browser: string | undefined): Promise<SealedRequestToken> {
  const cookie = context.cookies.oauth1RequestToken
  const value = context.jar.get(cookie.name)
  if (value !== undefined) context.setCookies.push(clearCookie(cookie))
  if (value === undefined || value === "" || value.length > 4096) {
    throw new InvalidCheck("The OAuth 1.0a request token cookie is missing: the sign-in was not started by this browser, was already completed, or took longer than 15 minutes.")
  }
  const opened = await openJwe(value, await deriveKeys(context.config.secrets, SALT, "jwe"))
  const { t, s, p, o, b, u, exp } = (typeof opened === "object" && opened !== null ? opened : {}) as Partial<Record<keyof Payload, unknown>>
  if (typeof t !== "string" || typeof s !== "string" || typeof p !== "string" || typeof o !== "string" || typeof b !== "string" || typeof exp !== "number" || exp < Date.now() / 1000) {
    throw new InvalidCheck("The OAuth 1.0a request token cookie is expired or was not sealed by this server.")
  }
  // Before any other use: another provider's callback must not even send its token anywhere.
  if (p !== provider) throw new InvalidCheck(`The OAuth 1.0a request token was issued by provider "${p}", not "${provider}".`)
  if (o !== context.origin) throw new InvalidCheck(`The OAuth 1.0a request token was issued for a sign-in on ${o}, not ${context.origin}.`)
  if (browser === undefined || b !== browser) throw new InvalidCheck("The OAuth 1.0a request token belongs to a sign-in started in another browser.")
  context.sensitive.add(t)
  context.sensitive.add(s)
  const requestToken: SealedRequestToken = { token: t, secret: s, provider: p, origin: o, browser: b }
  return typeof u === "string" ? { ...requestToken, userId: u } : requestToken
}
