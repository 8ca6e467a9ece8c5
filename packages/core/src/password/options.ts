/**
 * A `Password()` provider's configuration, checked once and normalised: whether a new account
 * must confirm its address, the rules a new password must pass (`rules.ts`), the legacy hashes it
 * accepts once, and where the hashes live.
 */
import { Configuration } from "../errors/errors.js"
import { isRecord } from "../config/read.js"
import type { ProviderSetup } from "../internal.js"
import type { PasswordStore } from "../providers/types.js"
import { readPasswordRules, type PasswordRules } from "./rules.js"

/** A `Password()` provider as its routes use it. */
export interface InternalPasswordProvider {
  id: string
  name: string
  /** A new account signs in only once its address is confirmed. */
  requireEmailVerification: boolean
  rules: PasswordRules
  /** The legacy hash format accepted once (`legacyHashes`). */
  legacy: "bcrypt" | undefined
  /** The app's own store of hashes, else the adapter's methods. */
  store: PasswordStore | undefined
}

/** The options `Password()` has; anything else is a typo that would silently change nothing. */
const OPTIONS = new Set(["id", "name", "type", "style", "requireEmailVerification", "minPasswordLength", "maxPasswordLength", "breachedPasswords", "legacyHashes", "store"])

/**
 * Reads a `Password()` provider's options.
 *
 * @throws {Configuration} naming an option it does not have or one whose value is not usable.
 */
export function configurePassword(config: Readonly<Record<string, unknown>>, setup: ProviderSetup | undefined): InternalPasswordProvider {
  const id = String(config.id)
  const unknown = Object.keys(config).filter((key) => !OPTIONS.has(key))
  if (unknown.length > 0) throw new Configuration(`Provider "${id}" (Password) has no option ${unknown.map((key) => `\`${key}\``).join(", ")}.`)
  const { requireEmailVerification, legacyHashes, store } = config
  if (requireEmailVerification !== undefined && typeof requireEmailVerification !== "boolean") {
    throw new Configuration(`\`providers["${id}"].requireEmailVerification\` must be a boolean.`)
  }
  if (legacyHashes !== undefined && legacyHashes !== "bcrypt") throw new Configuration(`\`providers["${id}"].legacyHashes\` must be "bcrypt" (or left out).`)
  if (store !== undefined && !(isRecord(store) && typeof store.get === "function" && typeof store.set === "function")) {
    throw new Configuration(`\`providers["${id}"].store\` must be an object with \`get(userId)\` and \`set(userId, hash)\`.`)
  }
  return {
    id,
    name: typeof config.name === "string" && config.name !== "" ? config.name : id,
    requireEmailVerification: requireEmailVerification ?? true,
    rules: readPasswordRules(config, { mfa: setup?.mfa }),
    legacy: legacyHashes,
    store: store as PasswordStore | undefined,
  }
}
