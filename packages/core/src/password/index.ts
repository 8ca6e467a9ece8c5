/**
 * `@portcullis/core/password`: the password-account flow (sign-up with a confirmed address,
 * sign-in, reset and change) that `Password()` from `@portcullis/providers` carries. Apps that do
 * not configure it bundle none of it.
 *
 * @example
 * ```ts
 * import Password from "@portcullis/providers/password"
 * Auth(request, { adapter, providers: [Password()], secret })
 * ```
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html NIST SP 800-63B rev 4
 * @module password
 */
import { FLOW } from "../config/flows.js"
import { password } from "./flow.js"

export type { PasswordConfig, PasswordOptions, PasswordStore } from "../providers/types.js"
export { FLOW, password }
// For seeding a user's hash (a fixture, a migration script) exactly as the flow stores it.
export { hashPassword, verifyPassword } from "./hash.js"

/** What `Password()` spreads into its configuration: the flow, under {@link FLOW}. */
export const passwordFlow = { [FLOW]: password } as const
