/**
 * Verification tokens of sign-in links: random, single use, expiring, and stored only as an
 * HMAC keyed by the secret, so a leaked token table signs nobody in.
 */
import type { Adapter } from "../adapters.js"
import type { InternalConfig } from "../internal.js"
import { deriveKeys, hmac, randomString, type SecretKey } from "../crypto/crypto.js"
import { Configuration } from "../errors/errors.js"
import { callAdapter } from "../outbound/store.js"
import type { InternalEmailProvider } from "./provider.js"

const SALT = "authjs.verification-token"
/** As many characters as 32 random bytes in base64url: the least entropy a token may carry. */
const MIN_TOKEN = 43
/** The longest token accepted, from a generator or from a link. */
export const MAX_TOKEN = 512

/** The secrets a provider's token HMAC is keyed by: its own `secret` (Auth.js's per-provider option), else the app's. */
function keySecrets(config: InternalConfig, provider: InternalEmailProvider): readonly string[] {
  return provider.secret === undefined ? config.secrets : [provider.secret]
}

async function generate(provider: InternalEmailProvider): Promise<string> {
  if (provider.generateVerificationToken === undefined) return randomString(32)
  const token: unknown = await provider.generateVerificationToken()
  if (typeof token !== "string" || token.length < MIN_TOKEN || token.length > MAX_TOKEN) {
    throw new Configuration(
      `\`providers["${provider.id}"].generateVerificationToken\` must return a string of ${MIN_TOKEN} to ${MAX_TOKEN} characters (at least 32 random bytes).`,
    )
  }
  return token
}

/**
 * Makes a token for `identifier` and stores its HMAC with its expiry.
 *
 * @throws {Configuration} when a custom generator returns an unusable token.
 * @throws {AdapterError} when the store fails.
 */
export async function createToken(
  config: InternalConfig,
  adapter: Adapter,
  provider: InternalEmailProvider,
  identifier: string,
): Promise<{ token: string; expires: Date }> {
  const token = await generate(provider)
  const expires = new Date(Date.now() + provider.maxAge * 1000)
  const [key] = await deriveKeys(keySecrets(config, provider), SALT, "hmac")
  await callAdapter(adapter, "createVerificationToken", { identifier, token: await hmac(token, key as SecretKey), expires })
  return { token, expires }
}

/**
 * Uses (deletes) the token of a link: `true` when it was stored for `identifier` and has not
 * expired. A token stored under an older secret is still found while that secret is listed.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function useToken(
  config: InternalConfig,
  adapter: Adapter,
  provider: InternalEmailProvider,
  identifier: string,
  token: string,
): Promise<boolean> {
  for (const key of await deriveKeys(keySecrets(config, provider), SALT, "hmac")) {
    const found = await callAdapter(adapter, "useVerificationToken", { identifier, token: await hmac(token, key) })
    if (found === null || typeof found !== "object") continue
    // A third-party adapter may hand back an expired row; it is used up either way.
    const expires = new Date(found.expires).getTime()
    return Number.isFinite(expires) && expires > Date.now()
  }
  return false
}
