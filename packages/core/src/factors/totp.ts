/**
 * The `factors/` room: second factors, the feature an app turns on with `mfa`. Everything in it is
 * fetched by `import()` where that option is read, so an app without it loads none of it. The
 * primitives live here: TOTP and its `otpauth://` URI (this module), backup codes
 * (`backup-codes.ts`), the TOTP secret sealed at rest (`sealed-secret.ts`) and the keys both are
 * stored under (`keys.ts`).
 *
 * TOTP as RFC 6238 defines it and authenticator apps read it: HMAC-SHA-1, 6 digits, 30-second
 * steps, a code of the step before or after the current one accepted for clock drift. Which step
 * matched is answered, never remembered here: the caller records it so that no step is accepted
 * twice. HMAC-SHA-1 runs on WebCrypto, which every runtime has; a few codes per sign-in need no
 * faster engine.
 */
import { randomBytes } from "../crypto/crypto.js"
import { sameBytes } from "../crypto/crypto-engine.js"
import { Configuration } from "../errors/errors.js"
import { AdapterError } from "../errors/flow-errors.js"

/** The time step, in milliseconds (RFC 6238 section 4.1's X, 30 seconds). */
const STEP_MS = 30_000
/** How many digits a code has (RFC 4226 section 5.3's Digit). */
const DIGITS = 6
/** How many steps either side of the current one a code may come from (RFC 6238 section 5.2). */
const DRIFT = 1
/** The shortest secret RFC 4226 section 4 (R6) allows, in bytes. */
const MIN_SECRET = 16
/** Longer than any code typed with spaces: a longer value is refused before it is read. */
const MAX_CODE_INPUT = 64

const encoder = new TextEncoder()

/**
 * A new TOTP secret: 20 bytes (160 bits, RFC 4226 section 4's recommended length) from the
 * platform's CSPRNG.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-4 RFC 4226 section 4 (R6, R7)
 */
export function newTotpSecret(): Uint8Array<ArrayBuffer> {
  return randomBytes(20)
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
/** Each ASCII character's base32 digit, either case; -1 where it has none. */
const BASE32_DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE32.length; i++) {
  BASE32_DIGIT[BASE32.charCodeAt(i)] = i
  BASE32_DIGIT[BASE32.toLowerCase().charCodeAt(i)] = i
}

/**
 * Encodes bytes as base32 (RFC 4648 section 6), padded with `=` unless `padding: false` (the Key
 * URI format wants it left out).
 *
 * @see https://www.rfc-editor.org/rfc/rfc4648#section-6
 */
export function base32Encode(bytes: Uint8Array, options?: { padding?: boolean }): string {
  let out = ""
  let value = 0
  let bits = 0
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += BASE32.charAt((value >> bits) & 31)
    }
  }
  if (bits > 0) out += BASE32.charAt((value << (5 - bits)) & 31)
  return options?.padding === false ? out : out.padEnd(Math.ceil(out.length / 8) * 8, "=")
}

/** How many characters the last group may have: 8 characters carry 5 bytes, and 1, 3 or 6 carry no whole byte. */
const LAST_GROUP = new Set([0, 2, 4, 5, 7])

/**
 * Decodes base32 (RFC 4648 section 6), in either case, padded or not; `undefined` for anything
 * else: another character, an impossible length, padding not at the end or not completing the
 * last group, or pad bits that are not zero (section 3.5's canonical encoding).
 *
 * @see https://www.rfc-editor.org/rfc/rfc4648#section-6
 */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | undefined {
  const padAt = text.indexOf("=")
  const body = padAt < 0 ? text : text.slice(0, padAt)
  if (!LAST_GROUP.has(body.length % 8)) return undefined
  if (padAt >= 0 && (body.length % 8 === 0 || text.length % 8 !== 0 || !/^=+$/.test(text.slice(padAt)))) return undefined
  const out = new Uint8Array(Math.floor((body.length * 5) / 8))
  let value = 0
  let bits = 0
  let j = 0
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i)
    const digit = code < 128 ? (BASE32_DIGIT[code] as number) : -1
    if (digit < 0) return undefined
    value = ((value << 5) | digit) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >> bits) & 0xff
    }
  }
  return (value & ((1 << bits) - 1)) === 0 ? out : undefined
}

/**
 * The RFC 6238 time step `now` (epoch milliseconds) falls in: whole 30-second periods since the
 * Unix epoch (T0 = 0).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.2
 */
export function totpStep(now: number = Date.now()): number {
  return Math.floor(now / STEP_MS)
}

function hmacKey(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (secret.length < MIN_SECRET) {
    return Promise.reject(new AdapterError("The TOTP secret is shorter than the 128 bits RFC 4226 requires: it was not made by `newTotpSecret()`."))
  }
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"])
}

