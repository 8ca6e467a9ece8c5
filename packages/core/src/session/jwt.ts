/**
 * `@portcullis/core/jwt`: the session JWT, sealed exactly as Auth.js seals it, so a cookie written by
 * either reads in the other: a compact JWE with `alg: "dir"` and `enc: "A256CBC-HS512"`, its
 * key derived with HKDF-SHA-256 from the secret and the salt (the cookie name), its `kid` the
 * key's JWK thumbprint, and the claims `iat`, `exp` and `jti` set on every seal.
 *
 * @example
 * ```ts
 * import { getToken } from "@portcullis/core/jwt"
 *
 * const token = await getToken({ req: request, secret: process.env.AUTH_SECRET })
 * if (token === null) return new Response("Sign in first", { status: 401 })
 * ```
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519 JSON Web Token
 * @see https://www.rfc-editor.org/rfc/rfc7516 JSON Web Encryption
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.5 A256CBC-HS512
 * @module jwt
 */
import { boundedCache } from "../crypto/caches.js"
import { defaultCookies, parseCookies, readChunked } from "../http/cookies.js"
import { engine, joinCompactJwe, randomBytes, splitCompactJwe } from "../crypto/crypto.js"
import { readEnv } from "../config/env.js"
import { Configuration, MissingSecret, SessionTokenError } from "../errors/errors.js"
import { isPlaceholderSecret } from "../crypto/secret-strength.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../types.js"
import { ALTERED, sessionKeys, type SessionKey, type SessionKeys } from "./jwt-keys.js"

