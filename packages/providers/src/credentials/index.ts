/**
 * Credentials: a sign-in form the app checks itself (a username and password, a one-time code).
 * The fields declared in `credentials` are rendered on the built-in sign-in page and are the only
 * ones accepted; `authorize` returns the user to sign in, or `null` (or throws `CredentialsSignin`)
 * to refuse. With database sessions it must return a user the adapter stores.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html
 * @module credentials
 */
import { credentials as credentialsFlow } from "@portcullis/core/credentials"
import { Configuration, FLOW, type CredentialInput, type CredentialsConfig, type CredentialsUserConfig } from "@portcullis/core/providers"

const defaults = { id: "credentials", name: "Credentials", type: "credentials" } as const

/**
 * What `Credentials()` takes: the fields and `authorize`. `authorize` is optional in the type, as
 * in Auth.js's, but genuinely needed (without it nobody could sign in): the factory names it.
 */
export type CredentialsOptions<C extends Record<string, CredentialInput>> = CredentialsUserConfig<C>

/**
 * A credentials provider.
 *
 * @throws {Configuration} when `authorize` is missing.
 * @example
 * ```ts
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   authorize: async ({ username, password }) => (await users.check(username, password)) ?? null,
 * })
 * ```
 */
export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  config: CredentialsOptions<C>,
): CredentialsConfig<C> {
  const { authorize } = config
  if (typeof authorize !== "function") throw new Configuration("Credentials: set `authorize` to a function that checks the credentials and returns a user or null.")
  return {
    ...config,
    authorize,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: defaults.type,
    credentials: config.credentials ?? ({} as C),
    [FLOW]: credentialsFlow,
  }
}
