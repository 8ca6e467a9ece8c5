/**
 * Handling the provider's callback: the authorization response, the code exchange, the ID
 * token and the profile, each validated, each failure a typed error.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 Authorization Response
 * @see https://www.rfc-editor.org/rfc/rfc9207 Authorization Server Issuer Identification
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
import * as o from "oauth4webapi"
import { fetchWithin, withDeadline, withRequestTimeout } from "../outbound/deadline.js"
import { AuthError } from "../errors/errors.js"
import { AccessDenied } from "../errors/flow-errors.js"
import { OAuthCallbackError } from "../errors/errors.js"
import type { Account, Profile, TokenSet, User } from "../model.js"
import type { CookiesOptions } from "../model.js"
import { checkedUser } from "../sign-in/sign-in.js"
import { verifyChecks, type VerifiedChecks } from "./checks.js"
import type { InternalOAuthProvider } from "./provider.js"
import { authorizationServer, clientAuthOf, clientOf, httpOptions, verifyIdTokenSignature, withProviderFetch } from "./server.js"

/** What a successful callback established about the user. */
export interface CallbackResult {
  user: User & { id: string }
  account: Account
  profile: Profile
  tokens: TokenSet
  /** Whether the provider says it verified `user.email`: only then may the email decide linking. */
  emailVerified: boolean
  /** The user signed in when this flow started, from its sealed checks. */
  startedBy: string | undefined
  /** When a re-authentication started (epoch seconds), from its sealed checks; `undefined` for a sign-in. */
  reauthAt: number | undefined
  /** The ID token's `auth_time`, when it has one. */
  authTime: number | undefined
  /** Whether the validated ID token shows a multi-factor login the provider is trusted for (`trustProviderMfa`). */
  providerMfa: boolean
}

/** Seconds a provider's clock may run ahead of ours (oauth4webapi's tolerance for exp and nbf). */
const CLOCK_SKEW = 30

/** The largest profile or token response read from a provider. */
const MAX_BODY = 1024 * 1024

function fail(message: string, cause?: unknown): never {
  throw new OAuthCallbackError(message, cause === undefined ? undefined : { cause })
}

/** Turns what oauth4webapi and fetch throw into a sentence for the log. */
function describe(step: string, provider: InternalOAuthProvider, cause: unknown): OAuthCallbackError {
  if (cause instanceof AuthError) return new OAuthCallbackError(cause.message, { cause })
  if (cause instanceof o.ResponseBodyError) {
    return new OAuthCallbackError(`The ${step} of provider "${provider.id}" answered ${cause.error}${cause.error_description === undefined ? "" : `: ${cause.error_description}`}.`, { cause })
  }
  if (cause instanceof DOMException && (cause.name === "TimeoutError" || cause.name === "AbortError")) {
    return new OAuthCallbackError(`The ${step} of provider "${provider.id}" did not answer within ${provider.timeout} ms.`, { cause })
  }
  const detail = cause instanceof Error ? cause.message : String(cause)
  return new OAuthCallbackError(`The ${step} of provider "${provider.id}" failed: ${detail}.`, { cause })
}

/**
 * Rejects callbacks that repeat a parameter: the first and the last value could be read by
 * different parties.
 */
function singleValued(params: URLSearchParams): void {
  const seen = new Set<string>()
  for (const key of params.keys()) {
    if (seen.has(key)) fail(`The callback repeats the parameter "${key}".`)
    seen.add(key)
  }
}

function toJsonResponse(body: unknown, response?: Response): Response {
  return new Response(JSON.stringify(body), {
    status: response?.status ?? 200,
    headers: { "content-type": "application/json" },
  })
}

/**
 * The provider's raw token response, after its declared quirks are conformed. `signal` bounds
 * our own request to the token endpoint until its answer is read; a `token.request` hook gets a
 * `fetch` bounded per request.
 */
