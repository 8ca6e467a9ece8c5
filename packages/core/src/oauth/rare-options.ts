/**
 * The OAuth provider options apps seldom set, checked and normalised: client authentication by
 * a signed assertion (`client_secret_jwt`, `private_key_jwt` with `token.clientPrivateKey`),
 * endpoint `params` that are not text, `"nonce"` on a plain OAuth 2.0 provider, `jwks_endpoint`
 * and `[customFetch]`, each as Auth.js takes it, and the provider's own multi-factor login
 * (`trustProviderMfa`, `acrValues`). The flow fetches this module only for a provider
 * that sets one (`provider.ts` tells), so most apps never load these checks.
 */
import { customFetch } from "../config/flow-key.js"
import { isRecord } from "../config/read.js"
import { Configuration } from "../errors/errors.js"
import type { ClientPrivateKey, OAuthConfig, TokenEndpointAuthMethod } from "../providers/types.js"
import { checkProviderUrl, type InternalOAuthProvider, type RawParams } from "./provider.js"

const AUTH_METHODS: readonly string[] = ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]

/**
 * An endpoint's parameters as text, as Auth.js sends them: numbers and booleans as their text,
 * the OpenID Connect `claims` request as JSON.
 *
 * @throws {Configuration} naming the parameter whose value has no such form (`null`, an array,
 *   another object, a number that is not finite), which Auth.js would send as `"null"` or
 *   `"[object Object]"`.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClaimsParameter
 */
function textParams(params: Record<string, unknown>, option: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (typeof value === "string") out[key] = value
    else if (typeof value === "boolean" || typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value))) out[key] = String(value)
    else if (key === "claims" && isRecord(value)) out[key] = JSON.stringify(value)
    else throw new Configuration(`\`${option}.${key}\` must be a string, a finite number or a boolean${key === "claims" ? " (or an object, sent as JSON)" : ""}.`)
  }
  return out
}

/**
 * The private key of `private_key_jwt`: a private `CryptoKey`, or one with its `kid`.
 *
 * @throws {Configuration} naming `token.clientPrivateKey` when it is missing or not such a key.
 */
function clientPrivateKeyOf(value: unknown, option: string): CryptoKey | ClientPrivateKey {
  const isPrivate = (key: unknown): key is CryptoKey => typeof key === "object" && key !== null && (key as { type?: unknown }).type === "private"
  if (isPrivate(value)) return value
  if (isRecord(value) && isPrivate(value.key) && (value.kid === undefined || typeof value.kid === "string")) return value as unknown as ClientPrivateKey
  throw new Configuration(`\`${option}\` must be a private CryptoKey (or \`{ key, kid }\`) for \`client.token_endpoint_auth_method: "private_key_jwt"\`.`)
}

/**
 * `trustProviderMfa` and `acrValues`, for an OpenID Connect provider only (its ID token is always
 * validated): `acrValues` each a string without spaces, as `acr_values` separates them.
 *
 * @throws {Configuration} naming the option that is not usable.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest (3.1.2.1, `acr_values`)
 */
function providerMfaOf(config: OAuthConfig, at: (option: string) => string): { trust: boolean; acrValues: string[] | undefined } {
  const { trustProviderMfa, acrValues } = config as { trustProviderMfa?: unknown; acrValues?: unknown }
  if (trustProviderMfa === undefined && acrValues === undefined) return { trust: false, acrValues: undefined }
  if (config.type !== "oidc") throw new Configuration(`\`${at(trustProviderMfa === undefined ? "acrValues" : "trustProviderMfa")}\` is for OpenID Connect providers (\`type: "oidc"\`), whose ID token says how the user logged in.`)
  if (trustProviderMfa !== undefined && typeof trustProviderMfa !== "boolean") throw new Configuration(`\`${at("trustProviderMfa")}\` must be a boolean.`)
  if (acrValues === undefined) return { trust: trustProviderMfa === true, acrValues: undefined }
  if (!Array.isArray(acrValues) || acrValues.length === 0 || !acrValues.every((value) => typeof value === "string" && /^\S+$/u.test(value))) {
    throw new Configuration(`\`${at("acrValues")}\` must be a non-empty array of strings without spaces, such as \`["urn:example:loa:mfa"]\`.`)
  }
  const params: unknown = isRecord(config.authorization) ? config.authorization.params : undefined
  if (isRecord(params) && params.acr_values !== undefined) throw new Configuration(`\`${at("acrValues")}\` and \`${at("authorization.params.acr_values")}\` are both set: keep \`acrValues\`.`)
  return { trust: trustProviderMfa === true, acrValues: [...(acrValues as string[])] }
}

/**
 * `provider` (what `provider.ts` made of the common options) completed with the seldom set ones
 * of `config`.
 *
 * @throws {Configuration} naming the option that is not usable.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
 */
export function withRareOptions(provider: InternalOAuthProvider, config: OAuthConfig, params: RawParams): InternalOAuthProvider {
  const at = (option: string): string => `providers["${provider.id}"].${option}`
  const authMethod = config.client?.token_endpoint_auth_method ?? "client_secret_basic"
  if (typeof authMethod !== "string" || !AUTH_METHODS.includes(authMethod)) {
    throw new Configuration(`\`${at("client.token_endpoint_auth_method")}\` must be ${AUTH_METHODS.map((method) => `"${method}"`).join(", ")}.`)
  }
  const handler: unknown = config.token
  const clientPrivateKey = authMethod === "private_key_jwt" ? clientPrivateKeyOf(isRecord(handler) ? handler.clientPrivateKey : undefined, at("token.clientPrivateKey")) : undefined

  const jwksEndpoint: unknown = config.jwks_endpoint
  if (jwksEndpoint !== undefined) checkProviderUrl(jwksEndpoint, at("jwks_endpoint"), provider.allowInsecureRequests)
  const fetchOverride: unknown = config[customFetch]
  if (fetchOverride !== undefined && typeof fetchOverride !== "function") throw new Configuration(`\`${at("[customFetch]")}\` must be a fetch function.`)

  // The nonce comes back in an ID token, which is used only once verified with the provider's keys.
  if (provider.type === "oauth" && provider.checks.has("nonce") && provider.wellKnown === undefined && jwksEndpoint === undefined) {
    throw new Configuration(`\`${at("checks")}\` has "nonce", which an ID token verified with the provider's keys must carry: set \`jwks_endpoint\` (or \`wellKnown\`).`)
  }

  const providerMfa = providerMfaOf(config, at)
  const acrValues: Record<string, string> = providerMfa.acrValues === undefined ? {} : { acr_values: providerMfa.acrValues.join(" ") }

  const completed: InternalOAuthProvider = {
    ...provider,
    authMethod: authMethod as TokenEndpointAuthMethod,
    authorization: { ...provider.authorization, params: { ...textParams(params.authorization, at("authorization.params")), ...acrValues } },
    token: { ...provider.token, params: params.token === undefined ? undefined : textParams(params.token, at("token.params")) },
    userinfo: { ...provider.userinfo, params: params.userinfo === undefined ? undefined : textParams(params.userinfo, at("userinfo.params")) },
  }
  if (clientPrivateKey !== undefined) completed.clientPrivateKey = clientPrivateKey
  if (jwksEndpoint !== undefined) completed.jwksEndpoint = jwksEndpoint as string
  if (fetchOverride !== undefined) completed.customFetch = fetchOverride as typeof fetch
  if (providerMfa.trust) completed.trustProviderMfa = true
  if (providerMfa.acrValues !== undefined) completed.acrValues = providerMfa.acrValues
  return completed
}
