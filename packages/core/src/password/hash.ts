/**
 * Password storage: scrypt at today's cost with a random 16-byte salt per hash, kept as a PHC
 * string that carries its parameters (`$scrypt$ln=14,r=8,p=5$<salt>$<hash>`), so that a hash made
 * at an older cost still verifies and is reported for re-hashing. Every hash and verification
 * runs under the instance's cap (`hashing-slots.ts`), and every verification costs the same
 * whatever is stored: a malformed or unknown string is answered only after a full hash.
 *
 * The password is hashed as its NFKC form (NIST SP 800-63B rev 4 §3.1.1.2), whole: no truncation.
 * A bcrypt hash from an app's own table (`legacyHashes: "bcrypt"`) is checked against the
 * password exactly as typed, as the app hashed it (`legacy-bcrypt.ts`, loaded only then).
 *
 * @see https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md PHC string format
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
import { randomBytes } from "../crypto/crypto.js"
import { sameBytes } from "../crypto/crypto-engine.js"
import { hashingConcurrency, hashingSlots } from "./hashing-slots.js"
import { normalizePassword } from "./rules.js"
import { scrypt, scryptMemory, type ScryptCost } from "./scrypt.js"

/** Today's cost: N = 2^14 (16 MiB per lane with r = 8), five lanes; one of OWASP's scrypt lines. */
export const SCRYPT_COST: Readonly<ScryptCost> = { ln: 14, r: 8, p: 5 }
/** Bytes of salt per hash. */
const SALT_BYTES = 16
/** Bytes of derived key kept. */
const KEY_BYTES = 32
/**
 * The costs a stored string may name and still be verified with its own parameters: a hash made
 * at a lower or higher cost than today's (then re-hashed), never one that would hold the instance
 * (a stored `ln=30` is treated as malformed, at today's cost).
 */
const STORED_BOUNDS = { ln: [10, 20], r: [1, 32], p: [1, 16], memory: 256 * 1024 * 1024 } as const

/** Waiting hashes per slot before a new one is refused. */
const QUEUE_PER_SLOT = 64

const concurrency = hashingConcurrency()
/** The instance's one cap on hashing, shared by every configuration in it. */
export const hashing = hashingSlots(concurrency, QUEUE_PER_SLOT * concurrency)

const encoder = new TextEncoder()

/** A parsed `$scrypt$` PHC string. */
interface StoredScrypt extends ScryptCost {
  salt: Uint8Array
  key: Uint8Array
}

/** Bytes as PHC's base64: the standard alphabet without padding. */
function phcBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/=+$/u, "")
}

/** PHC's base64 back to bytes; `undefined` for anything else. */
function fromPhcBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*$/u.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text + "=".repeat((4 - (text.length % 4)) % 4))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  // Only the canonical spelling: trailing bits that decode to the same bytes are another string.
  return phcBase64(bytes) === text ? bytes : undefined
}

/** `$scrypt$ln=..,r=..,p=..$salt$hash` as a PHC string. */
export function formatScrypt(stored: StoredScrypt): string {
  return `$scrypt$ln=${String(stored.ln)},r=${String(stored.r)},p=${String(stored.p)}$${phcBase64(stored.salt)}$${phcBase64(stored.key)}`
}

function within(value: number, [low, high]: readonly [number, number]): boolean {
  return value >= low && value <= high
}

/**
 * A stored `$scrypt$` PHC string, or `undefined` when it is not one this module made or could
 * verify at a bounded cost (another algorithm, parameters out of bounds, a salt under 16 bytes,
 * a hash under 16 bytes).
 */
export function parseScrypt(stored: string): StoredScrypt | undefined {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{22,88})\$([A-Za-z0-9+/]{22,88})$/u.exec(stored)
  if (match === null) return undefined
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (!within(ln, STORED_BOUNDS.ln) || !within(r, STORED_BOUNDS.r) || !within(p, STORED_BOUNDS.p)) return undefined
  if (scryptMemory({ ln, r, p }) > STORED_BOUNDS.memory) return undefined
  const salt = fromPhcBase64(match[4] as string)
  const key = fromPhcBase64(match[5] as string)
  if (salt === undefined || key === undefined || salt.length < SALT_BYTES || key.length < 16) return undefined
  return { ln, r, p, salt, key }
}

