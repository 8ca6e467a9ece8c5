/**
 * `@portcullis/core/oauth`: the OAuth 2.0 / OpenID Connect sign-in flow, and the factory helper
 * every OAuth provider of `@portcullis/providers` builds its configuration with.
 *
 * @example
 * ```ts
 * import { oauthProvider } from "@portcullis/core/oauth"
 *
 * export default function Acme(config: OAuthUserConfig<AcmeProfile>): OAuth2Config<AcmeProfile> {
 *   return oauthProvider({ id: "acme", name: "Acme", type: "oauth", authorization: "https://acme.example/authorize", ... }, config)
 * }
 * ```
 *
 * @module oauth
 */
import { FLOW } from "../config/flow-key.js"
import { mergeProviderConfig } from "../providers/merge.js"
import type { OAuthConfig } from "../providers/types.js"
import { oauth } from "./flow.js"

export { oauth }

/**
 * A provider configuration: the user's options laid over the provider's defaults as
 * `mergeProviderConfig` does, carrying the OAuth flow (unless the defaults carry another, as X's
 * OAuth 1.0a variant does). An app importing such a provider bundles the OAuth flow with it.
 */
export function oauthProvider<C extends OAuthConfig<never>>(defaults: C, user: Partial<Omit<C, "type">> | undefined): C {
  return { ...mergeProviderConfig(defaults, user), [FLOW]: defaults[FLOW] ?? oauth }
}
