/**
 * An authenticator app, for tests that enrol one: the RFC 6238 code of a base32 secret, written
 * apart from core's own TOTP code so that a test checks core against an independent reading of
 * the RFC (SHA-1, 6 digits, 30-second steps, the defaults every authenticator app uses).
 */
import { createHmac } from "node:crypto"

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/**
 * The bytes of a base32 secret as a set-up shows it (RFC 4648 section 6; spaces, padding and
 * case ignored, as the apps ignore them).
 *
 * @throws {TypeError} for a letter outside the base32 alphabet.
 */
export function base32Bytes(secret: string): Buffer {
  let bits = ""
  for (const char of secret.replace(/[\s=]/g, "").toUpperCase()) {
    const digit = BASE32.indexOf(char)
    if (digit < 0) throw new TypeError(`"${char}" is not a base32 letter`)
    bits += digit.toString(2).padStart(5, "0")
  }
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)))
}

/** The RFC 6238 time step of `at` (milliseconds since the epoch): 30-second steps from the epoch. */
export function totpStepAt(at: number = Date.now()): number {
  return Math.floor(at / 30_000)
}

/**
 * The 6-digit code an authenticator app shows for the base32 `secret` at time step `step`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4 (TOTP), https://www.rfc-editor.org/rfc/rfc4226#section-5.3 (dynamic truncation)
 */
export function totpCodeAt(secret: string, step: number = totpStepAt()): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", base32Bytes(secret)).update(counter).digest()
  const offset = (mac.at(-1) ?? 0) & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}
