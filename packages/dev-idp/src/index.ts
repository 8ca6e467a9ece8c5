import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

import type { JWK } from "jose"
import type Provider from "oidc-provider"
import type { Client, ClientMetadata, Configuration } from "oidc-provider"

import { interactionPages, type ProviderMiddleware } from "./interactions.js"
import { generateSigningKey, signWith, type SigningAlg, type SigningKey } from "./keys.js"
import {
  confirmMarkedLogout,
  endAccountSessions,
  logoutTokenClaims,
  markLogoutConfirmed,
  type BackchannelLogoutRecord,
  type LogoutTokenInput,
} from "./logout.js"
import { PAGE_CSP, renderErrorPage, renderLoggedOutPage, renderLogoutPage } from "./pages.js"
import { recordRevocations, revocationPolicy, REVOCATION_PATH, type RevocationRecord } from "./revocation.js"
import { loadOidcProvider } from "./runtime.js"
import { createMemoryStore, type MemoryStore } from "./store.js"

export type { SigningAlg } from "./keys.js"
export { BACKCHANNEL_LOGOUT_EVENT, type BackchannelLogoutRecord, type LogoutTokenInput } from "./logout.js"
export type { RevocationRecord } from "./revocation.js"

/**
 * Client metadata registered with the dev IdP, in OpenID Connect Dynamic Client Registration
 * names. Anything oidc-provider understands may be added.
 *
 * @see https://openid.net/specs/openid-connect-registration-1_0.html#ClientMetadata
 */
export interface DevIdpClient {
  client_id: string
  /** Required unless `token_endpoint_auth_method` is `"none"`. */
  client_secret?: string
  redirect_uris: string[]
  /** Where the end-session endpoint may send the browser back to (`post_logout_redirect_uri`), exactly. */
  post_logout_redirect_uris?: string[]
  /**
   * Where the IdP POSTs a logout token when a session of this client ends (OpenID Connect
   * Back-Channel Logout 1.0). Needs `backchannelLogout` (on by default).
   */
  backchannel_logout_uri?: string
  /**
   * Whether logout tokens (and ID tokens) carry the IdP session's `sid`. Defaults to `true` when
   * `backchannel_logout_uri` is set (the specification's default is `false`; Keycloak always sends
   * it), so a relying party can record the `sid` at sign-in.
   */
  backchannel_logout_session_required?: boolean
  /** Defaults to `"client_secret_basic"`. */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"
  /** Defaults to `["code"]`. */
  response_types?: string[]
  /** Defaults to `["authorization_code"]`; add `"refresh_token"` to be issued refresh tokens. */
  grant_types?: string[]
  /** Defaults to `"RS256"`; `"ES256"` needs `signingAlgs` to include it. */
  id_token_signed_response_alg?: SigningAlg
  /** Shown on the login and consent pages instead of the client_id. */
  client_name?: string
  [metadata: string]: unknown
}

/** A demo user who can sign in on the login page with `email` (or `sub`) and `password`. */
export interface DemoAccount {
  sub: string
  email: string
  /** Defaults to `true`. */
  email_verified?: boolean
  name: string
  /** Defaults to an initials avatar served by the dev IdP (`<issuer>/avatars/<sub>.svg`). */
  picture?: string
  password: string
  /**
   * The authentication methods (RFC 8176 `amr` values) this account's ID tokens carry: how the
   * demo login claims to have authenticated it. Defaults to `["pwd"]`.
   */
  amr?: string[]
  /** The authentication context class (`acr`) this account's ID tokens carry. None by default. */
  acr?: string
}

/** A demo account with its defaults applied (see {@link DevIdp.accounts}). */
export type StoredDemoAccount = Readonly<Required<Omit<DemoAccount, "acr">> & Pick<DemoAccount, "acr">>

/** The `acr` of {@link DEFAULT_ACCOUNTS}' `carol@example.org`, whose login counts as multi-factor. */
export const MFA_ACR = "urn:portcullis:dev-idp:mfa"

