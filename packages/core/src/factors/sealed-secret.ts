/**
 * The TOTP secret at rest: sealed with authenticated encryption (a compact JWE, `dir` and
 * `A256GCM`) under a key derived from the secret list (see `keys.ts`), its header naming the
 * key's id so the right key is tried first after a rotation, and every listed secret tried. The
 * sealed value is bound to its user: a row copied onto another user's factor does not open.
 */
import { base64url, engine, fromBase64url, importGcmKey, joinCompactJwe, randomBytes, splitCompactJwe, type CryptoEngine } from "../crypto/crypto.js"
import { openGcm, parseJson } from "../crypto/sealed.js"
import { AdapterError } from "../errors/flow-errors.js"
import { factorKeys, namedFirst, type FactorKey } from "./keys.js"

/** Far longer than any secret core seals: a longer stored value is refused before it is read. */
const MAX_SEALED = 1024

const encoder = new TextEncoder()

function sealKeys(secrets: readonly string[]): Promise<FactorKey[]> {
  return factorKeys(secrets, "totp secret", importGcmKey)
}

/** The protected header of a key's sealed secrets. */
function header(kid: string): string {
  return base64url(encoder.encode(JSON.stringify({ alg: "dir", enc: "A256GCM", kid })))
}

/**
 * Seals a factor's secret (the TOTP secret's bytes) for `userId` under the first secret's key, as
 * a compact JWE whose header names that key's id: what the adapter stores.
 *
 * @throws {MissingSecret} when `secrets` is empty.
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1 JWE Compact Serialization
 */
export async function sealFactorSecret(secrets: readonly string[], secret: Uint8Array, userId: string, using: CryptoEngine = engine): Promise<string> {
  const [first] = await sealKeys(secrets)
  const { key, kid } = first as FactorKey
  const protectedHeader = header(kid)
  const iv = randomBytes(12)
  const plaintext = encoder.encode(JSON.stringify({ sub: userId, k: base64url(secret) }))
  return joinCompactJwe(protectedHeader, iv, await using.encrypt(key, iv, encoder.encode(protectedHeader), plaintext))
}

/** The `kid` of a header {@link header} wrote; `undefined` for any other header. */
function headerKid(value: string): string | undefined {
  const bytes = fromBase64url(value)
  const parsed = bytes === undefined ? undefined : parseJson(bytes)
  if (typeof parsed !== "object" || parsed === null) return undefined
  const { kid } = parsed as Record<string, unknown>
  return typeof kid === "string" && header(kid) === value ? kid : undefined
}

/** The refusal of a stored value: what the store returned is unusable, whichever way. */
function unusable(why: string): AdapterError {
  return new AdapterError(`The stored second-factor secret ${why}.`)
}

/**
 * Opens what {@link sealFactorSecret} sealed for `userId`, with the key its header names first,
 * then every other listed secret's.
 *
 * @throws {AdapterError} when the stored value is not a sealed secret, does not authenticate under
 * any listed secret (it was altered, or sealed with a secret no longer listed), or was sealed for
 * another user. The message names neither the value nor a secret.
 * @throws {MissingSecret} when `secrets` is empty.
 */
export async function openFactorSecret(secrets: readonly string[], sealed: unknown, userId: string, using: CryptoEngine = engine): Promise<Uint8Array<ArrayBuffer>> {
  const keys = await sealKeys(secrets)
  const jwe = typeof sealed === "string" && sealed.length <= MAX_SEALED ? splitCompactJwe(sealed) : undefined
  const kid = jwe === undefined ? undefined : headerKid(jwe.header)
  if (jwe === undefined || kid === undefined) throw unusable("is not one core sealed")
  const plain = await openGcm(jwe, encoder.encode(jwe.header), namedFirst(keys, kid).map((entry) => entry.key), using)
  if (plain === undefined) throw unusable("does not open under any secret in `secret`: it was altered, or sealed with a secret no longer listed")
  const payload = parseJson(plain) as { sub?: unknown; k?: unknown } | undefined
  if (payload?.sub !== userId) throw unusable("was sealed for another user")
  const bytes = typeof payload.k === "string" ? fromBase64url(payload.k) : undefined
  if (bytes === undefined) throw unusable("holds no secret")
  return bytes
}

