/**
 * The callback checks (PKCE, state, nonce): their values are created at sign-in, kept sealed
 * in short-lived HttpOnly cookies, and compared on the callback.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636 PKCE
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 CSRF protection with `state`
 * @see https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes `nonce`
 */
import * as o from "oauth4webapi"
import { clearCookie, type SetCookie } from "../http/cookies.js"
import { deriveKey, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { InvalidCheck } from "../errors/flow-errors.js"
import type { FlowBinding } from "../internal.js"
import type { CookiesOptions } from "../model.js"

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
  /** The {@link FlowBinding}, in short keys: these values live in cookies. */
  o: string
  b: string
  u?: string
  /** {@link FlowBinding.reauthAt}. */
  r?: number
}

async function seal(secrets: readonly string[], check: CheckName, value: string, binding: FlowBinding): Promise<string> {
  const [key] = await keys(secrets.slice(0, 1), check)
  const payload: Sealed = { v: value, exp: Math.floor(Date.now() / 1000) + CHECK_MAX_AGE, o: binding.origin, b: binding.browser }
  if (binding.userId !== undefined) payload.u = binding.userId
  if (binding.reauthAt !== undefined) payload.r = binding.reauthAt
  return sealJwe(payload, key as SecretKey)
}

async function open(secrets: readonly string[], check: CheckName, sealed: string | undefined): Promise<Sealed | undefined> {
  if (sealed === undefined || sealed === "" || sealed.length > 4096) return undefined
  const value = await openJwe(sealed, await keys(secrets, check))
  if (typeof value !== "object" || value === null) return undefined
  const { v, exp, o, b, u, r } = value as Record<string, unknown>
  if (typeof v !== "string" || typeof exp !== "number" || exp < Date.now() / 1000) return undefined
  if (typeof o !== "string" || typeof b !== "string") return undefined
  const opened: Sealed = { v, exp, o, b }
  if (typeof u === "string") opened.u = u
  if (typeof r === "number" && Number.isSafeInteger(r)) opened.r = r
  return opened
}

/** The values a sign-in sends to the provider, and the cookies that remember them. */
export interface CreatedChecks {
  params: Record<string, string>
  cookies: SetCookie[]
}

/**
 * Creates the configured checks for a new sign-in, each value sealed with the flow's binding.
 *
 * The `state` value itself is sealed (so a redirect proxy can read which origin to send the
 * callback back to, and nobody can forge one); the cookie holds the same value.
 */
export async function createChecks(
  checks: ReadonlySet<string>,
  secrets: readonly string[],
  cookies: CookiesOptions,
  binding: FlowBinding,
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
    remember("pkce", await seal(secrets, "pkce", verifier, binding))
  }
  if (checks.has("state")) {
    const state = await seal(secrets, "state", o.generateRandomState(), binding)
    params.state = state
    remember("state", state)
  }
  if (checks.has("nonce")) {
    const nonce = o.generateRandomNonce()
    params.nonce = nonce
    remember("nonce", await seal(secrets, "nonce", nonce, binding))
  }
  return { params, cookies: out }
}

/** What the callback's checks established. */
export interface VerifiedChecks {
  /** The expected `state`, or `undefined` when the provider does not use the check. */
  state: string | undefined
  codeVerifier: string | undefined
  nonce: string | undefined
  /** The user signed in when the flow started, or `undefined` (also when the provider uses no check). */
  startedBy: string | undefined
  /** When a re-authentication of `startedBy` started (epoch seconds); `undefined` for a sign-in. */
  reauthAt: number | undefined
}

/** Cookies that clear every check cookie the browser sent: done after every callback, whatever its outcome. */
export function clearChecks(cookies: CookiesOptions, jar: Map<string, string>): SetCookie[] {
  return (["state", "pkce", "nonce"] as const)
    .map((check) => cookies[COOKIE[check]])
    .filter((cookie) => jar.has(cookie.name))
    .map((cookie) => clearCookie(cookie))
}

/**
 * Reads and opens the check cookies of a callback, and checks that every one was sealed for
 * this origin and this browser.
 *
 * @throws {InvalidCheck} when a configured check's cookie is missing, expired or not ours, the
 *   callback's `state` differs from the cookie's, or a value was sealed for another origin or
 *   browser (planted from elsewhere).
 */
export async function verifyChecks(
  checks: ReadonlySet<string>,
  secrets: readonly string[],
  cookies: CookiesOptions,
  jar: Map<string, string>,
  callback: { state: string | null; origin: string; browser: string | undefined },
): Promise<VerifiedChecks> {
  const result: VerifiedChecks = { state: undefined, codeVerifier: undefined, nonce: undefined, startedBy: undefined, reauthAt: undefined }
  let first: Sealed | undefined
  const bound = (opened: Sealed, what: string): Sealed => {
    if (opened.o !== callback.origin) throw new InvalidCheck(`The ${what} was issued for a sign-in on ${opened.o}, not ${callback.origin}.`)
    if (callback.browser === undefined || opened.b !== callback.browser) {
      throw new InvalidCheck(`The ${what} belongs to a sign-in started in another browser.`)
    }
    // Every check value of one flow is sealed with one binding: a mix of a sign-in's and a re-authentication's is refused.
    if (first !== undefined && (opened.u !== first.u || opened.r !== first.r)) throw new InvalidCheck(`The ${what} belongs to another flow.`)
    first = opened
    result.startedBy = opened.u
    result.reauthAt = opened.u === undefined ? undefined : opened.r
    return opened
  }
  if (checks.has("state")) {
    const cookieState = jar.get(cookies.state.name)
    if (cookieState === undefined) throw new InvalidCheck("The state cookie is missing: the sign-in was not started by this browser or took longer than 15 minutes.")
    if (callback.state === null) throw new InvalidCheck("The callback has no `state` parameter.")
    if (callback.state !== cookieState) throw new InvalidCheck("The callback's `state` does not match the state cookie.")
    const opened = await open(secrets, "state", cookieState)
    if (opened === undefined) throw new InvalidCheck("The state value is expired or was not sealed by this server.")
    bound(opened, "state")
    result.state = cookieState
  }
  if (checks.has("pkce")) {
    const opened = await open(secrets, "pkce", jar.get(cookies.pkceCodeVerifier.name))
    if (opened === undefined) throw new InvalidCheck("The PKCE code verifier cookie is missing, expired or not valid.")
    result.codeVerifier = bound(opened, "PKCE code verifier").v
  }
  if (checks.has("nonce")) {
    const opened = await open(secrets, "nonce", jar.get(cookies.nonce.name))
    if (opened === undefined) throw new InvalidCheck("The nonce cookie is missing, expired or not valid.")
    result.nonce = bound(opened, "nonce").v
  }
  return result
}

/** The origin a sign-in started on, out of its sealed `state`: where a redirect proxy forwards the callback. */
export async function stateOrigin(secrets: readonly string[], state: string | null): Promise<string | undefined> {
  if (state === null) return undefined
  return (await open(secrets, "state", state))?.o
}