/** Options of {@link startDevIdp}. */
export interface DevIdpOptions {
  /** The relying parties allowed to use this IdP. At least one. */
  clients: DevIdpClient[]
  /** Defaults to {@link DEFAULT_ACCOUNTS}. */
  accounts?: DemoAccount[]
  /** The loopback port to listen on; `0` (the default) picks a free one. */
  port?: number
  /** Page title and brand name on the login and consent pages. Defaults to `"Dev IdP"`. */
  title?: string
  /**
   * `"prompt"` (the default) shows an Allow / Deny page after login; `"auto"` grants every
   * requested scope without asking, which makes a flow one form shorter.
   */
  consent?: "prompt" | "auto"
  /**
   * Keys to generate; the first is the default for ID tokens. Defaults to `["RS256"]`.
   */
  signingAlgs?: SigningAlg[]
  /**
   * Whether `email` and `profile` claims go into the ID token as well as userinfo. Defaults to
   * `true`, like most hosted IdPs; `false` keeps oidc-provider's strict behaviour where a code
   * flow's ID token carries only `sub` and protocol claims.
   */
  claimsInIdToken?: boolean
  /**
   * `true` rejects authorization requests without PKCE, `false` accepts them from every client.
   * By default PKCE is required only of public clients (`token_endpoint_auth_method: "none"`).
   * A `code_challenge` that was sent is always verified.
   */
  requirePkce?: boolean
  /** Seconds an access token lives. Defaults to 3600; a few seconds make refreshes come due in a test. */
  accessTokenTtl?: number
  /**
   * `true` (the default) issues a new refresh token on every refresh and marks the old one used:
   * presenting a used one again is taken as theft and revokes the whole grant (every token of
   * it), as Okta, Auth0, Entra and Keycloak do; {@link DevIdp.revokedGrants} counts that.
   * `false` keeps one refresh token for the grant's life (Google).
   */
  rotateRefreshTokens?: boolean
  /**
   * `true` (the default) serves RP-initiated logout: `end_session_endpoint` (`/session/end`) in
   * discovery, accepting `id_token_hint`, `client_id`, `state` and a registered
   * `post_logout_redirect_uri`. Ending the IdP session there makes the next authorization show
   * the login form again.
   *
   * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html
   */
  endSession?: boolean
  /**
   * `"prompt"` (the default) asks "Sign out?" at the end-session endpoint; `"auto"` signs out at
   * once when the request carries a valid `id_token_hint` (as Keycloak does), straight to the
   * `post_logout_redirect_uri`, so a test follows plain redirects. Without a hint it still asks.
   */
  logoutConfirmation?: "prompt" | "auto"
  /**
   * `true` (the default) serves back-channel logout: clients may register a
   * `backchannel_logout_uri`, and ending a session at the end-session endpoint POSTs a signed
   * logout token there ({@link DevIdp.backchannelLogouts} lists them). See also
   * {@link DevIdp.logoutToken} to craft logout tokens, valid or not.
   *
   * @see https://openid.net/specs/openid-connect-backchannel-1_0.html
   */
  backchannelLogout?: boolean
  /**
   * `true` (the default) serves token revocation at `revocation_endpoint` (`/token/revocation`):
   * revoking a refresh token or an access token revokes every token of its grant.
   * {@link DevIdp.revocations} lists the requests received.
   *
   * @see https://www.rfc-editor.org/rfc/rfc7009
   */
  revocation?: boolean
  /**
   * How the IdP sends its own requests (logout tokens to `backchannel_logout_uri`). Defaults to
   * the global `fetch`. A test whose relying party runs in process (a `TestBrowser` route) passes
   * that handler, e.g. `(request) => Auth(request, config)`. Requests to loopback addresses are
   * allowed (oidc-provider refuses them by default), since the relying parties run on this machine.
   */
  fetch?: (request: Request) => Promise<Response>
}

/** An endpoint whose answer a test can stall with {@link DevIdp.delay}. */
export type DelayedEndpoint = "token" | "userinfo" | "discovery" | "jwks" | "revocation"

/** One request the dev IdP received. */
export interface RecordedRequest {
  method: string
  /** The path, without the query. */
  path: string
  /** The query including its `?`, or `""`. */
  search: string
}

/** A JSON object, as the token endpoint answers. */
export type JsonObject = Record<string, unknown>

/** An endpoint's answer as a transform sees it. */
export interface EndpointResponse<Body> {
  status: number
  /** Lower-case header names. */
  headers: Record<string, string>
  body: Body
}

/**
 * What a transform wants changed; omitted fields are kept. A string `body` is sent as is (to
 * answer with something that is not JSON), any other value is sent as JSON. A header set to
 * `null` is removed.
 */
export interface ResponseReplacement {
  status?: number
  headers?: Record<string, string | null>
  body?: unknown
}

/** A test hook that rewrites an endpoint's answer. */
export type ResponseTransform<Body> = (
  response: EndpointResponse<Body>,
) => ResponseReplacement | Promise<ResponseReplacement>

