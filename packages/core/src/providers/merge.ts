/**
 * The one typed merge every built-in provider factory uses to lay a user's options over its
 * defaults.
 */
import { customFetch, incompleteProvider } from "../config/flow-key.js"
import { missingIssuer } from "./tenant.js"
import type { OAuthConfig } from "./types.js"

interface EndpointObject {
  url?: string
  params?: Record<string, unknown>
}

function mergeEndpoint<E extends EndpointObject>(
  defaults: string | E | undefined,
  user: string | E | undefined,
): string | E | undefined {
  if (user === undefined) return defaults
  if (defaults === undefined || (typeof user === "string" && typeof defaults === "string")) return user
  const base: EndpointObject = typeof defaults === "string" ? { url: defaults } : defaults
  if (typeof user === "string") return { ...base, url: user } as E
  return { ...base, ...user, params: { ...base.params, ...user.params } }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {}
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) out[key] = value[key]
  }
  return out
}

/**
 * Lays a user's options over a provider's defaults: top-level fields replace, the known
 * nested objects (`authorization`, `token`, `userinfo`, their `params`, `client`, `style`)
 * merge one level deep, `undefined` never erases a default, and neither input is mutated. A
 * configuration built on `tenantIssuer`'s placeholder comes back marked as lacking its issuer. The
 * user's `[customFetch]` replaces the provider's.
 * `oauthProvider` from `@portcullis/core/oauth` does the same and attaches the OAuth flow.
 *
 * @example
 * ```ts
 * export default function Acme(config: OAuthUserConfig<AcmeProfile>): OAuth2Config<AcmeProfile> {
 *   return mergeProviderConfig({ id: "acme", name: "Acme", type: "oauth", ... }, config)
 * }
 * ```
 */
export function mergeProviderConfig<C extends OAuthConfig<never>>(
  defaults: C,
  user: Partial<Omit<C, "type">> | undefined,
): C {
  const given = (user === undefined ? {} : withoutUndefined(user)) as Partial<C>
  const merged: C = { ...defaults, ...given, type: defaults.type }
  const authorization = mergeEndpoint(defaults.authorization, given.authorization)
  const token = mergeEndpoint(defaults.token, given.token)
  const userinfo = mergeEndpoint(defaults.userinfo, given.userinfo)
  if (authorization !== undefined) merged.authorization = authorization
  if (token !== undefined) merged.token = token
  if (userinfo !== undefined) merged.userinfo = userinfo
  if (defaults.client !== undefined || given.client !== undefined) merged.client = { ...defaults.client, ...given.client }
  if (defaults.style !== undefined || given.style !== undefined) merged.style = { ...defaults.style, ...given.style }
  // A symbol key, which the copy of the named options above leaves behind.
  if (user?.[customFetch] !== undefined) merged[customFetch] = user[customFetch]
  const problem = missingIssuer(merged)
  return problem === undefined ? merged : incompleteProvider(merged, problem)
}
