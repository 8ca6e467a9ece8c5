/**
 * The keys second factors are stored under: one per listed secret and purpose, derived with
 * HKDF-SHA-256 under the purpose's own `info`, each with a short key id. What is stored names the
 * id of the key it was made with, so a rotated secret list tries that key first; the first secret
 * makes what is stored now, every listed secret still opens or matches what an older one made.
 */
import { base64url, cachedPerSecrets, hkdfSha256, type SecretKey } from "../crypto/crypto.js"
import { MissingSecret } from "../errors/errors.js"

/** What a factor key is for: each purpose gets its own key from the same secret. */
export type FactorKeyPurpose = "backup code" | "totp secret"

/** One listed secret's key for one purpose. */
export interface FactorKey {
  /** 256 bits: an HMAC-SHA-256 key (backup codes) or an AES-256-GCM key (the TOTP secret). */
  key: SecretKey
  /** A short, public name for the key (12 base64url characters), derived apart from it. */
  kid: string
}

/** How a purpose's 32 raw bytes become the key its algorithm takes. */
export type ImportKey = (raw: Uint8Array<ArrayBuffer>) => Promise<SecretKey>

const SALT = "@portcullis/core second factors"

async function factorKey(secret: string, purpose: FactorKeyPurpose, importKey: ImportKey): Promise<FactorKey> {
  const [raw, id] = await Promise.all([
    hkdfSha256(secret, SALT, `@portcullis/core ${purpose} key`, 32),
    // A separate output, so the public id tells nothing about the key's bytes.
    hkdfSha256(secret, SALT, `@portcullis/core ${purpose} key id`, 9),
  ])
  return { key: await importKey(raw), kid: base64url(id) }
}

/**
 * Every listed secret's key for `purpose`, in the list's order (the first makes, all open), derived
 * once per list while recently used. A purpose always imports its keys the same way.
 *
 * @throws {MissingSecret} when the list is empty.
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 */
export function factorKeys(secrets: readonly string[], purpose: FactorKeyPurpose, importKey: ImportKey): Promise<FactorKey[]> {
  if (secrets.length === 0) return Promise.reject(new MissingSecret("Second factors are stored under `secret` (or `AUTH_SECRET`), and none is set."))
  return cachedPerSecrets(secrets, `factors\u0000${purpose}`, () => Promise.all(secrets.map((secret) => factorKey(secret, purpose, importKey))))
}

/** `keys` with the one `kid` names first: the key that most likely made a stored value, then the others. */
export function namedFirst<T extends { kid: string }>(keys: readonly T[], kid: string): T[] {
  const named = keys.filter((key) => key.kid === kid)
  return named.length === 0 ? [...keys] : [...named, ...keys.filter((key) => key.kid !== kid)]
}