/** Options of {@link DevIdp.signJwt}. */
export interface SignJwtOptions {
  /** Defaults to the first of `signingAlgs`. `"none"` makes an unsecured JWT. */
  alg?: SigningAlg | "none"
  /**
   * `"own"` (the default) signs with the IdP's published key; `"foreign"` with a key the IdP
   * never published, so the signature cannot verify.
   */
  key?: "own" | "foreign"
  /**
   * The `kid` header. Defaults to the own key's kid, also with `key: "foreign"`, so a verifier
   * picks the published key and fails on the signature. `null` omits the header.
   */
  kid?: string | null
  /** The `typ` header; omitted by default, as in oidc-provider's ID tokens. */
  typ?: string
  /**
   * Extension header parameters, each named in a `crit` header, which a verifier that does not
   * understand them must refuse. Cannot name a registered header (`alg`, `kid`, `typ`...).
   *
   * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.11
   */
  critical?: Record<string, unknown>
}

/** Options of {@link DevIdp.logoutToken}: those of {@link SignJwtOptions}, with its own `typ` default. */
export interface LogoutTokenOptions extends Omit<SignJwtOptions, "typ"> {
  /** The `typ` header. Defaults to `"logout+jwt"`, as oidc-provider sends; `null` omits it. */
  typ?: string | null
}

/**
 * A running dev IdP: a real OpenID Provider (oidc-provider) on `127.0.0.1`, with hooks for
 * negative tests.
 */
export interface DevIdp {
  /** `http://127.0.0.1:<port>`, the `iss` of everything it signs. */
  readonly issuer: string
  readonly port: number
  /** The public signing keys, as served at `<issuer>/jwks`. */
  readonly jwks: { keys: JWK[] }
  /** The demo accounts, with defaults applied (a `picture` URL and an `amr` for every account). */
  readonly accounts: readonly StoredDemoAccount[]
  /** Every request received so far, oldest first (a copy). */
  readonly requests: readonly RecordedRequest[]
  /** Forgets the recorded requests. */
  clearRequests(): void
  /** How many `refresh_token` grants succeeded (new tokens issued) since start or {@link DevIdp.reset}. */
  readonly refreshGrants: number
  /**
   * How many grants were revoked since start or {@link DevIdp.reset}: with rotation on, each
   * reuse of a spent refresh token revokes its grant; so does revoking its refresh token, and
   * ending the IdP session (at the end-session endpoint or with {@link DevIdp.endSessions}).
   */
  readonly revokedGrants: number
  /**
   * Signs arbitrary claims with the IdP's own key (or a foreign one), to craft ID tokens with a
   * wrong `iss`, `aud`, `exp` or `nonce` that are still correctly signed. No claim is added.
   *
   * @throws Error when `alg` names a key the IdP was not started with (see `signingAlgs`).
   * @example
   * ```ts
   * idp.onTokenResponse(async ({ body }) => ({
   *   body: { ...body, id_token: await idp.signJwt({ ...decodeJwt(String(body.id_token)), nonce: "other" }) },
   * }))
   * ```
   */
  signJwt(claims: JsonObject, options?: SignJwtOptions): Promise<string>
  /**
   * Makes a logout token as the IdP sends to a `backchannel_logout_uri` (same claims, same
   * header, signed with the IdP's own key), to post to a relying party directly; the overrides and
   * options make invalid ones: a foreign key, `alg: "none"`, another `aud`, no `events`, a `nonce`,
   * a stale `iat`, another `typ`, a `jti` already used.
   *
   * @throws Error when `alg` names a key the IdP was not started with (see `signingAlgs`).
   * @example
   * ```ts
   * const valid = await idp.logoutToken({ clientId: "app", sub: "alice", sid })
   * const stale = await idp.logoutToken({ clientId: "app", sub: "alice", iat: Math.floor(Date.now() / 1000) - 3600 })
   * const noEvent = await idp.logoutToken({ clientId: "app", sub: "alice", events: undefined })
   * const unsigned = await idp.logoutToken({ clientId: "app", sub: "alice" }, { alg: "none" })
   * ```
   * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#LogoutToken
   */
  logoutToken(input: LogoutTokenInput, options?: LogoutTokenOptions): Promise<string>
  /**
   * Ends every IdP session of the account `sub` without a browser, as an administrator's "sign
   * out" does in Keycloak: each client of those sessions with a `backchannel_logout_uri` gets a
   * logout token, their grants are revoked, and the next authorization shows the login form.
   * Resolves with the logout tokens sent (also added to {@link DevIdp.backchannelLogouts}); a
   * failed delivery is recorded with its `error`, never thrown.
   *
   * @example
   * ```ts
   * const [sent] = await idp.endSessions("alice")
   * expect(sent).toMatchObject({ clientId: "app", error: undefined })
   * ```
   */
  endSessions(sub: string): Promise<BackchannelLogoutRecord[]>
  /**
   * The logout tokens the IdP sent since start or {@link DevIdp.reset}, oldest first (a copy):
   * one per client with a `backchannel_logout_uri` in each session ended at the end-session
   * endpoint or by {@link DevIdp.endSessions}.
   */
  readonly backchannelLogouts: readonly BackchannelLogoutRecord[]
  /** Every request to the revocation endpoint since start or {@link DevIdp.reset}, oldest first (a copy). */
  readonly revocations: readonly RevocationRecord[]
  /**
   * Rewrites the token endpoint's answers (successes and errors) until replaced; `undefined`
   * removes the transform.
   *
   * @example
   * ```ts
   * idp.onTokenResponse(({ body }) => ({ body: { ...body, token_type: undefined } }))
   * idp.onTokenResponse(() => ({ status: 502, body: "<html>Bad gateway</html>", headers: { "content-type": "text/html" } }))
   * ```
   */
  onTokenResponse(transform: ResponseTransform<JsonObject> | undefined): void
  /**
   * Rewrites the userinfo endpoint's answers; `undefined` removes the transform. The body is a
   * string when the client registered signed userinfo responses.
   */
  onUserinfoResponse(transform: ResponseTransform<JsonObject | string> | undefined): void
  /**
   * Rewrites the revocation endpoint's answers (an empty string on success, a JSON error
   * otherwise); `undefined` removes the transform. The token is revoked all the same: a `503`
   * here tests a relying party that must not wait on, or fail with, revocation.
   */
  onRevocationResponse(transform: ResponseTransform<JsonObject | string> | undefined): void
  /** Stalls every request to `endpoint` by `ms` before it is handled; `0` removes the delay. */
  delay(endpoint: DelayedEndpoint, ms: number): void
  /**
   * Rotates keys as an IdP does: publishes the foreign key of the default algorithm at `/jwks`
   * beside the own ones, and returns its kid. Sign with it using
   * `signJwt(claims, { key: "foreign", kid })`; {@link DevIdp.reset} unpublishes it.
   */
  rotateKey(): Promise<string>
  /**
   * Removes every transform and delay, forgets recorded requests, logout tokens sent and
   * revocations, and zeroes the grant counts; sessions and grants stay.
   */
  reset(): void
  /** Stops listening, drops open connections and pending delays. */
  close(): Promise<void>
}

