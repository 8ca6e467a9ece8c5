/**
 * The values we seal for a browser to hand back (checks, end-session and sign-up cookies, a
 * passkey challenge), as compact JWE with `dir` and `A256GCM`, and the SHA-256 keys that stand
 * for a secret. Only code a sign-in or a sign-out loads uses them: apart from `crypto.ts`, which
 * every session read loads, so an app's ordinary requests load none of this.
 */
import { base64url, engine, joinCompactJwe, randomBytes, splitCompactJwe, type CompactJwe, type CryptoEngine, type SecretKey } from "./crypto.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The SHA-256 of `value` (UTF-8), as unpadded base64url: a short, fixed-size key that holds no copy of a secret. */
export async function sha256Base64url(value: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))))
}

const JWE_HEADER = base64url(encoder.encode(JSON.stringify({ alg: "dir", enc: "A256GCM" })))
const JWE_AAD = encoder.encode(JWE_HEADER)

/**
 * Seals a JSON value as a compact JWE (`alg: dir`, `enc: A256GCM`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1 JWE Compact Serialization
 */
export async function sealJwe(payload: unknown, key: SecretKey, using: CryptoEngine = engine): Promise<string> {
  const iv = randomBytes(12)
  return joinCompactJwe(JWE_HEADER, iv, await using.encrypt(key, iv, JWE_AAD, encoder.encode(JSON.stringify(payload))))
}

/**
 * Opens a compact JWE sealed by {@link sealJwe} with any of `keys`; `undefined` when it is
 * malformed, tampered with, or sealed with another key.
 */
export async function openJwe(token: string, keys: readonly SecretKey[], using: CryptoEngine = engine): Promise<unknown> {
  const jwe = splitCompactJwe(token)
  if (jwe?.header !== JWE_HEADER) return undefined
  const plain = await openGcm(jwe, JWE_AAD, keys, using)
  return plain === undefined ? undefined : parseJson(plain)
}

/**
 * The plaintext of an `A256GCM` compact JWE under the first of `keys` that authenticates it;
 * `undefined` when none does.
 */
export async function openGcm(jwe: CompactJwe, aad: Uint8Array<ArrayBuffer>, keys: readonly SecretKey[], using: CryptoEngine = engine): Promise<Uint8Array | undefined> {
  const { iv, ciphertext, tag } = jwe
  if (iv.length !== 12 || tag.length !== 16) return undefined
  for (const key of keys) {
    const plain = await using.decrypt(key, iv, aad, { ciphertext, tag })
    if (plain !== undefined) return plain
  }
  return undefined
}

/** UTF-8 JSON bytes as a value; `undefined` when they are not JSON. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown
  } catch {
    return undefined
  }
}
