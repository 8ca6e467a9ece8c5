/**
 * An OAuth 2.0 / OpenID Connect provider's configuration, checked and normalised once.
 */
import { customFetch } from "../config/flow-key.js"
import { Configuration } from "../errors/errors.js"
import { isLoopbackAddress } from "../http/loopback.js"
import type {
  AccountCallback,
  ClientPrivateKey,
  OAuthConfig,
  OIDCChecks,
  ProfileCallback,
  TokenEndpointAuthMethod,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
} from "../providers/types.js"
import type { Profile, ProviderButtonStyles } from "../model.js"
import { DEFAULT_CALLBACK_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, envName, isRecord, milliseconds, optionalFunction } from "../config/read.js"
import { userFromClaims } from "../providers/claims.js"
import { mergeProviderConfig } from "../providers/merge.js"

/** An OAuth provider as the routes use it. */
export interface InternalOAuthProvider {
  id: string
  name: string
  type: "oauth" | "oidc"
  /** The provider object as configured, handed to the provider's own hooks. */
  source: OAuthConfig
  clientId: string
  clientSecret: string | undefined
  authMethod: TokenEndpointAuthMethod
  /** The key of `private_key_jwt` (`token.clientPrivateKey`). */
  clientPrivateKey: CryptoKey | ClientPrivateKey | undefined
  client: Record<string, unknown>
  issuer: string | undefined
  wellKnown: string | undefined
  /** The provider's key set URL (`jwks_endpoint`), over its metadata's `jwks_uri`. */
  jwksEndpoint: string | undefined
  authorization: { url: string | undefined; params: Record<string, string> }
  token: { url: string | undefined; params: Record<string, string> | undefined } & Pick<TokenEndpointHandler, "conform" | "request">
  userinfo: { url: string | undefined; params: Record<string, string> | undefined } & Pick<UserinfoEndpointHandler, "request">
  checks: ReadonlySet<OIDCChecks>
  idToken: boolean
  profile: ProfileCallback<Profile>
  account: AccountCallback
  style: ProviderButtonStyles
  allowDangerousEmailAccountLinking: boolean
  /** Keep the tokens in the session cookie when there is no adapter (see `OAuthConfig.tokensInCookie`). */
  tokensInCookie: boolean
  /** Sign out at the provider too (see `OAuthConfig.endSessionOnSignOut`). */
  endSessionOnSignOut: boolean
  /** Receive back-channel logout tokens (see `OAuthConfig.backchannelLogout`). */
  backchannelLogout: boolean
  /** Revoke the tokens once no session holds them (see `OAuthConfig.revokeTokensOnSignOut`). */
  revokeTokensOnSignOut: boolean
  redirectProxyUrl: URL | undefined
  /** Milliseconds one request to the provider may take. */
  timeout: number
  /** Milliseconds the whole callback (discovery, keys, token, userinfo, profile) may take. */
  callbackTimeout: number
  allowInsecureRequests: boolean
  /** The app's own `fetch` for this provider (`[customFetch]`); the global one when `undefined`. */
  customFetch: typeof fetch | undefined
}

type Env = Record<string, string | undefined>


function endpoint(value: unknown, option: string): { url: string | undefined; params: Record<string, unknown>; handler: Record<string, unknown> } {
  if (value === undefined) return { url: undefined, params: {}, handler: {} }
  if (typeof value === "string") return { url: value, params: {}, handler: {} }
  if (!isRecord(value)) throw new Configuration(`\`${option}\` must be a URL or an object with \`url\`.`)
  if (value.url !== undefined && typeof value.url !== "string") throw new Configuration(`\`${option}.url\` must be a string.`)
  if (value.params !== undefined && !isRecord(value.params)) throw new Configuration(`\`${option}.params\` must be an object.`)
  return { url: value.url, params: value.params ?? {}, handler: value }
}

/**
 * An endpoint's parameters as text, as Auth.js sends them: numbers and booleans as their text,
 * the OpenID Connect `claims` request as JSON.
 *
 * @throws {Configuration} naming the parameter whose value has no such form (`null`, an array,
 *   another object, a number that is not finite), which Auth.js would send as `"[object Object]"`.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClaimsParameter
 */