/**
 * The demo accounts used when `accounts` is not given: one verified email, one not, and one whose
 * ID tokens say the login was multi-factor (`amr: ["pwd", "otp"]`, `acr` {@link MFA_ACR}).
 */
export const DEFAULT_ACCOUNTS: readonly Readonly<DemoAccount>[] = Object.freeze([
  { sub: "alice", email: "alice@example.com", email_verified: true, name: "Alice Example", password: "alice-password" },
  { sub: "bob", email: "bob@example.net", email_verified: false, name: "Bob Example", password: "bob-password" },
  { sub: "carol", email: "carol@example.org", email_verified: true, name: "Carol Example", password: "carol-password", amr: ["pwd", "otp"], acr: MFA_ACR },
])

const ENDPOINT_PATHS: ReadonlyMap<string, DelayedEndpoint> = new Map([
  ["/token", "token"],
  ["/me", "userinfo"],
  ["/.well-known/openid-configuration", "discovery"],
  ["/jwks", "jwks"],
  [REVOCATION_PATH, "revocation"],
])

/**
 * Starts a real OpenID Provider on `127.0.0.1` with its own login and consent pages.
 *
 * Supports the authorization code flow with PKCE (S256), `state`, `nonce`, `response_mode`
 * `query` and `form_post`, the RFC 9207 `iss` authorization response parameter, userinfo,
 * refresh tokens for clients whose `grant_types` include `refresh_token`, RP-initiated logout,
 * back-channel logout and token revocation (RFC 7009).
 *
 * @throws TypeError when an option is invalid, naming it (client metadata included).
 * @example
 * ```ts
 * const idp = await startDevIdp({
 *   clients: [{ client_id: "app", client_secret: "secret", redirect_uris: ["http://localhost:3000/auth/callback/demo"] }],
 * })
 * // ... discover `${idp.issuer}/.well-known/openid-configuration`, sign in as alice@example.com
 * await idp.close()
 * ```
 */
