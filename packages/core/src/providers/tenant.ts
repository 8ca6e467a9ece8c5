import { Configuration } from "../errors/errors.js"
import { envName, readEnv } from "../config/env.js"

/**
 * The `issuer` of a tenant-specific provider (one whose URL is the customer's own domain,
 * realm or tenant): the one in its options, else `AUTH_<ID>_ISSUER`.
 *
 * @throws {Configuration} naming the option, the environment variable and an example URL.
 * @example
 * ```ts
 * const issuer = tenantIssuer("keycloak", config, "your realm's URL, e.g. https://sso.example.com/realms/acme")
 * ```
 */
export function tenantIssuer(id: string, config: { issuer?: string }, what: string): string {
  const variable = envName(id, "ISSUER")
  const issuer = config.issuer ?? readEnv()[variable]
  if (issuer === undefined || issuer === "") {
    throw new Configuration(`Provider "${id}" needs \`issuer\` (or ${variable}): ${what}.`)
  }
  return issuer
}
