/**
 * Password: accounts whose passwords core keeps (sign-up with a confirmed address, sign-in, reset
 * and change), hashed with a memory-hard function and held to NIST SP 800-63B rev 4's rules.
 * Needs an adapter with session records and a place for the hashes (the adapter's
 * `getPasswordHash` / `setPasswordHash`, or `store`). For a user table of your own, keep
 * `Credentials()`.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html
 * @module password
 */
import type { PasswordConfig, PasswordOptions } from "@portcullis/core/providers"
import { passwordFlow } from "@portcullis/core/password"

const defaults = { id: "password", name: "Password", type: "credentials" } as const

export type { PasswordOptions }

/**
 * A password provider.
 *
 * @example
 * ```ts
 * import Password from "@portcullis/providers/password"
 * Auth(request, { adapter, providers: [Password()], mail: { send }, secret })
 * ```
 */
export default function Password(config: PasswordOptions = {}): PasswordConfig {
  return {
    ...config,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: defaults.type,
    ...passwordFlow,
  }
}
