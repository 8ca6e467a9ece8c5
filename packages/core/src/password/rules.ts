/**
 * The rules a new password must pass (sign-up, reset, change), after NIST SP 800-63B rev 4
 * §3.1.1.2 and OWASP ASVS v5 6.2: a length in code points after NFKC (the one normalisation: no
 * trimming, no case folding, no truncation), a built-in blocklist of common passwords, and an
 * optional k-anonymity check against breached passwords. There are no composition rules, and
 * nothing here cares how the password was typed or pasted. The blocklist and the breach check are
 * fetched on the first check, so an app loads their bytes only when a password is set.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver NIST SP 800-63B rev 4 §3.1.1.2
 * @module
 */
import { Configuration } from "../errors/errors.js"
import { isLoopbackAddress } from "../http/loopback.js"
import type { RequestContext } from "../internal.js"
import type { RangeApi } from "./breached.js"

/** Why a new password was refused. */
export type PasswordRefusal = "tooShort" | "tooLong" | "common" | "breached"

/** The options of `Password()` that set the rules (its `PasswordOptions` carries them). */
export interface PasswordRuleOptions {
  /**
   * The fewest code points (after NFKC) a new password may have. Default 15, what NIST SP 800-63B
   * rev 4 asks of a password used alone; 8 to 14 only when every user must have a second factor
   * (`mfa.required: true`), never below 8.
   */
  minPasswordLength?: number
  /** The most code points (after NFKC) a new password may have, which bounds the hash's work. Default 256; 64 to 1024. */
  maxPasswordLength?: number
  /**
   * Checks a new password against a Pwned Passwords range API (k-anonymity: only the first 5 hex
   * characters of its SHA-1 leave the server). Off when absent. `url` defaults to
   * `https://api.pwnedpasswords.com` (https, or plain http on a loopback address); `fetch` to the
   * global one. The check has 2 s; when it fails or runs out, the password is accepted and one
   * warning is logged.
   */
  breachedPasswords?: { url?: string; fetch?: typeof fetch }
}

/** The rules as checked, read once from the options by {@link readPasswordRules}. */
export interface PasswordRules {
  minLength: number
  maxLength: number
  /** The breach check's range API (without the `/range/` path) and the fetch that reaches it; absent when off. */
  breached?: RangeApi
}

const DEFAULT_MIN = 15
const MIN_WITH_SECOND_FACTOR = 8
const DEFAULT_MAX = 256
const MAX_AT_LEAST = 64
const MAX_AT_MOST = 1024
const DEFAULT_RANGE_API = "https://api.pwnedpasswords.com"
/**
 * NFKC maps one code point to at most 18 and composes at most 4 into one, and a code point is at
 * most 2 UTF-16 units: input longer than this many units per allowed code point is too long
 * whatever it normalises to, and is refused before any work is spent on it.
 */
const UNITS_PER_CODE_POINT_BOUND = 8

/**
 * The form every hash and every compare uses: NFKC, the only normalisation, so that one password
 * typed on two keyboards (a full-width digit, a composed or decomposed accent) is one password.
 * Nothing is trimmed and case is kept.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver NIST SP 800-63B rev 4 §3.1.1.2
 */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC")
}

/**
 * Checks a new password against `rules`: its length in code points after NFKC, the built-in
 * blocklist (NFKC, case-insensitive: the shipped list, repetitive and sequential passwords, and
 * the values in `expected`, such as the account's email address), then the breach check when
 * configured. Answers the NFKC form to hash, or why the password is refused. Never throws for any
 * input: a failed breach check accepts the password and logs one warning (never the password or
 * its hash).
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver NIST SP 800-63B rev 4 §3.1.1.2
 */
