/**
 * An OAuth 2.0 / OpenID Connect provider's configuration, checked and normalised once. The
 * options apps seldom set are left to `rare-options.ts`, which the flow fetches only when one is set.
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
  clientPrivateKey?: CryptoKey | ClientPrivateKey
  client: Record<string, unknown>
  issuer: string | undefined
  wellKnown: string | undefined
  /** The provider's key set URL (`jwks_endpoint`), over its metadata's `jwks_uri`. */
  jwksEndpoint?: string
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
  /**
   * How the re-authentication page uses this provider (see `OAuthConfig.reauth`): `"oidc"` (a
   * fresh login proven by the ID token's `auth_time`), `"prompt"` (a plain OAuth 2.0 provider
   * trusted with `prompt=login`), or `false` (never offered).
   */
  reauth: "oidc" | "prompt" | false
  redirectProxyUrl: URL | undefined
  /** Milliseconds one request to the provider may take. */
  timeout: number
  /** Milliseconds the whole callback (discovery, keys, token, userinfo, profile) may take. */
  callbackTimeout: number
  allowInsecureRequests: boolean
  /** The app's own `fetch` for this provider (`[customFetch]`); the global one when `undefined`. */
  customFetch?: typeof fetch
  /** Count the provider's own multi-factor login as the second factor (see `OIDCConfig.trustProviderMfa`). */
  trustProviderMfa?: true
  /** The `acr_values` asked for, whose `acr` counts with {@link InternalOAuthProvider.trustProviderMfa} (see `OIDCConfig.acrValues`). */
  acrValues?: readonly string[]
}

type Env = Record<string, string | undefined>

/** An endpoint's `params` as configured, before they are turned into text (`authorization` with its default `scope`). */
export interface RawParams {
  authorization: Record<string, unknown>
  token: Record<string, unknown> | undefined
  userinfo: Record<string, unknown> | undefined
}

/** A provider checked for the common options, and, when it sets a seldom set one, what `rare-options.ts` completes it from. */
export interface NormalisedOAuthProvider {
  provider: InternalOAuthProvider
  rare: { config: OAuthConfig; params: RawParams } | undefined
}


function endpoint(value: unknown, option: string): { url: string | undefined; params: Record<string, unknown>; handler: Record<string, unknown> } {
  if (value === undefined) return { url: undefined, params: {}, handler: {} }
  if (typeof value === "string") return { url: value, params: {}, handler: {} }
  if (!isRecord(value)) throw new Configuration(`\`${option}\` must be a URL or an object with \`url\`.`)
  if (value.url !== undefined && typeof value.url !== "string") throw new Configuration(`\`${option}.url\` must be a string.`)
  if (value.params !== undefined && !isRecord(value.params)) throw new Configuration(`\`${option}.params\` must be an object.`)
  return { url: value.url, params: value.params ?? {}, handler: value }
}

/** An endpoint's parameters, when every one is text (or left out); `undefined` when one is not, for `rare-options.ts`. */
function stringParams(params: Record<string, unknown>): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === "string") out[key] = value
    else if (value !== undefined) return undefined
  }
  return out
}

/**
 * Refuses a provider URL that is not absolute, or not https (plain http only on a loopback
 * address, with `allowInsecureLoopbackRequests`).
 *
 * @throws {Configuration} naming the option.
 */
export function checkProviderUrl(url: unknown, option: string, allowInsecureLoopback: boolean): void {
  let parsed: URL
  try {
    parsed = new URL(url as string)
  } catch (cause) {
    throw new Configuration(`\`${option}\` must be an absolute URL.`, { cause })
  }
  const insecureOk = allowInsecureLoopback && parsed.protocol === "http:" && isLoopbackAddress(parsed.hostname)
  if (parsed.protocol !== "https:" && !insecureOk) {
    throw new Configuration(`\`${option}\` must use https (plain http is allowed only on a loopback address with \`allowInsecureLoopbackRequests: true\`).`)
  }
}

/** `reauth`: an OpenID provider re-authenticates unless `false`; a plain OAuth 2.0 one only with `"prompt"`. */
function reauthOption(value: unknown, type: "oauth" | "oidc", option: string): InternalOAuthProvider["reauth"] {
  if (value !== undefined && value !== false && value !== "prompt") throw new Configuration(`\`${option}\` must be \`false\` or "prompt".`)
  if (value === false) return false
  // An OpenID provider always proves the login time, whatever else it was told.
  return type === "oidc" ? "oidc" : value === "prompt" ? "prompt" : false
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
  return mergeProviderConfig(own as OAuthConfig<never>, options as never)
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
 * Checks and normalises one OAuth / OIDC provider, as far as its common options go: a provider
 * that sets a seldom set one (see `rare-options.ts`) comes with what completes it.
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
export function normalizeOAuthProvider(given: OAuthConfig, env: Env, proxyUrl: URL | undefined): NormalisedOAuthProvider {
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
  const clientSecret = config.clientSecret ?? env[envName(id, "SECRET")]
  if (clientSecret !== undefined && typeof clientSecret !== "string") throw new Configuration(`\`${at("clientSecret")}\` must be a string.`)

  const issuer = config.issuer ?? env[envName(id, "ISSUER")]
  if (issuer !== undefined && typeof issuer !== "string") throw new Configuration(`\`${at("issuer")}\` must be a URL string.`)
  const wellKnown = config.wellKnown ?? (type === "oidc" && issuer !== undefined ? `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration` : undefined)

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
  ] as const) {
    if (url !== undefined) checkProviderUrl(url, at(option), allowInsecureLoopback)
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

  const authorizationParams = { ...authorization.params }
  if (authorizationParams.scope === undefined && type === "oidc") authorizationParams.scope = "openid profile email"
  const params: RawParams = {
    authorization: authorizationParams,
    token: token.handler.params === undefined ? undefined : token.params,
    userinfo: userinfo.handler.params === undefined ? undefined : userinfo.params,
  }
  const authorizationText = stringParams(params.authorization)
  const tokenText = params.token === undefined ? undefined : stringParams(params.token)
  const userinfoText = params.userinfo === undefined ? undefined : stringParams(params.userinfo)

  const provider: InternalOAuthProvider = {
    id,
    name,
    type,
    source: config,
    clientId,
    clientSecret,
    authMethod: authMethod as TokenEndpointAuthMethod,
    client,
    issuer,
    wellKnown,
    authorization: { url: authorization.url, params: authorizationText ?? {} },
    token: { url: token.url, params: tokenText, conform, request: tokenRequest },
    userinfo: { url: userinfo.url, params: userinfoText, request: userinfoRequest },
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
    reauth: reauthOption(config.reauth, type, at("reauth")),
    redirectProxyUrl,
    timeout,
    callbackTimeout,
    allowInsecureRequests: allowInsecureLoopback,
  }
  const rare =
    (authMethod !== "client_secret_basic" && authMethod !== "client_secret_post" && authMethod !== "none") ||
    config.jwks_endpoint !== undefined ||
    config[customFetch] !== undefined ||
    "trustProviderMfa" in config ||
    "acrValues" in config ||
    (type === "oauth" && checks.has("nonce")) ||
    authorizationText === undefined ||
    (params.token !== undefined && tokenText === undefined) ||
    (params.userinfo !== undefined && userinfoText === undefined)
  return { provider, rare: rare ? { config, params } : undefined }
}
