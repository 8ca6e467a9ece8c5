import { envName, readEnv } from "../config/env.js"
import type { OAuthConfig } from "./types.js"

/**
 * The domain a tenant provider's endpoints are built on while its issuer is missing: `.invalid`
 * never resolves (RFC 6761 §6.4), so nothing can ever be sent there.
 */
const PLACEHOLDER_DOMAIN = "issuer-not-set.invalid"
const PLACEHOLDER = /^https:\/\/([a-z0-9-]+)\.issuer-not-set\.invalid(?:[/?#]|$)/

/** What to set, by provider id, for the tenant providers whose issuer was missing. */
const missingIssuers = new Map<string, string>()

/**
 * The `issuer` of a tenant-specific provider (one whose URL is the customer's own domain,
 * realm or tenant): the one in its options, else `AUTH_<ID>_ISSUER`. When neither is set it
 * answers a placeholder on a domain that never resolves, so the factory still returns a
 * configuration (an app that calls it at import time starts): `mergeProviderConfig` marks that
 * configuration as lacking the issuer, and `Auth()` leaves the provider out, logging once what
 * to set (the option, the variable and `what`).
 *
 * @example
 * ```ts
 * const issuer = tenantIssuer("keycloak", config, "your realm's URL, e.g. https://sso.example.com/realms/acme")
 * ```
 */
export function tenantIssuer(id: string, config: { issuer?: string }, what: string): string {
  const variable = envName(id, "ISSUER")
  const issuer = config.issuer ?? readEnv()[variable]
  if (issuer !== undefined && issuer !== "") return issuer
  missingIssuers.set(id, `set \`issuer\` or ${variable} (${what})`)
  return `https://${id}.${PLACEHOLDER_DOMAIN}`
}

/**
 * What to set for a configuration whose endpoints were built on {@link tenantIssuer}'s
 * placeholder, if any of them was.
 */
export function missingIssuer(config: OAuthConfig<never>): string | undefined {
  const { issuer, wellKnown, authorization, token, userinfo } = config
  for (const url of [issuer, wellKnown, ...[authorization, token, userinfo].map((endpoint) => (typeof endpoint === "string" ? endpoint : endpoint?.url))]) {
    const id = typeof url === "string" ? PLACEHOLDER.exec(url)?.[1] : undefined
    if (id !== undefined) return missingIssuers.get(id) ?? `set \`issuer\` or ${envName(id, "ISSUER")}`
  }
  return undefined
}