async function exchangeCode(
  provider: InternalOAuthProvider,
  server: o.AuthorizationServer,
  params: URLSearchParams,
  redirectUri: string,
  codeVerifier: string | undefined,
  { deadline, signal }: { deadline: AbortSignal; signal: AbortSignal },
): Promise<Response> {
  let response: Response
  const request = provider.token.request
  if (request !== undefined) {
    const code = params.get("code") ?? fail("The callback has no `code` parameter.")
    const { tokens } = await withProviderFetch(provider, deadline, async (fetch) =>
      await request({
        params: codeVerifier === undefined ? { code, redirect_uri: redirectUri } : { code, redirect_uri: redirectUri, code_verifier: codeVerifier },
        provider: provider.source,
        url: server.token_endpoint,
        fetch,
      }),
    )
    response = toJsonResponse(tokens)
  } else {
    response = await o.authorizationCodeGrantRequest(
      server,
      clientOf(provider),
      clientAuthOf(provider),
      params,
      redirectUri,
      // Only for providers configured without the PKCE check, which some providers reject.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      codeVerifier ?? o.nopkce,
      { ...httpOptions(provider, signal), ...(provider.token.params === undefined ? {} : { additionalParameters: provider.token.params }) },
    )
  }
  if (provider.token.conform !== undefined) response = (await provider.token.conform(response.clone())) ?? response
  if (provider.type === "oauth" && server.jwks_uri === undefined) response = await withoutIdToken(response)
  return response
}

/**
 * A plain OAuth 2.0 provider with no published keys gives us nothing to validate an `id_token`
 * against, so one in its response is dropped rather than trusted.
 */
async function withoutIdToken(response: Response): Promise<Response> {
  if (!response.ok) return response
  const body: unknown = await response.clone().json().catch(() => undefined)
  if (typeof body !== "object" || body === null || !("id_token" in body)) return response
  const { id_token: _dropped, ...rest } = body as Record<string, unknown>
  return toJsonResponse(rest, response)
}

async function readJsonObject(response: Response, what: string): Promise<Record<string, unknown>> {
  const length = Number(response.headers.get("content-length") ?? "0")
  if (length > MAX_BODY) fail(`The ${what} response is too large.`)
  const text = await response.text()
  if (text.length > MAX_BODY) fail(`The ${what} response is too large.`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (cause) {
    fail(`The ${what} response is not JSON.`, cause)
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) fail(`The ${what} response is not a JSON object.`)
  return body as Record<string, unknown>
}

async function fetchProfile(
  provider: InternalOAuthProvider,
  server: o.AuthorizationServer,
  tokens: o.TokenEndpointResponse,
  claims: o.IDToken | undefined,
  deadline: AbortSignal,
): Promise<Profile> {
  const request = provider.userinfo.request
  if (request !== undefined) {
    const profile: unknown = await withProviderFetch(provider, deadline, async (fetch): Promise<unknown> => await request({ tokens: { ...tokens }, provider: provider.source, url: server.userinfo_endpoint, fetch }))
    if (typeof profile !== "object" || profile === null || Array.isArray(profile)) fail(`The userinfo request of provider "${provider.id}" returned no profile object.`)
    return profile as Profile
  }
  if (provider.idToken && claims !== undefined) return { ...claims }
  if (server.userinfo_endpoint === undefined) fail(`Provider "${provider.id}" has no userinfo endpoint.`)
  const url = new URL(server.userinfo_endpoint)
  for (const [key, value] of Object.entries(provider.userinfo.params ?? {})) url.searchParams.set(key, value)
  // A discovery document may name any URL: the access token only ever travels over TLS.
  if (url.protocol !== "https:" && !provider.allowInsecureRequests) fail(`The userinfo endpoint of provider "${provider.id}" is not https.`)
  const profile = await withRequestTimeout(provider.timeout, deadline, async (signal) => {
    const response = await fetchWithin(provider.customFetch, url.href, {
      signal,
      headers: { accept: "application/json", authorization: `Bearer ${tokens.access_token}` },
      redirect: "manual",
    })
    if (!response.ok) fail(`The userinfo endpoint of provider "${provider.id}" answered HTTP ${response.status}.`)
    return readJsonObject(response, "userinfo")
  })
  // The userinfo must describe the subject of the ID token (OpenID Connect Core 5.3.2).
  if (claims !== undefined && profile.sub !== claims.sub) fail(`The userinfo of provider "${provider.id}" is about another subject than its ID token.`)
  return profile
}

/** Registers the tokens of a token response (whatever a provider calls them) as values no log may show. */
async function rememberSecrets(response: Response, sensitive: Set<string>): Promise<void> {
  if (!response.ok) return
  const body: unknown = await response.clone().json().catch(() => undefined)
  if (typeof body !== "object" || body === null) return
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string" && /token|secret|code|key/i.test(key) && key !== "token_type") sensitive.add(value)
  }
}