export type { DefaultJWT, JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../types.js"

/** A sealed JWT lives this long unless `maxAge` says otherwise: 30 days, as in Auth.js. */
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60
/** Seconds of clock skew forgiven when checking `exp` and `nbf`, as Auth.js forgives. */
const CLOCK_TOLERANCE = 15

const encoder = new TextEncoder()
const textDecoder = new TextDecoder()

/** How many opened tokens are remembered in all, and the longest one remembered. */
const OPENED_ENTRIES = 1024
const OPENED_MAX_LENGTH = 4096

/** A token that authenticated: the keys that opened it, and what it opened to. */
interface Opened {
  keys: SessionKeys
  plaintext: string
}

const openedTokens = boundedCache<string, Opened>("opened tokens", OPENED_ENTRIES)

/**
 * Remembers what a token opened to. A browser sends the same session cookie with every request
 * until it is re-sealed (once per `updateAge`), so the next read of it skips the decryption.
 * Only tokens that authenticated are remembered, keyed by the whole token: a hit needs the
 * token itself, and tells nothing to anyone without it. An entry answers only to the very keys
 * that opened it, so another salt, a rotated-out secret or evicted keys decrypt again. Claims
 * (`exp`) are still checked on every read. Least recently read first out.
 */
function rememberOpened(keys: SessionKeys, token: string, plaintext: string): void {
  if (token.length <= OPENED_MAX_LENGTH) openedTokens.set(token, { keys, plaintext })
}

/** What `token` opened to under `keys`, if it was remembered. */
function rememberedPlaintext(keys: SessionKeys, token: string): string | undefined {
  const entry = openedTokens.get(token)
  return entry?.keys === keys ? entry.plaintext : undefined
}

const secretLists = boundedCache<string, string[]>("secret lists", 64)

/**
 * The secrets as a list, the same array for the same single secret so the derived keys stay
 * cached across calls.
 *
 * @throws {MissingSecret} when there is no non-empty secret.
 * @throws {Configuration} when one is a placeholder our docs show: anyone could seal under it.
 */
async function secretList(secret: unknown): Promise<readonly string[]> {
  if (typeof secret === "string" && secret !== "") {
    let list = secretLists.get(secret)
    if (list === undefined) {
      if (isPlaceholderSecret(secret)) throw await placeholderRefused("`secret`")
      list = [secret]
      secretLists.set(secret, list)
    }
    return list
  }
  if (Array.isArray(secret) && secret.length > 0 && secret.every((item) => typeof item === "string" && item !== "")) {
    if (secret.some(isPlaceholderSecret)) throw await placeholderRefused("An entry of `secret`")
    return secret as string[]
  }
  throw new MissingSecret("`secret` must be a non-empty string or a non-empty array of them.")
}

/** The refusal of a placeholder secret; its sentence loads only then. */
async function placeholderRefused(option: string): Promise<Configuration> {
  return new Configuration((await import("../crypto/secret-refusals.js")).placeholderRefusal(option))
}

function checkSalt(salt: unknown): string {
  if (typeof salt !== "string") throw new SessionTokenError("`salt` must be a string: the session cookie's name.")
  return salt
}

/**
 * Seals a JWT as Auth.js does: sets `iat` (now), `exp` (`iat + maxAge`) and a random `jti`,
 * and encrypts it with the key of the first secret and the salt (the cookie name).
 *
 * @throws {MissingSecret} when `secret` holds no secret.
 * @throws {Configuration} when `secret` is (or lists) a placeholder our documentation shows.
 * @throws {SessionTokenError} when `salt` is not a string or `maxAge` is not a finite number.
 * @example
 * ```ts
 * const cookie = await encode({ token: { sub: "42" }, secret: process.env.AUTH_SECRET!, salt: "authjs.session-token" })
 * ```
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token, secret, salt, maxAge = DEFAULT_MAX_AGE } = params
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) throw new SessionTokenError("`maxAge` must be a number of seconds.")
  const { keys } = await sessionKeys(await secretList(secret), checkSalt(salt))
  const first = keys[0] as SessionKey
  const now = Math.floor(Date.now() / 1000)
  const claims = { ...(token ?? {}), iat: now, exp: now + Math.floor(maxAge), jti: crypto.randomUUID() }
  const iv = randomBytes(16)
  return joinCompactJwe(first.header, iv, await engine.encryptCbcHmac(first.key, iv, first.aad, encoder.encode(JSON.stringify(claims))))
}

function numericClaim(claims: Record<string, unknown>, name: "exp" | "iat" | "nbf"): number | undefined {
  const value = claims[name]
  if (value !== undefined && typeof value !== "number") throw new SessionTokenError(`The session token's \`${name}\` is not a number.`)
  return value
}

/** The plaintext of a session token, opened with whichever key its header names or authenticates it. */
async function decrypt(token: string, keys: SessionKeys, secrets: readonly string[], salt: string): Promise<Uint8Array> {
  const jwe = splitCompactJwe(token)
  if (jwe === undefined) throw new SessionTokenError("The session token is not a compact JWE.")
  // The usual case: sealed by one of our keys, whose header it carries byte for byte.
  const known = keys.byHeader.get(jwe.header)
  if (known !== undefined && jwe.iv.length === 16 && jwe.tag.length === 32) {
    const opened = await engine.decryptCbcHmac(known.key, jwe.iv, known.aad, jwe)
    if (opened === undefined) throw new SessionTokenError(ALTERED)
    return opened
  }
  // Another header (a `kid` with other bytes, Auth.js's `A256GCM`, an earlier release's token): rare, so loaded then.
  const { openForeignToken } = await import("./jwt-foreign.js")
  return openForeignToken(jwe, keys, secrets, salt)
}

/**
 * The claims of a sealed session token, or `null` once it has expired.
 *
 * @throws {SessionTokenError} when it is not a JWE, uses another algorithm, names a key none
 * of the secrets derive, does not authenticate, or holds no JWT claims set with an `exp`.
 */
async function open(token: string, secrets: readonly string[], salt: string): Promise<JWT | null> {
  const keys = await sessionKeys(secrets, salt)
  let text = rememberedPlaintext(keys, token)
  if (text === undefined) {
    text = textDecoder.decode(await decrypt(token, keys, secrets, salt))
    rememberOpened(keys, token, text)
  }
  let claims: unknown
  try {
    claims = JSON.parse(text)
  } catch {
    claims = undefined
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) throw new SessionTokenError("The session token holds no JWT claims set.")
  const record = claims as Record<string, unknown>
  const exp = numericClaim(record, "exp")
  const nbf = numericClaim(record, "nbf")
  numericClaim(record, "iat")
  // Auth.js always sets `exp`; a session without one would never end.
  if (exp === undefined) throw new SessionTokenError("The session token has no `exp`.")
  const now = Date.now() / 1000
  if (exp <= now - CLOCK_TOLERANCE || (nbf !== undefined && nbf > now + CLOCK_TOLERANCE)) return null
  return record
}

/**
 * Opens a JWT sealed by {@link encode} (or by Auth.js) with any of the secrets.
 *
 * Returns `null` when `token` is empty or the JWT has expired (15 seconds of clock skew are
 * forgiven). Also opens `A256GCM` tokens, as Auth.js does, and the sessions earlier releases
 * of this package sealed.
 *
 * @throws {MissingSecret} when `secret` holds no secret.
 * @throws {Configuration} when `secret` is (or lists) a placeholder our documentation shows.
 * @throws {SessionTokenError} when the token is malformed, altered, sealed with a secret or salt
 * not given, or holds no claims set with an `exp`. The message never contains the token.
 * @example
 * ```ts
 * const token = await decode({ token: cookieValue, secret: [newSecret, oldSecret], salt: "authjs.session-token" })
 * ```
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, secret, salt } = params
  if (token === undefined || token === "") return null
  if (typeof token !== "string") throw new SessionTokenError("`token` must be a string.")
  return (await open(token, await secretList(secret), checkSalt(salt))) as Payload | null
}

/** What {@link getToken} reads. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request carrying the JWT in its session cookie or its `Authorization: Bearer` header. */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined> }
  /**
   * Looks for the secure (`__Secure-` / `__Host-`) cookie. Default: true when `AUTH_URL` (or
   * `NEXTAUTH_URL`) is `https:`, or, without either, when the request's URL is.
   */
  secureCookie?: boolean
  /** The session cookie's name, when the app configured its own. */
  cookieName?: string
  /** Answer the sealed JWT itself instead of its claims. Default `false`. */
  raw?: R
  /** Default: `AUTH_SECRET`. Several rotate, as in the configuration. */
  secret?: string | string[]
  /** Default: the cookie's name. */
  salt?: string
  /** A custom `jwt.decode`, when the app configured one. */
  decode?: JWTOptions["decode"]
  /** Where a token that fails to open is reported (never with the token). Default: nowhere. */
  logger?: { warn: (code: string, message?: string) => void } | Console
}