/** The bytes a password is hashed as: its NFKC form in UTF-8, whole. */
function passwordBytes(password: string): Uint8Array {
  return encoder.encode(normalizePassword(password))
}

/** One capped scrypt derivation. */
function derive(password: string, salt: Uint8Array, cost: ScryptCost, keyLength: number): Promise<Uint8Array> {
  return hashing.run(() => scrypt(passwordBytes(password), salt, { ln: cost.ln, r: cost.r, p: cost.p, keyLength }))
}

/**
 * Hashes `password` for storage: scrypt at {@link SCRYPT_COST} with a fresh random 16-byte salt,
 * as a PHC string (`$scrypt$ln=14,r=8,p=5$<salt>$<hash>`). Two hashes of one password differ.
 *
 * @throws {HashingBusy} when too many hashes are already waiting on this instance.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, SCRYPT_COST, KEY_BYTES)
  return formatScrypt({ ...SCRYPT_COST, salt, key })
}

/** Whether a bcrypt hash (`$2a$`, `$2b$`, `$2y$`) is what `stored` looks like. */
function looksLikeBcrypt(stored: string): boolean {
  return /^\$2[aby]\$/u.test(stored)
}

/**
 * Verifies `password` against `stored`: a PHC string {@link hashPassword} made (at today's cost
 * or another within bounds), or, when `options.legacy` is `"bcrypt"`, a bcrypt hash
 * (`$2a$`, `$2b$`, `$2y$`) from the app's own table, checked against the password as typed.
 *
 * `ok` says whether it matches (compared in constant time); `rehash` is `true` only for a match
 * that should be stored again with {@link hashPassword}: a bcrypt hash, or a PHC string with
 * other parameters than today's. Anything else stored (malformed, another algorithm, a bcrypt
 * hash without `legacy`, parameters out of bounds) answers `{ ok: false, rehash: false }` after
 * the full cost of a verification, so the answer's time does not tell it apart.
 *
 * @throws {HashingBusy} when too many hashes are already waiting on this instance.
 */
export async function verifyPassword(stored: string, password: string, options?: { legacy?: "bcrypt" }): Promise<{ ok: boolean; rehash: boolean }> {
  const parsed = parseScrypt(stored)
  if (parsed !== undefined) {
    const key = await derive(password, parsed.salt, parsed, parsed.key.length)
    const ok = sameBytes(key, parsed.key, parsed.key.length)
    const current = parsed.ln === SCRYPT_COST.ln && parsed.r === SCRYPT_COST.r && parsed.p === SCRYPT_COST.p
    return { ok, rehash: ok && !(current && parsed.salt.length === SALT_BYTES && parsed.key.length === KEY_BYTES) }
  }
  if (options?.legacy === "bcrypt" && looksLikeBcrypt(stored)) {
    const { verifyBcrypt } = await import("./legacy-bcrypt.js")
    const ok = await verifyBcrypt(stored, password, hashing)
    if (ok !== undefined) return { ok, rehash: ok }
  }
  await spendVerifyCost(password)
  return { ok: false, rehash: false }
}

/**
 * Spends what one verification at today's cost spends, against nothing: for the paths that have
 * no stored hash to check (an unknown address), so they take as long as the known ones.
 *
 * @throws {HashingBusy} when too many hashes are already waiting on this instance.
 */
export async function spendVerifyCost(password: string): Promise<void> {
  const key = await derive(password, randomBytes(SALT_BYTES), SCRYPT_COST, KEY_BYTES)
  // Compared like a real verification, so the unknown path does all the same work.
  sameBytes(key, new Uint8Array(KEY_BYTES), KEY_BYTES)
}