/**
 * Validates a provider callback end to end: parameters, checks (bound to this origin and
 * browser), code exchange, ID token (signature against the issuer's keys, `iss`, `aud`, `azp`,
 * `exp`, `iat`, `nonce`) and profile, all within the provider's `callbackTimeout`.
 *
 * @throws {InvalidCheck} when state, PKCE or nonce do not check out.
 * @throws {AccessDenied} when the user refused at the provider.
 * @throws {OAuthCallbackError} for every other protocol failure, and when the deadline passes.
 */
export async function validateCallback(
  provider: InternalOAuthProvider,
  context: {
    params: URLSearchParams
    jar: Map<string, string>
    cookies: CookiesOptions
    secrets: readonly string[]
    redirectUri: string
    /** The origin completing the sign-in and the browser's binding: the checks must have been sealed for both. */
    origin: string
    browser: string | undefined
    /** Collects the code and tokens of this callback, which no log may show. */
    sensitive: Set<string>
  },
): Promise<CallbackResult> {
  const { params } = context
  singleValued(params)
  const code = params.get("code")
  if (code !== null) context.sensitive.add(code)
  const checks = await verifyChecks(provider.checks, context.secrets, context.cookies, context.jar, {
    state: params.get("state"),
    origin: context.origin,
    browser: context.browser,
  })

  const expired = new OAuthCallbackError(`Provider "${provider.id}" did not complete the sign-in within ${provider.callbackTimeout} ms (\`callbackTimeout\`).`)
  const result = await withDeadline(provider.callbackTimeout, expired, (deadline) => exchangeAndProfile(provider, context, checks, deadline))
  return { ...result, startedBy: checks.startedBy, reauthAt: checks.reauthAt }
}

async function exchangeAndProfile(
  provider: InternalOAuthProvider,
  context: { params: URLSearchParams; redirectUri: string; sensitive: Set<string> },
  checks: VerifiedChecks,
  deadline: AbortSignal,
): Promise<Omit<CallbackResult, "startedBy" | "reauthAt">> {
  const { params } = context
  let server: o.AuthorizationServer
  try {
    server = await authorizationServer(provider)
  } catch (cause) {
    throw describe("discovery", provider, cause)
  }
  if (provider.type === "oauth" && provider.issuer === undefined) params.delete("iss")
  if (provider.type === "oauth" && checks.nonce !== undefined && server.jwks_uri === undefined) {
    fail(`Provider "${provider.id}" has "nonce" in \`checks\`, but its metadata names no \`jwks_uri\` to verify the ID token that carries it with: set \`jwks_endpoint\`.`)
  }

  let validated: URLSearchParams
  try {
    validated = o.validateAuthResponse(server, clientOf(provider), params, checks.state ?? o.skipStateCheck)
  } catch (cause) {
    if (cause instanceof o.AuthorizationResponseError) {
      if (cause.error === "access_denied") throw new AccessDenied(`The user refused access at provider "${provider.id}".`, { cause, page: "signin" })
      throw new OAuthCallbackError(`Provider "${provider.id}" answered the sign-in with ${cause.error}${cause.error_description === undefined ? "" : `: ${cause.error_description}`}.`, { cause })
    }
    throw describe("authorization response", provider, cause)
  }

  let tokens: o.TokenEndpointResponse
  let claims: o.IDToken | undefined
  try {
    const { response, processed } = await withRequestTimeout(provider.timeout, deadline, async (signal) => {
      const response = await exchangeCode(provider, server, validated, context.redirectUri, checks.codeVerifier, { deadline, signal })
      await rememberSecrets(response, context.sensitive)
      const processed = await o.processAuthorizationCodeResponse(server, clientOf(provider), response, {
        expectedNonce: checks.nonce ?? o.expectNoNonce,
        requireIdToken: provider.type === "oidc",
      })
      return { response, processed }
    })
    tokens = processed
    if (tokens.id_token !== undefined) {
      // TLS alone authenticates the token endpoint; the signature check also covers a hostile or misconfigured proxy.
      await verifyIdTokenSignature(provider, server, response, deadline)
      claims = o.getValidatedIdTokenClaims(tokens)
      if (claims !== undefined) checkIdTokenClaims(provider, claims)
    }
  } catch (cause) {
    throw describe("token endpoint", provider, cause)
  }
  if (tokens.token_type !== "bearer") fail(`Provider "${provider.id}" issued a "${tokens.token_type}" token; only bearer tokens are supported.`)

  let profile: Profile
  try {
    profile = await fetchProfile(provider, server, tokens, claims, deadline)
  } catch (cause) {
    throw describe("userinfo endpoint", provider, cause)
  }

  const tokenSet: TokenSet = { ...tokens }
  try {
    const { user, emailVerified } = checkedUser(provider, await provider.profile(profile, tokenSet), profile)
    const fields = (await provider.account(tokenSet)) ?? {}
    const account: Account = { ...fields, provider: provider.id, type: provider.type, providerAccountId: user.id }
    const authTime = typeof claims?.auth_time === "number" ? claims.auth_time : undefined
    return { user, account, profile, tokens: tokenSet, emailVerified, authTime, providerMfa: provider.trustProviderMfa === true && claims !== undefined && provesMfa(claims, provider.acrValues) }
  } catch (cause) {
    throw describe("profile mapping", provider, cause)
  }
}