function stringParams(params: Record<string, unknown>, option: string): Record<string, string> {
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

const AUTH_METHODS: readonly string[] = ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]

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

function booleanOption(value: unknown, option: string): boolean {
  if (value !== undefined && typeof value !== "boolean") throw new Configuration(`\`${option}\` must be a boolean.`)
  return value === true
}

/** Reads `profile.sub` / `profile.id` into the user shape, for providers that declare no `profile`. */
export const defaultProfile: ProfileCallback<Profile> = (profile) => {
  const id = profile.sub ?? profile.id
  const first = (...values: unknown[]): unknown => values.find((value) => typeof value === "string" && value !== "")
  // Standard claims, plus the names non-OIDC providers commonly use for the same things.
  return userFromClaims({
    sub: typeof id === "number" ? String(id) : id,
    name: first(profile.name, profile.nickname),
    preferred_username: profile.preferred_username,
    email: profile.email,
    picture: first(profile.picture, profile.image),
  })
}

/** Keeps the token fields worth storing with an account. */
export const defaultAccount: AccountCallback = (tokens) => {
  const account: Record<string, unknown> = {}
  for (const key of ["access_token", "id_token", "refresh_token", "scope", "token_type", "session_state"] as const) {
    if (typeof tokens[key] === "string") account[key] = tokens[key]
  }
  if (typeof tokens.expires_at === "number") account.expires_at = tokens.expires_at
  else if (typeof tokens.expires_in === "number" && Number.isFinite(tokens.expires_in)) {
    account.expires_at = Math.floor(Date.now() / 1000) + Math.floor(tokens.expires_in)
  }
  return account
}

/**
 * A provider written in Auth.js's style carries the options its factory was given (`options`):
 * laid over what it returns, as Auth.js does, by the typed merge of the provider kit.
 *
 * @throws {Configuration} when `options` is not an object.
 */
function withFactoryOptions(given: OAuthConfig): OAuthConfig {
  const { options, ...own } = given
  if (options === undefined) return given
  if (!isRecord(options)) throw new Configuration(`\`providers["${given.id}"].options\` must be an object.`)
  return mergeProviderConfig(own as OAuthConfig<never>, options as never) as OAuthConfig
}

/** Whether an option, or the variable that stands in for it, is unset or empty. */
function unset(option: unknown, variable: string | undefined): boolean {
  const value = option ?? variable
  return value === undefined || value === ""
}

/**
 * What an OAuth / OIDC provider lacks to work at all, each as what to set: its client id, its
 * client secret (unless it is a public client), an OpenID Connect provider's issuer. A provider
 * configured from the environment with its variables unset is left out rather than failing
 * every other one (see `SignInFlow.missing`).
 */
export function missingOAuthOptions(given: OAuthConfig, env: Env): string[] {
  const config = withFactoryOptions(given)
  const { id } = config
  const missing: string[] = []
  const set = (option: string, suffix: string): void => {
    missing.push(`set \`${option}\` or ${envName(id, suffix)}`)
  }
  if (unset(config.clientId, env[envName(id, "ID")])) set("clientId", "ID")
  const authMethod: unknown = isRecord(config.client) ? config.client.token_endpoint_auth_method : undefined
  if (authMethod !== "none" && authMethod !== "private_key_jwt" && unset(config.clientSecret, env[envName(id, "SECRET")])) {
    missing.push(`set \`clientSecret\` or ${envName(id, "SECRET")} (or \`client.token_endpoint_auth_method: "none"\` for a public client)`)
  }
  if (config.type === "oidc" && config.wellKnown === undefined && unset(config.issuer, env[envName(id, "ISSUER")])) set("issuer", "ISSUER")
  return missing
}

