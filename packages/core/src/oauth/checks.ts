/**
 * The callback checks (PKCE, state, nonce): their values are created at sign-in, kept sealed
 * in short-lived HttpOnly cookies, and compared on the callback.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636 PKCE
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 CSRF protection with `state`
 * @see https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes `nonce`
 */
import * as o from "oauth4webapi"
import { clearCookie, type SetCookie } from "../cookies.js"
import { deriveKey, openJwe, sealJwe, type SecretKey } from "../crypto.js"
import { InvalidCheck } from "../errors.js"
import type { CookiesOptions } from "../types.js"

/** How long a sign-in may take between leaving for the provider and coming back. */
export const CHECK_MAX_AGE = 15 * 60

type CheckName = "state" | "pkce" | "nonce"

const COOKIE: Record<CheckName, keyof CookiesOptions> = { state: "state", pkce: "pkceCodeVerifier", nonce: "nonce" }

function keys(secrets: readonly string[], check: CheckName): Promise<SecretKey[]> {
  return Promise.all(secrets.map((secret) => deriveKey(secret, `authjs.${check}`, "jwe")))
}

interface Sealed {
  v: string
  exp: number
  /** For `state`: the origin that started the sign-in, when it went through a redirect proxy. */
  origin?: string
}

async function seal(secrets: readonly string[], check: CheckName, payload: Omit<Sealed, "exp">): Promise<string> {
  const [key] = await keys(secrets.slice(0, 1), check)
  return sealJwe({ ...payload, exp: Math.floor(Date.now() / 1000) + CHECK_MAX_AGE }, key as SecretKey)
}

async function open(secrets: readonly string[], check: CheckName, sealed: string | undefined): Promise<Sealed | undefined> {
  if (sealed === undefined || sealed === "" || sealed.length > 4096) return undefined
  const value = await openJwe(sealed, await keys(secrets, check))
  if (typeof value !== "object" || value === null) return undefined
  const { v, exp, origin } = value as Record<string, unknown>
  if (typeof v !== "string" || typeof exp !== "number" || exp < Date.now() / 1000) return undefined
  return typeof origin === "string" ? { v, exp, origin } : { v, exp }
}

/** The values a sign-in sends to the provider, and the cookies that remember them. */
export interface CreatedChecks {
  params: Record<string, string>
  cookies: SetCookie[]
}

/**
 * Creates the configured checks for a new sign-in.
 *
 * The `state` value itself is sealed (so a redirect proxy can read which origin to send the
 * callback back to, and nobody can forge one); the cookie holds the same value.
 */
export async function createChecks(
  checks: ReadonlySet<string>,
  secrets: readonly string[],
  cookies: CookiesOptions,
  origin: string | undefined,
): Promise<CreatedChecks> {
  const params: Record<string, string> = {}
  const out: SetCookie[] = []
  const remember = (check: CheckName, value: string): void => {
    const cookie = cookies[COOKIE[check]]
    out.push({ name: cookie.name, value, options: { ...cookie.options, maxAge: CHECK_MAX_AGE } })
  }
  if (checks.has("pkce")) {
    const verifier = o.generateRandomCodeVerifier()
    params.code_challenge = await o.calculatePKCECodeChallenge(verifier)
    params.code_challenge_method = "S256"
    remember("pkce", await seal(secrets, "pkce", { v: verifier }))
  }
  if (checks.has("state")) {
    const state = await seal(secrets, "state", origin === undefined ? { v: o.generateRandomState() } : { v: o.generateRandomState(), origin })
    params.state = state
    remember("state", state)
  }
  if (checks.has("nonce")) {
    const nonce = o.generateRandomNonce()
    params.nonce = nonce
    remember("nonce", await seal(secrets, "nonce", { v: nonce }))
  }
  return { params, cookies: out }
}

/** What the callback's checks established. */
export interface VerifiedChecks {
  /** The expected `state`, or `undefined` when the provider does not use the check. */
  state: string | undefined
  codeVerifier: string | undefined
  nonce: string | undefined
}

/** Cookies that clear every check cookie the browser sent: done after every callback, whatever its outcome. */
export function clearChecks(cookies: CookiesOptions, jar: Map<string, string>): SetCookie[] {
  return (["state", "pkce", "nonce"] as const)
    .map((check) => cookies[COOKIE[check]])
    .filter((cookie) => jar.has(cookie.name))
    .map((cookie) => clearCookie(cookie))
}

/**
 * Reads and opens the check cookies of a callback.
 *
 * @throws {InvalidCheck} when a configured check's cookie is missing, expired or not ours, or
 *   the callback's `state` differs from the cookie's.
 */
export async function verifyChecks(
  checks: ReadonlySet<string>,
  secrets: readonly string[],
  cookies: CookiesOptions,
  jar: Map<string, string>,
  callbackState: string | null,
): Promise<VerifiedChecks> {
  const result: VerifiedChecks = { state: undefined, codeVerifier: undefined, nonce: undefined }
  if (checks.has("state")) {
    const cookieState = jar.get(cookies.state.name)
    if (cookieState === undefined) throw new InvalidCheck("The state cookie is missing: the sign-in was not started by this browser or took longer than 15 minutes.")
    if (callbackState === null) throw new InvalidCheck("The callback has no `state` parameter.")
    if (callbackState !== cookieState) throw new InvalidCheck("The callback's `state` does not match the state cookie.")
    if ((await open(secrets, "state", cookieState)) === undefined) throw new InvalidCheck("The state value is expired or was not sealed by this server.")
    result.state = cookieState
  }
  if (checks.has("pkce")) {
    const opened = await open(secrets, "pkce", jar.get(cookies.pkceCodeVerifier.name))
    if (opened === undefined) throw new InvalidCheck("The PKCE code verifier cookie is missing, expired or not valid.")
    result.codeVerifier = opened.v
  }
  if (checks.has("nonce")) {
    const opened = await open(secrets, "nonce", jar.get(cookies.nonce.name))
    if (opened === undefined) throw new InvalidCheck("The nonce cookie is missing, expired or not valid.")
    result.nonce = opened.v
  }
  return result
}

/** Reads the origin a proxied sign-in came from, out of its sealed `state`. */
export async function proxiedOrigin(secrets: readonly string[], state: string | null): Promise<string | undefined> {
  if (state === null) return undefined
  return (await open(secrets, "state", state))?.origin
}