export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  const settings = readOptions(options)
  const { default: OidcProvider, errors } = await loadOidcProvider()
  const keys = await Promise.all(settings.signingAlgs.map((alg) => generateSigningKey(alg)))

  const recorded: RecordedRequest[] = []
  let handle: RequestListener = (_req, res) => {
    res.statusCode = 503
    res.end()
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    recorded.push({ method: req.method ?? "GET", path: url.pathname, search: url.search })
    handle(req, res)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(settings.port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${port}`

  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve()
      })
      server.closeAllConnections()
    })

  const accounts: StoredDemoAccount[] = settings.accounts.map((account) =>
    Object.freeze({
      email_verified: true,
      picture: `${issuer}/avatars/${encodeURIComponent(account.sub)}.svg`,
      ...account,
      amr: [...(account.amr ?? ["pwd"])],
    }),
  )

  const store = createMemoryStore()
  let provider: Provider
  try {
    provider = new OidcProvider(issuer, providerConfiguration(settings, keys, accounts, store, errors.InvalidRequest))
    await assertClientsValid(provider, settings.clients)
  } catch (error) {
    await closeServer()
    throw error
  }

  let tokenTransform: ResponseTransform<JsonObject> | undefined
  let userinfoTransform: ResponseTransform<JsonObject | string> | undefined
  let revocationTransform: ResponseTransform<JsonObject | string> | undefined
  const delays = new Map<DelayedEndpoint, number>()
  const stalls = new Set<NodeJS.Timeout>()
  /** Public keys published by rotateKey(), served after the own ones. */
  const published: JWK[] = []

  const testHooks: ProviderMiddleware = async (ctx, next) => {
    const endpoint = ENDPOINT_PATHS.get(ctx.path)
    const ms = endpoint === undefined ? 0 : (delays.get(endpoint) ?? 0)
    if (ms > 0) {
      // Never resolved when close() clears the timer: the connection is destroyed by then.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          stalls.delete(timer)
          resolve()
        }, ms)
        stalls.add(timer)
      })
      // The client gave up (its timeout is usually what the delay tests): nobody reads an answer.
      if (ctx.req.destroyed) return
    }
    await next()
    if (endpoint === "jwks" && published.length > 0 && typeof ctx.body === "object" && ctx.body !== null) {
      const { keys: own = [] } = ctx.body as { keys?: JWK[] }
      ctx.body = { keys: [...own, ...published] }
    }
    const transforms = { token: tokenTransform, userinfo: userinfoTransform, revocation: revocationTransform }
    const transform = endpoint === undefined ? undefined : (transforms as Partial<Record<DelayedEndpoint, ResponseTransform<unknown>>>)[endpoint]
    if (transform === undefined || ctx.method === "OPTIONS") return
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(ctx.response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value)
    }
    const body: unknown = ctx.body
    const replacement = await transform({ status: ctx.status, headers, body })
    if (replacement.body !== undefined) {
      ctx.body = typeof replacement.body === "string" ? replacement.body : JSON.stringify(replacement.body)
      if (typeof replacement.body !== "string") ctx.type = "application/json; charset=utf-8"
    }
    for (const [name, value] of Object.entries(replacement.headers ?? {})) {
      if (value === null) ctx.remove(name)
      else ctx.set(name, value)
    }
    if (replacement.status !== undefined) ctx.status = replacement.status
  }
  const revocations: RevocationRecord[] = []
  provider.use(recordRevocations(revocations))
  provider.use(testHooks)
  let refreshGrants = 0
  let revokedGrants = 0
  provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") refreshGrants++
  })
  provider.on("grant.revoked", () => {
    revokedGrants++
  })
  const backchannelLogouts: BackchannelLogoutRecord[] = []
  // oidc-provider reports the session's sid whether or not the token carried it.
  const sentSid = (client: Client, sid: string) => (client.backchannelLogoutSessionRequired === true ? sid : undefined)
  provider.on("backchannel.success", (_ctx, client, sub, sid) => {
    backchannelLogouts.push({ clientId: client.clientId, sub, sid: sentSid(client, sid), error: undefined })
  })
  provider.on("backchannel.error", (_ctx, error, client, sub, sid) => {
    backchannelLogouts.push({ clientId: client.clientId, sub, sid: sentSid(client, sid), error: error.message })
  })
  provider.use(confirmMarkedLogout(issuer))
  provider.use(interactionPages(provider, { title: settings.title, consent: settings.consent, accounts, SessionNotFound: errors.SessionNotFound }))
  const providerCallback = provider.callback()
  handle = (req, res) => {
    void providerCallback(req, res)
  }

  const ownKeys = new Map(keys.map((key) => [key.alg, key]))
  const foreignKeys = new Map<SigningAlg, Promise<SigningKey>>()
  const defaultAlg = settings.signingAlgs[0] ?? "RS256"
  let closing: Promise<void> | undefined

  async function signJwt(claims: JsonObject, signOptions: SignJwtOptions): Promise<string> {
    const alg = signOptions.alg ?? defaultAlg
    const own = alg === "none" ? undefined : ownKeys.get(alg)
    let key = own
    if (signOptions.key === "foreign" && alg !== "none") {
      let foreign = foreignKeys.get(alg)
      if (foreign === undefined) {
        foreign = generateSigningKey(alg)
        foreignKeys.set(alg, foreign)
      }
      key = await foreign
    }
    return signWith(claims, {
      alg,
      key,
      kid: signOptions.kid === undefined ? own?.kid : signOptions.kid,
      typ: signOptions.typ,
      critical: signOptions.critical,
    })
  }

  return {
    issuer,
    port,
    jwks: { keys: keys.map((key) => ({ ...key.publicJwk })) },
    accounts,
    get requests() {
      return recorded.map((request) => ({ ...request }))
    },
    clearRequests() {
      recorded.length = 0
    },
    get refreshGrants() {
      return refreshGrants
    },
    get revokedGrants() {
      return revokedGrants
    },
    get backchannelLogouts() {
      return backchannelLogouts.map((record) => ({ ...record }))
    },
    get revocations() {
      return revocations.map((record) => ({ ...record }))
    },
    signJwt: (claims, signOptions = {}) => signJwt(claims, signOptions),
    logoutToken: (input, { typ = "logout+jwt", ...signOptions } = {}) =>
      signJwt(logoutTokenClaims(issuer, input), { ...signOptions, typ: typ ?? undefined }),
    endSessions: (sub) =>
      endAccountSessions(sub, {
        provider,
        store,
        backchannelLogout: settings.backchannelLogout,
        onLogoutToken: (record) => backchannelLogouts.push(record),
        onGrantRevoked: () => {
          revokedGrants++
        },
      }),
    onTokenResponse(transform) {
      tokenTransform = transform
    },
    onUserinfoResponse(transform) {
      userinfoTransform = transform
    },
    onRevocationResponse(transform) {
      revocationTransform = transform
    },
    delay(endpoint, ms) {
      if (!ENDPOINT_NAMES.has(endpoint)) {
        throw new TypeError(`delay: endpoint must be one of ${[...ENDPOINT_NAMES].join(", ")}, got ${endpoint}`)
      }
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`delay: ms must be a non-negative number, got ${ms}`)
      if (ms === 0) delays.delete(endpoint)
      else delays.set(endpoint, ms)
    },
    async rotateKey() {
      let foreign = foreignKeys.get(defaultAlg)
      if (foreign === undefined) {
        foreign = generateSigningKey(defaultAlg)
        foreignKeys.set(defaultAlg, foreign)
      }
      const key = await foreign
      if (!published.some((jwk) => jwk.kid === key.kid)) published.push({ ...key.publicJwk })
      return key.kid
    },
    reset() {
      tokenTransform = undefined
      userinfoTransform = undefined
      revocationTransform = undefined
      delays.clear()
      published.length = 0
      recorded.length = 0
      refreshGrants = 0
      revokedGrants = 0
      backchannelLogouts.length = 0
      revocations.length = 0
    },
    close() {
      closing ??= (async () => {
        for (const timer of stalls) clearTimeout(timer)
        stalls.clear()
        await closeServer()
      })()
      return closing
    },
  }
}

const ENDPOINT_NAMES: ReadonlySet<string> = new Set(ENDPOINT_PATHS.values())
// Option values are checked at run time too: JavaScript callers get no type checking.
const SIGNING_ALGS: ReadonlySet<string> = new Set(["RS256", "ES256"])
const PROMPT_MODES: ReadonlySet<string> = new Set(["prompt", "auto"])

interface Settings {
  clients: DevIdpClient[]
  accounts: DemoAccount[]
  port: number
  title: string
  consent: "prompt" | "auto"
  signingAlgs: SigningAlg[]
  claimsInIdToken: boolean
  requirePkce: boolean | undefined
  accessTokenTtl: number
  rotateRefreshTokens: boolean
  endSession: boolean
  logoutConfirmation: "prompt" | "auto"
  backchannelLogout: boolean
  revocation: boolean
  fetch: (request: Request) => Promise<Response>
}

function readOptions(options: DevIdpOptions): Settings {
  const fail = (message: string): never => {
    throw new TypeError(`startDevIdp: ${message}`)
  }
  if (!Array.isArray(options.clients) || options.clients.length === 0) {
    fail("options.clients must list at least one client")
  }
  options.clients.forEach((client, index) => {
    if (typeof client.client_id !== "string" || client.client_id === "") {
      fail(`options.clients[${index}].client_id must be a non-empty string`)
    }
    if (!Array.isArray(client.redirect_uris) || client.redirect_uris.length === 0) {
      fail(`options.clients[${index}].redirect_uris must list at least one URL`)
    }
  })
  const accounts = (options.accounts ?? DEFAULT_ACCOUNTS).map((account) => ({ ...account }))
  const seen = new Set<string>()
  accounts.forEach((account, index) => {
    for (const field of ["sub", "email", "name", "password"] as const) {
      if (typeof account[field] !== "string" || account[field] === "") {
        fail(`options.accounts[${index}].${field} must be a non-empty string`)
      }
    }
    for (const login of [account.sub, account.email.toLowerCase()]) {
      if (seen.has(login)) fail(`options.accounts[${index}] reuses the sub or email "${login}"`)
      seen.add(login)
    }
    if (account.amr !== undefined && (!Array.isArray(account.amr) || account.amr.length === 0 || account.amr.some((value) => typeof value !== "string" || value === ""))) {
      fail(`options.accounts[${index}].amr must be a non-empty array of non-empty strings`)
    }
    // One value of `acr_values`, which separates them with spaces.
    if (account.acr !== undefined && (typeof account.acr !== "string" || !/^\S+$/u.test(account.acr))) {
      fail(`options.accounts[${index}].acr must be a non-empty string without spaces`)
    }
  })
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    fail(`options.port must be an integer from 0 to 65535, got ${String(port)}`)
  }
  const signingAlgs = [...new Set<SigningAlg>(options.signingAlgs ?? ["RS256"])]
  if (signingAlgs.length === 0 || signingAlgs.some((alg) => !SIGNING_ALGS.has(alg))) {
    fail(`options.signingAlgs must list "RS256" and/or "ES256"`)
  }
  const consent = options.consent ?? "prompt"
  if (!PROMPT_MODES.has(consent)) fail(`options.consent must be "prompt" or "auto"`)
  const accessTokenTtl = options.accessTokenTtl ?? 3600
  if (!Number.isInteger(accessTokenTtl) || accessTokenTtl < 1) fail(`options.accessTokenTtl must be a positive integer (seconds), got ${String(accessTokenTtl)}`)
  const rotateRefreshTokens = options.rotateRefreshTokens ?? true
  if (typeof rotateRefreshTokens !== "boolean") fail("options.rotateRefreshTokens must be a boolean")
  const features = { endSession: options.endSession ?? true, backchannelLogout: options.backchannelLogout ?? true, revocation: options.revocation ?? true }
  for (const [name, value] of Object.entries(features)) {
    if (typeof value !== "boolean") fail(`options.${name} must be a boolean`)
  }
  // oidc-provider ignores metadata of a feature that is off: a test would wait for a logout that never comes.
  const needs = [
    ["post_logout_redirect_uris", "endSession", features.endSession],
    ["backchannel_logout_uri", "backchannelLogout", features.backchannelLogout],
    ["backchannel_logout_session_required", "backchannelLogout", features.backchannelLogout],
  ] as const
  options.clients.forEach((client, index) => {
    for (const [metadata, feature, enabled] of needs) {
      if (!enabled && client[metadata] !== undefined) fail(`options.clients[${index}].${metadata} needs options.${feature}, which is false`)
    }
  })
  const logoutConfirmation = options.logoutConfirmation ?? "prompt"
  if (!PROMPT_MODES.has(logoutConfirmation)) fail(`options.logoutConfirmation must be "prompt" or "auto"`)
  if (options.fetch !== undefined && typeof options.fetch !== "function") fail("options.fetch must be a function")
  return {
    clients: structuredClone(options.clients),
    accounts,
    port,
    title: options.title ?? "Dev IdP",
    consent,
    signingAlgs,
    claimsInIdToken: options.claimsInIdToken ?? true,
    requirePkce: options.requirePkce,
    accessTokenTtl,
    rotateRefreshTokens,
    ...features,
    logoutConfirmation,
    fetch: options.fetch ?? ((request) => fetch(request)),
  }
}

function providerConfiguration(
  settings: Settings,
  keys: SigningKey[],
  accounts: readonly StoredDemoAccount[],
  store: MemoryStore,
  InvalidRequest: new (description: string) => Error,
): Configuration {
  const { title } = settings
  const defaultAlg = settings.signingAlgs[0] ?? "RS256"
  const requirePkce = settings.requirePkce
  return {
    // Metadata is validated by oidc-provider at start (assertClientsValid), not by these types.
    clients: settings.clients.map(
      (client) =>
        ({
          id_token_signed_response_alg: defaultAlg,
          ...(settings.backchannelLogout && client.backchannel_logout_uri !== undefined ? { backchannel_logout_session_required: true } : {}),
          ...client,
        }) as ClientMetadata,
    ),
    jwks: { keys: keys.map((key) => key.privateJwk) },
    // oidc-provider leaves `acr` out of ID tokens unless it supports some value.
    acrValues: [...new Set(accounts.flatMap((account) => (account.acr === undefined ? [] : [account.acr])))],
    adapter: store.adapter,
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: {
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // Every ID token says how its login went, as hosted IdPs do (the `amr` and `acr` of the demo account).
      openid: ["sub", "amr", "acr"],
      email: ["email", "email_verified"],
      profile: ["name", "picture"],
    },
    conformIdTokenClaims: !settings.claimsInIdToken,
    findAccount(_ctx, sub) {
      const account = accounts.find((candidate) => candidate.sub === sub)
      if (account === undefined) return undefined
      return {
        accountId: account.sub,
        claims: () => ({
          sub: account.sub,
          email: account.email,
          email_verified: account.email_verified,
          name: account.name,
          picture: account.picture,
        }),
      }
    },
    // oidc-provider's default also demands the offline_access scope (and prompt=consent for it).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // oidc-provider's reuse detection (a used refresh token revokes the grant) works on rotated tokens only.
    rotateRefreshToken: settings.rotateRefreshTokens,
    ...(requirePkce === undefined ? {} : { pkce: { required: () => requirePkce } }),
    // oidc-provider's own fetch refuses loopback and private addresses (against SSRF); every
    // relying party of a dev IdP runs on this machine, so its requests go out as the test says.
    fetch: (input, init = {}) => {
      const { dispatcher: _dispatcher, ...rest } = init as RequestInit & { dispatcher?: unknown }
      return settings.fetch(new Request(input, rest))
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: { enabled: false },
      backchannelLogout: { enabled: settings.backchannelLogout },
      revocation: { enabled: settings.revocation, allowedPolicy: revocationPolicy(InvalidRequest) },
      rpInitiatedLogout: {
        enabled: settings.endSession,
        logoutSource(ctx, form) {
          // The page is rendered all the same; confirmMarkedLogout replaces it with the confirmation's answer.
          if (settings.logoutConfirmation === "auto") markLogoutConfirmed(ctx)
          const formId = /\bid="([^"]+)"/u.exec(form)?.[1] ?? "op.logoutForm"
          ctx.type = "html"
          ctx.set("content-security-policy", PAGE_CSP)
          ctx.body = renderLogoutPage(title, form, formId)
        },
        postLogoutSuccessSource(ctx) {
          ctx.type = "html"
          ctx.set("content-security-policy", PAGE_CSP)
          ctx.body = renderLoggedOutPage(title)
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = "html"
      ctx.set("content-security-policy", PAGE_CSP)
      ctx.body = renderErrorPage(title, out.error, out.error_description)
    },
    // Explicit lifetimes (oidc-provider prints a notice for each default it falls back to).
    ttl: {
      AccessToken: settings.accessTokenTtl,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      IdToken: 3600,
      RefreshToken: 86_400,
      Interaction: 900,
      Session: 86_400,
      Grant: 86_400,
    },
  }
}

async function assertClientsValid(provider: Provider, clients: DevIdpClient[]): Promise<void> {
  for (const [index, client] of clients.entries()) {
    try {
      // oidc-provider validates static client metadata lazily; surface mistakes at start.
      const found = await provider.Client.find(client.client_id)
      if (found === undefined) throw new Error("not registered")
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause)
      const detail = (cause as { error_description?: unknown }).error_description
      throw new TypeError(
        `startDevIdp: options.clients[${index}] (${client.client_id}) is invalid: ${typeof detail === "string" ? detail : reason}`,
        { cause },
      )
    }
  }
}