/**
 * Checks and normalises one OAuth / OIDC provider.
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
export function normalizeOAuthProvider(given: OAuthConfig, env: Env, proxyUrl: URL | undefined): InternalOAuthProvider {
  const config = withFactoryOptions(given)
  const { id, type } = config
  const name = typeof config.name === "string" && config.name !== "" ? config.name : id
  const at = (option: string): string => `providers["${id}"].${option}`

  const missing = missingOAuthOptions(config, env)
  if (missing.length > 0) throw new Configuration(`${id}: ${missing.join("; ")}.`)
  const clientId = config.clientId ?? env[envName(id, "ID")]
  if (typeof clientId !== "string") throw new Configuration(`\`${at("clientId")}\` must be a string.`)
  const client: Record<string, unknown> = isRecord(config.client) ? { ...config.client } : {}
  if (config.client !== undefined && !isRecord(config.client)) throw new Configuration(`\`${at("client")}\` must be an object.`)
  const authMethod = client.token_endpoint_auth_method ?? "client_secret_basic"
  if (typeof authMethod !== "string" || !AUTH_METHODS.includes(authMethod)) {
    throw new Configuration(`\`${at("client.token_endpoint_auth_method")}\` must be ${AUTH_METHODS.map((method) => `"${method}"`).join(", ")}.`)
  }
  const clientSecret = config.clientSecret ?? env[envName(id, "SECRET")]
  if (clientSecret !== undefined && typeof clientSecret !== "string") throw new Configuration(`\`${at("clientSecret")}\` must be a string.`)

  const issuer = config.issuer ?? env[envName(id, "ISSUER")]
  if (issuer !== undefined && typeof issuer !== "string") throw new Configuration(`\`${at("issuer")}\` must be a URL string.`)
  const wellKnown = config.wellKnown ?? (type === "oidc" && issuer !== undefined ? `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration` : undefined)
  const jwksEndpoint: unknown = config.jwks_endpoint
  if (jwksEndpoint !== undefined && typeof jwksEndpoint !== "string") throw new Configuration(`\`${at("jwks_endpoint")}\` must be a URL string.`)
  const fetchOverride: unknown = config[customFetch]
  if (fetchOverride !== undefined && typeof fetchOverride !== "function") throw new Configuration(`\`${at("[customFetch]")}\` must be a fetch function.`)

  const authorization = endpoint(config.authorization, at("authorization"))
  const token = endpoint(config.token, at("token"))
  const userinfo = endpoint(config.userinfo, at("userinfo"))
  const tokenRequest = optionalFunction<TokenEndpointHandler["request"]>(token.handler.request, at("token.request"))
  const conform = optionalFunction<TokenEndpointHandler["conform"]>(token.handler.conform, at("token.conform"))
  const userinfoRequest = optionalFunction<UserinfoEndpointHandler["request"]>(userinfo.handler.request, at("userinfo.request"))

  if (wellKnown === undefined) {
    if (authorization.url === undefined) throw new Configuration(`Provider "${id}" has no \`authorization\` URL and no \`wellKnown\`.`)
    if (token.url === undefined && tokenRequest === undefined) {
      throw new Configuration(`Provider "${id}" has no \`token\` endpoint URL and no \`wellKnown\`.`)
    }
    if (userinfo.url === undefined && userinfoRequest === undefined) {
      throw new Configuration(`Provider "${id}" has no \`userinfo\` endpoint URL and no \`wellKnown\`.`)
    }
  }

  const allowInsecureLoopback = config.allowInsecureLoopbackRequests === true
  for (const [option, url] of [
    ["issuer", issuer],
    ["wellKnown", wellKnown],
    ["authorization", authorization.url],
    ["token", token.url],
    ["userinfo", userinfo.url],
    ["jwks_endpoint", jwksEndpoint],
  ] as const) {
    if (url === undefined) continue
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch (cause) {
      throw new Configuration(`\`${at(option)}\` must be an absolute URL.`, { cause })
    }
    const insecureOk = allowInsecureLoopback && parsed.protocol === "http:" && isLoopbackAddress(parsed.hostname)
    if (parsed.protocol !== "https:" && !insecureOk) {
      throw new Configuration(
        `\`${at(option)}\` must use https (plain http is allowed only on a loopback address with \`allowInsecureLoopbackRequests: true\`).`,
      )
    }
  }

  const allowed: readonly OIDCChecks[] = ["pkce", "state", "nonce", "none"]
  const requested: unknown = config.checks ?? ["pkce"]
  if (!Array.isArray(requested)) throw new Configuration(`\`${at("checks")}\` must be an array.`)
  for (const check of requested) {
    if (!allowed.includes(check as OIDCChecks)) {
      throw new Configuration(`\`${at("checks")}\` has "${String(check)}"; allowed: ${allowed.join(", ")}.`)
    }
  }
  const checks = new Set<OIDCChecks>(requested as OIDCChecks[])
  if (checks.has("none") && checks.size > 1) throw new Configuration(`\`${at("checks")}\` cannot combine "none" with other checks.`)
  // The nonce comes back in an ID token, which is used only once verified with the provider's keys.
  if (type === "oauth" && checks.has("nonce") && wellKnown === undefined && jwksEndpoint === undefined) {
    throw new Configuration(`\`${at("checks")}\` has "nonce", which an ID token verified with the provider's keys must carry: set \`jwks_endpoint\` (or \`wellKnown\`).`)
  }
  let redirectProxyUrl = proxyUrl
  if (config.redirectProxyUrl !== undefined) {
    try {
      redirectProxyUrl = new URL(config.redirectProxyUrl)
    } catch (cause) {
      throw new Configuration(`\`${at("redirectProxyUrl")}\` must be an absolute URL.`, { cause })
    }
  }
  if (redirectProxyUrl !== undefined) {
    checks.delete("none")
    checks.add("state")
  }

  const timeout = milliseconds(config.timeout, at("timeout"), DEFAULT_REQUEST_TIMEOUT_MS)
  const callbackTimeout = milliseconds(config.callbackTimeout, at("callbackTimeout"), Math.max(DEFAULT_CALLBACK_TIMEOUT_MS, timeout))

  const defaultScope = type === "oidc" ? "openid profile email" : undefined
  const authorizationParams = stringParams(authorization.params, at("authorization.params"))
  if (authorizationParams.scope === undefined && defaultScope !== undefined) authorizationParams.scope = defaultScope

  return {
    id,
    name,
    type,
    source: config,
    clientId,
    clientSecret,
    authMethod: authMethod as TokenEndpointAuthMethod,
    clientPrivateKey: authMethod === "private_key_jwt" ? clientPrivateKeyOf(token.handler.clientPrivateKey, at("token.clientPrivateKey")) : undefined,
    client,
    issuer,
    wellKnown,
    jwksEndpoint,
    authorization: { url: authorization.url, params: authorizationParams },
    token: {
      url: token.url,
      params: token.handler.params === undefined ? undefined : stringParams(token.params, at("token.params")),
      conform,
      request: tokenRequest,
    },
    userinfo: {
      url: userinfo.url,
      params: userinfo.handler.params === undefined ? undefined : stringParams(userinfo.params, at("userinfo.params")),
      request: userinfoRequest,
    },
    checks,
    idToken: type === "oidc" && (config as { idToken?: unknown }).idToken !== false,
    profile: optionalFunction<ProfileCallback<Profile>>(config.profile, at("profile")) ?? defaultProfile,
    account: optionalFunction<AccountCallback>(config.account, at("account")) ?? defaultAccount,
    style: isRecord(config.style) ? { ...config.style } : {},
    allowDangerousEmailAccountLinking: config.allowDangerousEmailAccountLinking === true,
    tokensInCookie: config.tokensInCookie === true,
    endSessionOnSignOut: booleanOption(config.endSessionOnSignOut, at("endSessionOnSignOut")),
    backchannelLogout: booleanOption(config.backchannelLogout, at("backchannelLogout")),
    revokeTokensOnSignOut: booleanOption(config.revokeTokensOnSignOut, at("revokeTokensOnSignOut")),
    redirectProxyUrl,
    timeout,
    callbackTimeout,
    allowInsecureRequests: allowInsecureLoopback,
    customFetch: fetchOverride as typeof fetch | undefined,
  }
}