const SESSION_COOKIE = "authjs.session-token"

function header(req: GetTokenParams<boolean>["req"], name: string): string | null {
  const headers = req.headers
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name)
  const value = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : (value ?? null)
}

function isSecure(params: GetTokenParams<boolean>): boolean {
  if (params.secureCookie !== undefined) return params.secureCookie
  const env = readEnv()
  const appUrl = env.AUTH_URL ?? env.NEXTAUTH_URL
  if (appUrl !== undefined && appUrl !== "") return appUrl.startsWith("https:")
  return "url" in params.req && typeof params.req.url === "string" && params.req.url.startsWith("https:")
}

/**
 * The cookie to look in: the one `Auth()` writes by default (`__Host-` on https), or
 * `cookieName`. Never a second, weaker name as a fallback: a sibling subdomain can plant a
 * `__Secure-` cookie, and an app that kept Auth.js's name says so with `cookieName`.
 */
function cookieNames(params: GetTokenParams<boolean>): string[] {
  if (params.cookieName !== undefined) return [params.cookieName]
  return [isSecure(params) ? defaultCookies(true, undefined).sessionToken.name : SESSION_COOKIE]
}

/** The sealed JWT and the cookie it came from (`undefined` for the Authorization header). */
function findToken(params: GetTokenParams<boolean>): { token: string; cookie: string | undefined } | null {
  const jar = parseCookies(header(params.req, "cookie"))
  for (const name of cookieNames(params)) {
    const token = readChunked(jar, name)
    if (token !== undefined) return { token, cookie: name }
  }
  const authorization = header(params.req, "authorization")
  const [scheme, value] = authorization?.split(" ") ?? []
  if (scheme !== "Bearer" || value === undefined || value === "") return null
  try {
    return { token: decodeURIComponent(value), cookie: undefined }
  } catch {
    // Malformed percent-encoding: no token, as Auth.js answers.
    return null
  }
}

/**
 * Reads the session JWT of a request, from its session cookie (chunked or whole) or, without
 * one, from an `Authorization: Bearer` header, and answers its claims (or, with `raw`, the
 * sealed JWT); `null` when there is none, or it does not open or has expired.
 *
 * It only opens the token: it checks neither revocation (a session ended by sign-out
 * elsewhere, "sign out everywhere", `revokeUserSessions` or back-channel logout still reads
 * here until the JWT expires) nor the lifetimes a session record sets. For a read that refuses
 * ended sessions, use `getSession` (or your framework's `auth()`).
 *
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set (and `raw` is not).
 * @throws {Configuration} when the secret is (or lists) a placeholder our documentation shows.
 * @example
 * ```ts
 * export async function GET(request: Request) {
 *   const token = await getToken({ req: request })
 *   return Response.json({ signedIn: token !== null, sub: token?.sub })
 * }
 * ```
 */
export async function getToken<R extends boolean = false>(params: GetTokenParams<R>): Promise<R extends true ? string | null : JWT | null> {
  type Answer = R extends true ? string | null : JWT | null
  const found = findToken(params)
  if (found === null) return null
  if (params.raw === true) return found.token as Answer
  const secret = params.secret ?? readEnv().AUTH_SECRET
  if (secret === undefined || secret === "") throw new MissingSecret("Pass `secret` to getToken() or set AUTH_SECRET.")
  // Checked here too, not only by `decode`: a custom `decode` is handed the secret, and a refusal must not read as "no token".
  await secretList(secret)
  const salt = params.salt ?? found.cookie ?? cookieNames(params)[0] ?? SESSION_COOKIE
  const decoder = params.decode ?? decode
  try {
    const token: unknown = await decoder({ token: found.token, secret, salt })
    return (typeof token === "object" && token !== null ? token : null) as Answer
  } catch (error) {
    params.logger?.warn(error instanceof SessionTokenError ? error.code : "SessionTokenError", "getToken() found a token that does not open; answering null.")
    return null
  }
}