/** HOTP(K, C) with 6 digits: HMAC-SHA-1 of the 8-byte big-endian counter, dynamically truncated (RFC 4226 section 5.3). */
async function hotp(key: CryptoKey, counter: number): Promise<string> {
  const message = new Uint8Array(8)
  const view = new DataView(message.buffer)
  view.setUint32(0, Math.floor(counter / 2 ** 32))
  view.setUint32(4, counter >>> 0)
  const hash = new Uint8Array(await crypto.subtle.sign("HMAC", key, message))
  const offset = (hash[19] as number) & 0xf
  const binary = (((hash[offset] as number) & 0x7f) << 24) | ((hash[offset + 1] as number) << 16) | ((hash[offset + 2] as number) << 8) | (hash[offset + 3] as number)
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0")
}

/**
 * The 6-digit TOTP code of `step` (from {@link totpStep}) under `secret`.
 *
 * @throws {RangeError} when `step` is not a non-negative safe integer (a caller's mistake).
 * @throws {AdapterError} when `secret` is shorter than 16 bytes.
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.2 RFC 6238 section 4.2
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-5.3 RFC 4226 section 5.3 (truncation)
 */
export async function totpCode(secret: Uint8Array<ArrayBuffer>, step: number): Promise<string> {
  if (!Number.isSafeInteger(step) || step < 0) throw new RangeError("A TOTP step is a non-negative integer.")
  return hotp(await hmacKey(secret), step)
}

/** The six digits of a code as typed, spaces removed; `undefined` when it is not six ASCII digits. */
function typedCode(code: unknown): string | undefined {
  if (typeof code !== "string" || code.length > MAX_CODE_INPUT) return undefined
  const digits = code.replace(/\s/gu, "")
  return /^[0-9]{6}$/.test(digits) ? digits : undefined
}

/**
 * Checks a typed TOTP code (spaces allowed) against the steps around `now` (epoch milliseconds):
 * the current one and one either side. Answers the step it matched (the latest, should two codes
 * agree), which the caller records so that step is never accepted again; `null` when it matches
 * none or is not six digits. Every candidate is compared, each in constant time.
 *
 * @throws {AdapterError} when `secret` is shorter than 16 bytes.
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2 RFC 6238 section 5.2 (validation and drift)
 */
export async function verifyTotp(secret: Uint8Array<ArrayBuffer>, code: unknown, now: number = Date.now()): Promise<{ step: number } | null> {
  const typed = typedCode(code)
  if (typed === undefined || !Number.isFinite(now) || now < 0) return null
  const key = await hmacKey(secret)
  const current = totpStep(now)
  const given = encoder.encode(typed)
  let matched: number | null = null
  for (let step = Math.max(0, current - DRIFT); step <= current + DRIFT; step++) {
    if (sameBytes(encoder.encode(await hotp(key, step)), given, DIGITS)) matched = step
  }
  return matched === null ? null : { step: matched }
}

/** The longest issuer or account name a URI carries, in code points: more would only crowd the QR code and the app's list. */
const MAX_LABEL_PART = 64

/** What no label shows: controls, formatting (bidirectional overrides, zero-width), lone surrogates, private use, line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu

/**
 * An issuer or account name as an authenticator app can show it: nothing invisible, no colon
 * (the Key URI format reserves it between the two, and apps split on it), spaces collapsed, at
 * most {@link MAX_LABEL_PART} code points.
 */
function labelPart(value: string): string {
  const cleaned = value.replace(INVISIBLE, "").normalize("NFC").replaceAll(":", " ").replace(/\s+/gu, " ").trim()
  return Array.from(cleaned).slice(0, MAX_LABEL_PART).join("").trim()
}

/**
 * The `otpauth://totp/Issuer:account?secret=...&issuer=...` URI an authenticator app scans (as a QR
 * code) to enrol `secret`: the secret in unpadded base32, the issuer in the label and the
 * `issuer` parameter, each part percent-encoded after what an app cannot show is removed (see
 * {@link labelPart}). The algorithm, digits and period are the format's defaults (SHA1, 6, 30),
 * so they are left out. An issuer that is empty once cleaned is left out.
 *
 * @throws {Configuration} when both the issuer and the account are empty once cleaned: nothing
 * would name the entry in the app.
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format Key URI format
 */
export function totpUri({ issuer, account, secret }: { issuer: string; account: string; secret: Uint8Array }): string {
  const issuerPart = labelPart(issuer)
  const accountPart = labelPart(account)
  if (issuerPart === "" && accountPart === "") {
    throw new Configuration("A TOTP enrolment needs an issuer or an account name that an authenticator app can show: both are empty.")
  }
  const label = [issuerPart, accountPart].filter((part) => part !== "").map(encodeURIComponent).join(":")
  const query = `secret=${base32Encode(secret, { padding: false })}${issuerPart === "" ? "" : `&issuer=${encodeURIComponent(issuerPart)}`}`
  return `otpauth://totp/${label}?${query}`
}
