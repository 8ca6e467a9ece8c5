/**
 * The session JWT's keys, derived and named as Auth.js derives and names them: HKDF-SHA-256 of
 * the secret with the salt (the cookie's name), and the key's JWK thumbprint as its `kid`. Shared
 * by the read of our own tokens (`./jwt.ts`) and of tokens under another header (`./jwt-foreign.ts`).
 */
import { base64url, cachedPerSecrets, hkdfSha256, importCbcHmacKey, type CbcHmacKey } from "../crypto/crypto.js"

/** The content encryption the session JWT is sealed with. */
export const ENC = "A256CBC-HS512"

/** The message of a token that none of the keys tried authenticates. */
export const ALTERED = "The session token does not authenticate: it was altered, or sealed with another secret."

const encoder = new TextEncoder()

/** One secret's key for one salt, with the protected header that names it. */
export interface SessionKey {
  key: CbcHmacKey
  kid: string
  /** The base64url protected header `{"alg":"dir","enc":"A256CBC-HS512","kid":...}`. */
  header: string
  /** The header's bytes: the JWE's additional authenticated data. */
  aad: Uint8Array<ArrayBuffer>
}

/** Every secret's key for one salt, in the secrets' order, found by header or by `kid`. */
export interface SessionKeys {
  keys: SessionKey[]
  byHeader: Map<string, SessionKey>
  byKid: Map<string, SessionKey>
}

/** Auth.js's HKDF `info`: the salt is both the HKDF salt and part of the info. */
export function keyInfo(salt: string): string {
  return `Auth.js Generated Encryption Key (${salt})`
}

/**
 * The RFC 7638 thumbprint of a symmetric key as an `oct` JWK, hashed with the SHA-2 of the
 * key's own size (SHA-512 for the 64-byte key, SHA-256 for a 32-byte one), as Auth.js names keys.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7638 JWK Thumbprint
 */
export async function thumbprint(raw: Uint8Array): Promise<string> {
  const jwk = `{"k":"${base64url(raw)}","kty":"oct"}`
  const hash = raw.length === 64 ? "SHA-512" : "SHA-256"
  return base64url(new Uint8Array(await crypto.subtle.digest(hash, encoder.encode(jwk))))
}

async function sessionKey(secret: string, salt: string): Promise<SessionKey> {
  const raw = await hkdfSha256(secret, salt, keyInfo(salt), 64)
  const kid = await thumbprint(raw)
  const header = base64url(encoder.encode(JSON.stringify({ alg: "dir", enc: ENC, kid })))
  return { key: await importCbcHmacKey(raw), kid, header, aad: encoder.encode(header) }
}

/** The `A256CBC-HS512` keys of every secret for `salt`, derived once per secrets list and salt. */
export function sessionKeys(secrets: readonly string[], salt: string): Promise<SessionKeys> {
  return cachedPerSecrets(secrets, `authjs\u0000${salt}`, async () => {
    const keys = await Promise.all(secrets.map((secret) => sessionKey(secret, salt)))
    return { keys, byHeader: new Map(keys.map((key) => [key.header, key])), byKid: new Map(keys.map((key) => [key.kid, key])) }
  })
}
