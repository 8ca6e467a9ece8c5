/**
 * Backup codes: ten single-use codes a user keeps for when the authenticator is lost. Each is
 * stored as a salted, keyed hash (HMAC-SHA-256 under a key derived from the secret list, see
 * `keys.ts`), bound to its user, so a dump of the store holds no code and no code made for one
 * user matches for another; the list's every secret is tried, so rotating `AUTH_SECRET` keeps
 * them working while the old secret stays listed. Consuming a matched code (once, across
 * instances) is the caller's, through the adapter.
 */
import { base64url, engine, fromBase64url, randomBytes, randomString, type SecretKey } from "../crypto/crypto.js"
import { sameBytes } from "../crypto/crypto-engine.js"
import { factorKeys, namedFirst, type FactorKey } from "./keys.js"

/** How many codes a user gets at once. */
const COUNT = 10
/** Letters per code: 10 letters of 5 bits, 50 bits. */
const LENGTH = 10
/** Letters per group as shown: two groups, `xxxxx-xxxxx`. */
const GROUP = 5
/**
 * Crockford's base32 letters in lower case: no `i`, `l`, `o` or `u`, so none is read as another,
 * and a typed `o`, `i` or `l` can only have meant `0` or `1`.
 */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
/** A code as typed: far longer than any code with spaces, so a longer value is refused before it is read. */
const MAX_INPUT = 64
/** Bytes of salt per stored code. */
const SALT_BYTES = 16
/** Bytes of an HMAC-SHA-256. */
const MAC_BYTES = 32

const encoder = new TextEncoder()

/**
 * Ten new backup codes, distinct, each 10 letters from a 32-letter alphabet (50 bits from the
 * platform's CSPRNG), shown in two groups of five: `7k3mq-x9d2f`.
 *
 * @see https://github.com/OWASP/ASVS ASVS 5.0 V6.5.3, V6.5.4 (lookup secrets)
 */
export function newBackupCodes(): string[] {
  const codes = new Set<string>()
  while (codes.size < COUNT) {
    // 32 divides 256: five bits of each byte are uniform.
    const letters = Array.from(randomBytes(LENGTH), (byte) => ALPHABET.charAt(byte & 31)).join("")
    codes.add(`${letters.slice(0, GROUP)}-${letters.slice(GROUP)}`)
  }
  return [...codes]
}

/**
 * A code as typed, made comparable: compatibility forms folded (NFKC), spaces and hyphens (and
 * dashes a phone may type for one) removed, case folded, `o` read as `0` and `i`/`l` as `1`;
 * `undefined` when the rest is not 10 letters of the alphabet.
 */
function typedCode(code: unknown): string | undefined {
  if (typeof code !== "string" || code.length > MAX_INPUT) return undefined
  const letters = code
    .normalize("NFKC")
    .replace(/[\s\-\u2010-\u2015\u2212]/gu, "")
    .toLowerCase()
    .replaceAll("o", "0")
    .replace(/[il]/g, "1")
  return /^[0-9a-hjkmnp-tv-z]{10}$/.test(letters) ? letters : undefined
}

async function importHmacKey(raw: Uint8Array<ArrayBuffer>): Promise<SecretKey> {
  return { raw, web: await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]) }
}

function hashKeys(secrets: readonly string[]): Promise<FactorKey[]> {
  return factorKeys(secrets, "backup code", importHmacKey)
}

/** The HMAC of one user's code with one salt: an unambiguous encoding of the three. */
async function mac(key: SecretKey, salt: string, code: string, userId: string): Promise<Uint8Array> {
  return engine.sign(key, encoder.encode(JSON.stringify([salt, code, userId])))
}

/**
 * The stored form of a backup code for `userId`: `<kid>.<salt>.<mac>` (base64url), an
 * HMAC-SHA-256 of the code, a fresh salt and the user id, under the first secret's backup-code
 * key, which `kid` names. Holds no copy of the code.
 *
 * @throws {MissingSecret} when `secrets` is empty.
 * @throws {TypeError} when `code` is not a backup code (a caller's mistake: hash only what
 * {@link newBackupCodes} made).
 * @see https://github.com/OWASP/ASVS ASVS 5.0 V6.5.2 (lookup secrets hashed with a salt)
 */
export async function hashBackupCode(secrets: readonly string[], code: string, userId: string): Promise<string> {
  const [first] = await hashKeys(secrets)
  const letters = typedCode(code)
  if (letters === undefined) throw new TypeError("Only a backup code made by `newBackupCodes()` is hashed.")
  const { key, kid } = first as FactorKey
  const salt = randomString(SALT_BYTES)
  return `${kid}.${salt}.${base64url(await mac(key, salt, letters, userId))}`
}

/** A stored hash's parts; `undefined` when it is not one. */
function storedHash(value: string): { kid: string; salt: string; mac: Uint8Array } | undefined {
  const parts = value.split(".")
  if (parts.length !== 3) return undefined
  const [kid = "", salt = "", encoded = ""] = parts
  const bytes = fromBase64url(encoded)
  if (kid === "" || fromBase64url(salt)?.length !== SALT_BYTES || bytes?.length !== MAC_BYTES) return undefined
  return { kid, salt, mac: bytes }
}

/**
 * Which of `hashes` (stored by {@link hashBackupCode} for `userId`) the typed `code` matches: its
 * index, or -1. The code is compared once spaces and hyphens are removed and case folded (see
 * {@link typedCode}); each hash is tried with the key its `kid` names first, then with every
 * other listed secret's, each comparison in constant time. A malformed hash or code matches
 * nothing and throws nothing.
 *
 * @throws {MissingSecret} when `secrets` is empty.
 */
export async function matchBackupCode(secrets: readonly string[], code: unknown, hashes: readonly string[], userId: string): Promise<number> {
  const keys = await hashKeys(secrets)
  const letters = typedCode(code)
  if (letters === undefined) return -1
  let found = -1
  // Every hash is tried, not only until one matches: the time taken tells nothing of which.
  for (const [index, value] of hashes.entries()) {
    const stored = storedHash(value)
    if (stored === undefined) continue
    for (const { key } of namedFirst(keys, stored.kid)) {
      if (sameBytes(await mac(key, stored.salt, letters, userId), stored.mac, MAC_BYTES)) {
        if (found < 0) found = index
        break
      }
    }
  }
  return found
}