/** RFC 8176's `amr` values by the factor each proves: what is known, what is held, what is. */
const FACTOR_CATEGORY: Readonly<Record<string, "know" | "have" | "are">> = {
  pwd: "know",
  pin: "know",
  kba: "know",
  otp: "have",
  hwk: "have",
  swk: "have",
  sms: "have",
  tel: "have",
  sc: "have",
  fpt: "are",
  face: "are",
  iris: "are",
  retina: "are",
  vbm: "are",
}

/**
 * Whether a validated ID token shows a multi-factor login: `"mfa"` in `amr`, `amr` values of two
 * factor categories, or an `acr` among `acrValues`. Claims of another shape show nothing.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8176#section-2 (`amr` values)
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken (2, `acr`, `amr`)
 */
function provesMfa(claims: o.IDToken, acrValues: readonly string[] | undefined): boolean {
  const { amr, acr } = claims
  if (typeof acr === "string" && acrValues?.includes(acr) === true) return true
  if (!Array.isArray(amr)) return false
  const categories = new Set(amr.map((value: unknown) => (typeof value === "string" && Object.hasOwn(FACTOR_CATEGORY, value) ? FACTOR_CATEGORY[value] : undefined)))
  categories.delete(undefined)
  return amr.includes("mfa") || categories.size >= 2
}

/**
 * The ID token checks oauth4webapi leaves to us: an `iat` in the future, and an `azp` that is
 * not our client (oauth4webapi compares `azp` only when there are several audiences).
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation (3.1.3.7, steps 5 and 10)
 */
function checkIdTokenClaims(provider: InternalOAuthProvider, claims: o.IDToken): void {
  if (claims.iat > Math.floor(Date.now() / 1000) + CLOCK_SKEW) {
    fail(`The ID token of provider "${provider.id}" was issued in the future (iat ${claims.iat}).`)
  }
  if (claims.azp !== undefined && claims.azp !== provider.clientId) {
    fail(`The ID token of provider "${provider.id}" was issued to another party (azp ${JSON.stringify(claims.azp)}).`)
  }
}

/**
 * Refuses a re-authentication the OpenID provider answered without a fresh login: it was asked
 * for one (`prompt=login`, `max_age=0`), so its ID token must carry an `auth_time` no older than
 * when the re-authentication started, less the clock tolerance.
 *
 * @throws {OAuthCallbackError} when `auth_time` is missing or older than that.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest (3.1.2.1, `max_age`, `prompt=login`)
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken (2, `auth_time`)
 */
export function checkFreshLogin(provider: InternalOAuthProvider, authTime: number | undefined, startedAt: number): void {
  if (authTime === undefined) fail(`The ID token of provider "${provider.id}" has no \`auth_time\`: a re-authentication needs the time of a fresh login.`)
  if (authTime < startedAt - CLOCK_SKEW) {
    fail(`The ID token of provider "${provider.id}" has \`auth_time\` ${String(authTime)}, before the re-authentication started (${String(startedAt)}): the provider did not ask the user to log in again.`)
  }
}
