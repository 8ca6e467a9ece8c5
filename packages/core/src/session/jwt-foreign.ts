/**
 * Opens a session JWT that does not carry the protected header we seal with: one whose header
 * names our key with other bytes or another `kid`, Auth.js's `A256GCM` tokens, and the sessions
 * earlier releases of this package sealed. Loaded when such a token first arrives: a token we
 * sealed opens without it.
 */
import { cachedPerSecrets, deriveKeys, engine, fromBase64url, hkdfSha256, importGcmKey, type CompactJwe, type SecretKey } from "../crypto/crypto.js"
import { openGcm, parseJson } from "../crypto/sealed.js"
import { SessionTokenError } from "../errors/errors.js"
import { ALTERED, ENC, keyInfo, thumbprint, type SessionKey, type SessionKeys } from "./jwt-keys.js"

const encoder = new TextEncoder()

const NO_KEY = "The session token was sealed with a secret or salt that is not configured (or rotated out)."

/** The `A256GCM` keys Auth.js also opens with: the same derivation, 32 bytes. Derived only when such a token arrives. */
function gcmKeys(secrets: readonly string[], salt: string): Promise<{ key: SecretKey; kid: string }[]> {
  return cachedPerSecrets(secrets, `authjs-gcm\u0000${salt}`, () =>
    Promise.all(
      secrets.map(async (secret) => {
        const raw = await hkdfSha256(secret, salt, keyInfo(salt), 32)
        return { key: await importGcmKey(raw), kid: await thumbprint(raw) }
      }),
    ),
  )
}

/** The parsed protected header of a JWE we did not seal with the current keys. */
function readHeader(jwe: CompactJwe): { enc: unknown; kid: unknown } {
  const header = fromBase64url(jwe.header)
  const parsed = header === undefined ? undefined : parseJson(header)
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SessionTokenError("The session token's header is not a JSON object.")
  }
  const { alg, enc, kid, zip, crit } = parsed as Record<string, unknown>
  if (alg !== "dir") throw new SessionTokenError('The session token is not sealed with `alg: "dir"`.')
  if (zip !== undefined || crit !== undefined) throw new SessionTokenError("The session token uses JWE features Auth.js refuses (`zip` or `crit`).")
  return { enc, kid }
}

/** Opens a header-named `A256CBC-HS512` token with the key its `kid` names, or with each key. */
async function openCbc(jwe: CompactJwe, kid: unknown, keys: SessionKeys): Promise<Uint8Array> {
  let candidates: readonly SessionKey[] = keys.keys
  if (kid !== undefined) {
    const named = typeof kid === "string" ? keys.byKid.get(kid) : undefined
    if (named === undefined) throw new SessionTokenError(NO_KEY)
    candidates = [named]
  }
  if (jwe.iv.length === 16 && jwe.tag.length === 32) {
    const aad = encoder.encode(jwe.header)
    for (const { key } of candidates) {
      const plain = await engine.decryptCbcHmac(key, jwe.iv, aad, jwe)
      if (plain !== undefined) return plain
    }
  }
  throw new SessionTokenError(kid === undefined ? ALTERED : "The session token does not authenticate under the key its `kid` names: it was altered.")
}

/**
 * Opens an `A256GCM` token: Auth.js opens those with the same derivation; earlier releases of
 * this package sealed sessions so with their own derivation, and those still open until they expire.
 */
async function openGcmToken(jwe: CompactJwe, kid: unknown, secrets: readonly string[], salt: string): Promise<Uint8Array> {
  const aad = encoder.encode(jwe.header)
  const authjs = (await gcmKeys(secrets, salt)).filter((entry) => kid === undefined || entry.kid === kid).map((entry) => entry.key)
  if (kid !== undefined && authjs.length === 0) throw new SessionTokenError(NO_KEY)
  const plain = (await openGcm(jwe, aad, authjs)) ?? (kid === undefined ? await openGcm(jwe, aad, await deriveKeys(secrets, salt, "jwe")) : undefined)
  if (plain === undefined) throw new SessionTokenError(ALTERED)
  return plain
}

/**
 * The plaintext of a session token whose header is not one of `keys`' own, opened by what the
 * header names.
 *
 * @throws {SessionTokenError} when the header is not JSON, names another algorithm or a key none
 * of the secrets derive, or the token does not authenticate.
 */
export function openForeignToken(jwe: CompactJwe, keys: SessionKeys, secrets: readonly string[], salt: string): Promise<Uint8Array> {
  const { enc, kid } = readHeader(jwe)
  if (enc === ENC) return openCbc(jwe, kid, keys)
  if (enc === "A256GCM") return openGcmToken(jwe, kid, secrets, salt)
  throw new SessionTokenError('The session token is not encrypted with "A256CBC-HS512" or "A256GCM".')
}
