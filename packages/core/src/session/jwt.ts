/**
 * The JWT session strategy: the session is a JWT sealed as a JWE in the session cookie.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519 JSON Web Token
 * @see https://www.rfc-editor.org/rfc/rfc7516 JSON Web Encryption
 */
import { deriveKeys, openJwe, sealJwe, type SecretKey } from "../crypto.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js"

function secretList(secret: string | string[]): string[] {
  return Array.isArray(secret) ? secret : [secret]
}

const secretLists = new Map<string, string[]>()

/** A stable array per secret, so the derived keys stay cached across calls with a plain string. */
function stableSecrets(secret: string | string[]): readonly string[] {
  if (Array.isArray(secret)) return secret
  let list = secretLists.get(secret)
  if (list === undefined) {
    list = secretList(secret)
    if (secretLists.size < 64) secretLists.set(secret, list)
  }
  return list
}

/**
 * Seals a JWT: sets `iat`, `exp` (`iat + maxAge`) and a `jti`, and encrypts it with a key
 * derived from the first secret and the salt (the cookie name).
 *
 * @example
 * ```ts
 * const cookie = await encode({ token: { sub: "42" }, secret: process.env.AUTH_SECRET!, salt: "authjs.session-token", maxAge: 3600 })
 * ```
 */
export async function encode({ token, secret, salt, maxAge }: JWTEncodeParams): Promise<string> {
  const secrets = stableSecrets(secret)
  const [key] = await deriveKeys(secrets, salt, "jwe")
  const now = Math.floor(Date.now() / 1000)
  return sealJwe({ ...token, iat: now, exp: now + maxAge, jti: crypto.randomUUID() }, key as SecretKey)
}

/**
 * Opens a JWT sealed by {@link encode} with any of the secrets; `null` when it is absent,
 * malformed, tampered with, sealed with an unknown secret, or expired.
 */
export async function decode({ token, secret, salt }: JWTDecodeParams): Promise<JWT | null> {
  if (token === undefined || token === "") return null
  const payload = await openJwe(token, await deriveKeys(stableSecrets(secret), salt, "jwe"))
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null
  const jwt = payload as JWT
  if (typeof jwt.exp !== "number" || jwt.exp <= Date.now() / 1000) return null
  return jwt
}