export async function checkNewPassword(
  context: RequestContext,
  rules: PasswordRules,
  password: string,
  expected: readonly (string | null | undefined)[] = [],
): Promise<{ ok: true; password: string } | { ok: false; reason: PasswordRefusal }> {
  if (password.length > rules.maxLength * UNITS_PER_CODE_POINT_BOUND) return { ok: false, reason: "tooLong" }
  const normalized = normalizePassword(password)
  const length = codePoints(normalized)
  if (length < rules.minLength) return { ok: false, reason: "tooShort" }
  if (length > rules.maxLength) return { ok: false, reason: "tooLong" }
  const { isCommonPassword } = await import("./common-passwords.js")
  if (isCommonPassword(normalized, expected)) return { ok: false, reason: "common" }
  if (rules.breached !== undefined) {
    const { isBreachedPassword } = await import("./breached.js")
    if (await isBreachedPassword(context, rules.breached, normalized)) return { ok: false, reason: "breached" }
  }
  return { ok: true, password: normalized }
}

/**
 * Reads the rules from `Password()`'s options, once, at start. `config` is the app's `AuthConfig`
 * (its `mfa`): a minimum under 15 is allowed only with `mfa.required: true`, since only then does
 * every password account have a second factor; a `required` function may exempt some users, so it
 * does not count.
 *
 * @throws {Configuration} naming `minPasswordLength`, `maxPasswordLength` or `breachedPasswords` when one is out of its range or of the wrong type.
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver NIST SP 800-63B rev 4 §3.1.1.2
 */
export function readPasswordRules(options: PasswordRuleOptions, config: { mfa?: unknown }): PasswordRules {
  const maxLength = integerOption(options.maxPasswordLength, "maxPasswordLength", DEFAULT_MAX)
  if (maxLength < MAX_AT_LEAST || maxLength > MAX_AT_MOST) {
    throw new Configuration(`\`maxPasswordLength\` must be from ${String(MAX_AT_LEAST)} to ${String(MAX_AT_MOST)} (code points); it is ${String(maxLength)}.`)
  }
  const minLength = integerOption(options.minPasswordLength, "minPasswordLength", DEFAULT_MIN)
  if (minLength < MIN_WITH_SECOND_FACTOR) {
    throw new Configuration(`\`minPasswordLength\` must be at least ${String(MIN_WITH_SECOND_FACTOR)} (NIST SP 800-63B rev 4); it is ${String(minLength)}.`)
  }
  if (minLength < DEFAULT_MIN && !secondFactorRequired(config.mfa)) {
    throw new Configuration(
      `\`minPasswordLength\` below ${String(DEFAULT_MIN)} needs \`mfa: { required: true }\`: a password used alone must have at least ${String(DEFAULT_MIN)} code points (NIST SP 800-63B rev 4).`,
    )
  }
  if (minLength > maxLength) {
    throw new Configuration(`\`minPasswordLength\` (${String(minLength)}) must not be above \`maxPasswordLength\` (${String(maxLength)}).`)
  }
  const breached = breachedOption(options.breachedPasswords)
  return breached === undefined ? { minLength, maxLength } : { minLength, maxLength, breached }
}

function codePoints(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

function integerOption(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new Configuration(`\`${option}\` must be a whole number of code points.`)
  return value
}

function secondFactorRequired(mfa: unknown): boolean {
  return typeof mfa === "object" && mfa !== null && (mfa as { required?: unknown }).required === true
}

function breachedOption(value: unknown): PasswordRules["breached"] {
  if (value === undefined) return undefined
  if (typeof value !== "object" || value === null) throw new Configuration("`breachedPasswords` must be an object `{ url?, fetch? }`.")
  const { url, fetch: fetcher } = value as { url?: unknown; fetch?: unknown }
  if (fetcher !== undefined && typeof fetcher !== "function") throw new Configuration("`breachedPasswords.fetch` must be a function.")
  return { url: rangeApiUrl(url ?? DEFAULT_RANGE_API), fetch: (fetcher as typeof fetch | undefined) ?? ((input, init) => fetch(input, init)) }
}

function rangeApiUrl(url: unknown): string {
  let parsed: URL
  try {
    parsed = new URL(url as string)
  } catch (cause) {
    throw new Configuration("`breachedPasswords.url` must be an absolute URL.", { cause })
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && isLoopbackAddress(parsed.hostname))) {
    throw new Configuration("`breachedPasswords.url` must use https (plain http only on a loopback address).")
  }
  if (parsed.search !== "" || parsed.hash !== "") throw new Configuration("`breachedPasswords.url` must have no query or fragment.")
  return parsed.href.replace(/\/+$/, "")
}
