/**
 * An OAuth 1.0a provider's configuration, in next-auth v4's words (`requestTokenUrl`,
 * `authorization`, `accessTokenUrl`, `profileUrl`), checked and normalised once.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-2 Redirection-Based Authorization
 */
import { Configuration } from "../errors/errors.js"
import { isLoopbackAddress } from "../http/loopback.js"
import { envName, isRecord, optionalFunction, DEFAULT_CALLBACK_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, milliseconds } from "../config/read.js"
import type { ProfileCallback } from "../providers/types.js"
import type { Profile } from "../model.js"

/** What `configure` made of an OAuth 1.0a provider's configuration. */
export interface OAuth1Options {
  clientId: string
  clientSecret: string
  /** Where the temporary credentials (request token) are asked for, with any extra query. */
  requestTokenUrl: URL
  /** Where the browser is sent to sign in, with its extra query (the request token is added). */
  authorizationUrl: URL
  /** Where the verifier is exchanged for the token credentials (access token). */
  accessTokenUrl: URL
  /** The signed request that answers the user's profile, with its query (e.g. `include_email=true`). */
  profileUrl: URL
  profile: ProfileCallback<Profile>
  allowDangerousEmailAccountLinking: boolean
  /** Milliseconds one request to the provider may take. */
  timeout: number
  /** Milliseconds the whole callback (access token, profile, mapping) may take. */
  callbackTimeout: number
}

/** What OAuth 1.0a adds to a provider configuration: next-auth v4's `version: "1.0A"` options. */
export interface OAuth1Config<P = Profile> {
  id: string
  name: string
  type: "oauth"
  version?: "1.0A"
  clientId?: string
  clientSecret?: string
  requestTokenUrl?: string
  authorization?: string | { url?: string; params?: Record<string, string | undefined> }
  accessTokenUrl?: string
  profileUrl?: string
  profile?: ProfileCallback<P>
  allowDangerousEmailAccountLinking?: boolean
  /** Milliseconds before one outbound request is aborted. Default 5 000. */
  timeout?: number
  /** Milliseconds the whole callback may take. Default 15 000. */
  callbackTimeout?: number
  /** Allows plain `http://` endpoints on a loopback address only (a local test provider). */
  allowInsecureLoopbackRequests?: boolean
}

function endpointUrl(value: unknown, option: string, insecureLoopback: boolean): URL {
  if (typeof value !== "string" || !URL.canParse(value)) throw new Configuration(`\`${option}\` must be an absolute URL.`)
  const url = new URL(value)
  const insecureOk = insecureLoopback && url.protocol === "http:" && isLoopbackAddress(url.hostname)
  if (url.protocol !== "https:" && !insecureOk) {
    throw new Configuration(`\`${option}\` must use https (plain http is allowed only on a loopback address with \`allowInsecureLoopbackRequests: true\`).`)
  }
  url.hash = ""
  return url
}

/** Reads `profile.id_str` / `profile.id` into the user shape, for a provider that declares no `profile`. */
const defaultProfile: ProfileCallback<Profile> = (profile) => {
  const id = profile.id_str ?? profile.id
  const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)
  return { id: typeof id === "number" ? String(id) : text(id) ?? undefined, name: text(profile.name), email: text(profile.email), image: text(profile.image) }
}

/**
 * Checks and normalises an OAuth 1.0a provider.
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
export function configureOAuth1(config: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): OAuth1Options {
  const id = String(config.id)
  const at = (option: string): string => `providers["${id}"].${option}`
  const clientId = config.clientId ?? env[envName(id, "ID")]
  if (typeof clientId !== "string" || clientId === "") {
    throw new Configuration(`Provider "${id}" has no \`clientId\` (the API key): pass it to the provider or set ${envName(id, "ID")}.`)
  }
  const clientSecret = config.clientSecret ?? env[envName(id, "SECRET")]
  if (typeof clientSecret !== "string" || clientSecret === "") {
    throw new Configuration(`Provider "${id}" has no \`clientSecret\` (the API key secret): pass it to the provider or set ${envName(id, "SECRET")}.`)
  }
  const insecureLoopback = config.allowInsecureLoopbackRequests === true

  let authorization = config.authorization
  let params: Record<string, unknown> = {}
  if (isRecord(authorization)) {
    if (authorization.params !== undefined && !isRecord(authorization.params)) throw new Configuration(`\`${at("authorization.params")}\` must be an object.`)
    params = authorization.params ?? {}
    authorization = authorization.url
  }
  const authorizationUrl = endpointUrl(authorization, at("authorization"), insecureLoopback)
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (typeof value !== "string") throw new Configuration(`\`${at(`authorization.params.${key}`)}\` must be a string.`)
    // The request token is this flow's to add; a configured one would be sent to every user.
    if (key === "oauth_token") throw new Configuration(`\`${at("authorization.params")}\` cannot set \`oauth_token\`.`)
    authorizationUrl.searchParams.set(key, value)
  }

  const timeout = milliseconds(config.timeout, at("timeout"), DEFAULT_REQUEST_TIMEOUT_MS)
  return {
    clientId,
    clientSecret,
    requestTokenUrl: endpointUrl(config.requestTokenUrl, at("requestTokenUrl"), insecureLoopback),
    authorizationUrl,
    accessTokenUrl: endpointUrl(config.accessTokenUrl, at("accessTokenUrl"), insecureLoopback),
    profileUrl: endpointUrl(config.profileUrl, at("profileUrl"), insecureLoopback),
    profile: optionalFunction<ProfileCallback<Profile>>(config.profile, at("profile")) ?? defaultProfile,
    allowDangerousEmailAccountLinking: config.allowDangerousEmailAccountLinking === true,
    timeout,
    callbackTimeout: milliseconds(config.callbackTimeout, at("callbackTimeout"), Math.max(DEFAULT_CALLBACK_TIMEOUT_MS, timeout)),
  }
}
