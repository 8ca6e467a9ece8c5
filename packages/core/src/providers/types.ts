/**
 * The provider configuration interfaces: what a provider object may declare, by kind.
 */
import type { customFetch, FLOW } from "../config/flow-key.js"
import type { Account, Awaitable, Profile, ProviderButtonStyles, ProviderType, Theme, TokenSet, User, WebAuthnProviderType } from "../model.js"

/** The provider kinds that sign in by redirecting the browser somewhere. */
export type RedirectableProviderType = "oauth" | "oidc" | "email"

/**
 * Parameters sent to one of a provider's endpoints, as Auth.js takes them: a string as it is, a
 * number or a boolean as its text, `claims` (OpenID Connect's claims request) as JSON; an
 * `undefined` one is left out. Any other value is refused at start, naming the parameter.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClaimsParameter
 */
// `any` as Auth.js types it: code that reads back a parameter it set as text keeps compiling.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EndpointParameters = Record<string, any>

/** Query parameters added to a provider's authorization URL (see {@link EndpointParameters}). */
export type AuthorizationParameters = EndpointParameters

/** A fetch that aborts after the provider's timeout. */
export type ProviderFetch = (input: string | URL, init?: RequestInit) => Promise<Response>

/** The authorization endpoint: where the browser is sent to sign in. */
export interface AuthorizationEndpointHandler {
  url?: string
  params?: AuthorizationParameters
}

/** What a custom token request receives. */
export interface TokenRequestContext {
  params: { code: string; redirect_uri: string; code_verifier?: string }
  provider: OAuthConfig
  /** The provider's token endpoint URL, when known. */
  url: string | undefined
  fetch: ProviderFetch
}

/** A private key with the key id its signatures name (oauth4webapi's `PrivateKey`). */
export interface ClientPrivateKey {
  key: CryptoKey
  kid?: string
}

/**
 * The token endpoint. Standard providers need only `url`; quirky ones declare a `conform`
 * that rewrites the raw response into a standard one, or (last resort) a whole `request`.
 */
export interface TokenEndpointHandler {
  url?: string
  /** Extra body parameters sent with the code exchange and the refresh (see {@link EndpointParameters}). */
  params?: EndpointParameters
  /**
   * The key the client signs its assertion with, for `client.token_endpoint_auth_method:
   * "private_key_jwt"`: a private `CryptoKey` (RS256, ES256, PS256, EdDSA...), or one with the
   * `kid` the provider registered. Its public half is registered at the provider (`jwks` or
   * `jwks_uri` of the client).
   *
   * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
   */
  clientPrivateKey?: CryptoKey | ClientPrivateKey
  /** Rewrites a non-standard token response (nested fields, missing `token_type`) into RFC 6749 form. */
  conform?: (response: Response) => Awaitable<Response | undefined>
  /** Performs the code exchange itself; the result is still validated like a real token response. */
  request?: (context: TokenRequestContext) => Awaitable<{ tokens: TokenSet }>
}

/** What a custom userinfo request receives. */
export interface UserinfoRequestContext {
  tokens: TokenSet
  provider: OAuthConfig
  /** The provider's userinfo endpoint URL, when known. */
  url: string | undefined
  fetch: ProviderFetch
}

/** The userinfo endpoint: where the profile is read with the access token. */
export interface UserinfoEndpointHandler {
  url?: string
  /** Extra query parameters added to the userinfo URL (see {@link EndpointParameters}). */
  params?: EndpointParameters
  /** Fetches the profile itself (a POST, an extra header, two calls...). */
  request?: (context: UserinfoRequestContext) => Awaitable<unknown>
}

/**
 * What a `profile` callback returns: a {@link User}, or an object typed with only its named fields
 * (as Auth.js's `User` interface is, without an index signature).
 */
export type ProfileUser = User | Pick<User, "id" | "name" | "email" | "image">

/*
 * The two callbacks below are declared as methods, whose parameters TypeScript compares both ways:
 * a callback written for Auth.js's narrower `TokenSet` (a lower-case `token_type`, JSON values),
 * which is what core hands them, fits as well as one written for ours.
 */

/** Maps the provider's profile to the user the session shows. */
export type ProfileCallback<P> = { profile(profile: P, tokens: TokenSet): Awaitable<ProfileUser> }["profile"]

/** Picks which token fields are stored with the account; nothing returned keeps none. */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- Auth.js types it so: a callback that returns nothing must fit.
export type AccountCallback = { account(tokens: TokenSet): Awaitable<Partial<Account> | undefined | void> }["account"]

/** How the client authenticates at the token endpoint (see {@link ClientOptions}). */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none"

/** Client metadata overrides (RFC 7591 names). */
export interface ClientOptions {
  /**
   * How the client authenticates at the token endpoint. Default `"client_secret_basic"`;
   * `"client_secret_jwt"` signs an assertion with `clientSecret`, `"private_key_jwt"` with
   * `token.clientPrivateKey`, `"none"` is a public client. Any other value is refused at start.
   *
   * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
   */
  // A plain string too, as Auth.js types it: an app's configuration compiles, and a value we do not know fails at start naming it.
  token_endpoint_auth_method?: TokenEndpointAuthMethod | (string & {})
  id_token_signed_response_alg?: string
  userinfo_signed_response_alg?: string
  authorization_signed_response_alg?: string
  [field: string]: unknown
}

/** What every provider has. */
export interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
  /** The sign-in flow that serves this provider (a `SignInFlow`), set by its factory; core picks the built-in one of `type` when absent. */
  [FLOW]?: object
}

/**
 * The checks a provider may run on its callback. `"nonce"` on an OAuth 2.0 provider, as on an
 * OpenID Connect one, requires an ID token whose `nonce` is the one sent, verified with the
 * provider's keys (its metadata's `jwks_uri`, or `jwks_endpoint`).
 */
export type OAuthChecks = "pkce" | "state" | "nonce" | "none"
/** The checks an OpenID Connect provider may run on its callback. */
export type OIDCChecks = OAuthChecks

/**
 * An OAuth 2.0 provider.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749 OAuth 2.0
 */
export interface OAuth2Config<P = Profile> extends CommonProviderOptions {
  type: "oauth"
  authorization?: string | AuthorizationEndpointHandler
  token?: string | TokenEndpointHandler
  userinfo?: string | UserinfoEndpointHandler
  /** Discovery document URL; its endpoints fill in those not set explicitly. */
  wellKnown?: string
  issuer?: string
  /**
   * The URL of the provider's signing keys (its JWK Set), over the `jwks_uri` of its metadata:
   * an ID token is verified with these keys. Without either, a plain OAuth 2.0 provider's ID
   * token is dropped unread.
   */
  jwks_endpoint?: string
  /** Default `["pkce"]`; `"state"` is added when a redirect proxy is used. */
  checks?: OAuthChecks[]
  clientId?: string
  clientSecret?: string
  client?: ClientOptions
  profile?: ProfileCallback<P>
  account?: AccountCallback
  style?: ProviderButtonStyles
  /**
   * Links this provider's account to an existing user with the same email, when the provider
   * says it verified that email (`email_verified: true`, or a `profile()` that returns
   * `emailVerified`). An unverified email never links.
   */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * Whether the re-authentication page (`{basePath}/reauth`) offers this provider to a user who
   * linked an account at it. An OpenID Connect provider is offered unless this is `false`: it is
   * asked for a fresh login (`prompt=login`, `max_age=0`) and must answer an ID token whose
   * `auth_time` shows one. A plain OAuth 2.0 provider proves no login time, so it is offered
   * only with `"prompt"` (it is sent `prompt=login` and trusted to honour it).
   */
  reauth?: false | "prompt"
  /**
   * Without an `adapter` (JWT sessions), keeps this provider's tokens (access, refresh, expiry,
   * scope) in the sealed session cookie under the `providerTokens` claim, so `getAccessToken`
   * can return and refresh them; a refresh renews the cookie through `getAccessToken`'s fourth
   * argument. Several instances with a provider that revokes reused refresh tokens need an
   * adapter instead: cookies cannot be locked. Ignored when an `adapter` is configured (the
   * account keeps the tokens). Default `false`.
   */
  tokensInCookie?: boolean
  /**
   * OpenID Connect RP-initiated logout: signing out here also ends the user's session at the
   * provider. `POST {basePath}/signout` ends the local session, then sends the browser to the
   * provider's `end_session_endpoint` (from its metadata) with the sign-in's ID token as
   * `id_token_hint`, `client_id`, `state` and `post_logout_redirect_uri`
   * `{AUTH_URL}{basePath}/signout/callback/{id}`, which must be registered at the provider like
   * the `redirect_uri`; the provider sends the browser back there and on to the sign-out's
   * `callbackUrl`. A provider whose metadata has no `end_session_endpoint` is signed out of here
   * only, with a warning. Default `false`.
   *
   * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html
   */
  endSessionOnSignOut?: boolean
  /**
   * OpenID Connect Back-Channel Logout: the provider may end the user's sessions here by posting
   * a logout token to `POST {basePath}/backchannel-logout/{id}` (register that URI at the
   * provider as the client's `backchannel_logout_uri`). A valid token (signed by a key the
   * provider publishes, for this client, fresh, never seen before) ends every session started in
   * that provider session (`sid`, recorded at sign-in from the ID token) or, with `sub` alone,
   * every session of that user that signed in with this provider: database sessions at once, JWT
   * sessions within `session.revocationCheckInterval` seconds on every instance. Needs an
   * adapter that keeps session records (`@portcullis/adapter-memory`, `@portcullis/adapter-pg`);
   * `Auth()` refuses it at start otherwise. Default `false`.
   *
   * @see https://openid.net/specs/openid-connect-backchannel-1_0.html
   */
  backchannelLogout?: boolean
  /**
   * Revokes the provider's refresh token and access token (RFC 7009, at the `revocation_endpoint`
   * of its metadata) when they are no one's any more: with an adapter, when the user signs out of
   * their last session (tokens belong to the account, so one device's sign-out must not end the
   * others' grant; this needs an adapter that keeps session records, and the account's tokens are
   * cleared), and when the user unlinks the account (`POST /accounts/unlink`, `unlinkAccount`);
   * without one, with `tokensInCookie`, on every sign-out (each cookie holds its own). A failing
   * or slow revocation is logged (without the token) and never holds the sign-out or the unlink
   * up. Default `false`.
   *
   * @see https://www.rfc-editor.org/rfc/rfc7009
   */
  revokeTokensOnSignOut?: boolean
  redirectProxyUrl?: string
  /** Milliseconds before one outbound request to this provider is aborted. Default 5 000. */
  timeout?: number
  /** Milliseconds the whole callback (discovery, keys, token, userinfo, profile) may take. Default 15 000. */
  callbackTimeout?: number
  /**
   * Allows plain `http://` endpoints when, and only when, they are on a loopback address
   * (`127.0.0.0/8`, `[::1]` or `localhost`, not `*.localhost`: a local development or test
   * identity provider). Never needed in production.
   */
  allowInsecureLoopbackRequests?: boolean
  /**
   * The `fetch` every request to this provider goes through (see {@link customFetch}): in place
   * of the provider's own, if it has one. Default: the global `fetch`.
   */
  [customFetch]?: typeof fetch
  /**
   * The options a provider factory was given, laid over the object it returns (`clientId`,
   * `authorization.params`...), as Auth.js's own factories return them. Only for a provider
   * written by hand in Auth.js's style; the factories of `@portcullis/providers` merge themselves.
   */
  options?: OAuthUserConfig<P>
}

/**
 * An OpenID Connect provider: OAuth 2.0 plus a validated ID token.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html
 */
export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, "type" | "checks"> {
  type: "oidc"
  /** Default `["pkce"]`; add `"nonce"` for providers without PKCE. */
  checks?: OIDCChecks[]
  /** Read the profile from the ID token's claims (default) or, when `false`, from userinfo. */
  idToken?: boolean
  /**
   * Counts this provider's own multi-factor login as the second factor (`mfa`): a sign-in whose
   * validated ID token has `"mfa"` in `amr`, or `amr` values from two factor categories (know:
   * `pwd`, `pin`, `kba`; have: `otp`, `hwk`, `swk`, `sms`, `tel`, `sc`; are: `fpt`, `face`,
   * `iris`, `retina`, `vbm`), or an `acr` listed in {@link OIDCConfig.acrValues}, passes the
   * second-factor gate; its session's `assurance` is level 2 with methods `["fed", "mfa"]` (a
   * re-authentication through it too). Only the ID token's claims count, never userinfo's. Set it
   * only for a provider whose login you trust as much as your own second factor. Default `false`:
   * the provider's claims count for nothing.
   *
   * @see https://www.rfc-editor.org/rfc/rfc8176#section-2 RFC 8176 (`amr` values)
   */
  trustProviderMfa?: boolean
  /**
   * Authentication context classes to ask the provider for, sent as the `acr_values`
   * authorization parameter (in this order of preference); with `trustProviderMfa`, an ID token
   * whose `acr` is one of them counts as the second factor. Each a string without spaces.
   *
   * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest (3.1.2.1, `acr_values`)
   */
  acrValues?: string[]
}

/** Either OAuth flavour. */
export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>

/** What an email provider's `sendVerificationRequest` receives to send one sign-in link. */
export interface SendVerificationRequestParams {
  /** The normalised, validated email address to send the link to. */
  identifier: string
  /** The sign-in link: it opens a confirmation page whose button completes the sign-in. */
  url: string
  /** When the link stops working. */
  expires: Date
  /** The provider's configuration, with its defaults applied (`maxAge`, `name`). */
  provider: EmailConfig
  /** The raw token inside `url`, for senders that build their own link. Only its HMAC is stored. */
  token: string
  /** The sign-in request, whose body has already been read. */
  request: Request
  /** The theme of the built-in pages, for branded emails. */
  theme: Theme
}

/** One mail as an email provider's transport sends it (see `EmailConfig.sendMail`). */
export interface EmailMessage {
  /** The recipient's address. */
  to: string
  subject: string
  /** The plain-text body. */
  text: string
  /** The HTML body, every value in it escaped. */
  html: string
}

/**
 * Passwordless sign-in by a single-use link sent to an email address (a "magic link"). Needs
 * an adapter with `createVerificationToken` and `useVerificationToken`.
 */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** The sender address, for `sendVerificationRequest`. */
  from?: string
  /** Seconds a sign-in link stays valid. Default 24 hours. */
  maxAge?: number
  /** Sends the link; a throw refuses the sign-in with `EmailSignInError`. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * Sends any other mail through the provider's own transport (its SMTP server or email API,
   * from `from`), given the provider's configuration as `sendVerificationRequest` is: core's
   * mails that are not sign-in links go out here unless `mail.send` is set.
   * The built-in email providers set it; a provider with only a custom `sendVerificationRequest`
   * has none.
   */
  sendMail?: (message: EmailMessage, provider: EmailConfig) => Awaitable<void>
  /**
   * The SMTP server of the SMTP senders (`Nodemailer()`, and `Email()` without a
   * `sendVerificationRequest`): an `smtp://` or `smtps://` URL, or nodemailer's transport options.
   * The email API senders ignore it, as Auth.js's do.
   */
  server?: string | object
  /** The email API's key, for the API senders; a custom `sendVerificationRequest` reads it as `provider.apiKey`. No log shows it. */
  apiKey?: string
  /**
   * Keys the stored HMAC of this provider's link tokens in place of the app's `secret` (Auth.js
   * hashed them with it). Links sent before it was set or changed stop working. No log shows it.
   */
  secret?: string
  /**
   * Makes the token of a link. Default: 32 random bytes, base64url. A custom token must be at
   * least 43 characters (as much entropy as the default) and at most 512.
   */
  generateVerificationToken?: () => Awaitable<string>
  /**
   * Turns what the user typed into the address to send to (default: trimmed and lowercased).
   * Its result is still checked to be exactly one address; a throw refuses the sign-in.
   */
  normalizeIdentifier?: (identifier: string) => string
  style?: ProviderButtonStyles
  /**
   * Lets a link sign in the user holding its address even when that user's email was never
   * verified (created through a provider that did not vouch for it): whoever claimed the address
   * there keeps their way into the same user. Off by default.
   */
  allowDangerousEmailAccountLinking?: boolean
}

/**
 * An `<input>` attribute's value, or a signal holding it (`{ value }`, as Auth.js's Preact-typed
 * fields take), read once when the configuration is checked.
 */
export type InputAttribute<T> = T | { readonly value: T | undefined }

/**
 * One field of a credentials form, rendered as an `<input>` on the built-in sign-in page with
 * these attributes (Auth.js's names; HTML's lowercase `autocomplete` works too). The browser
 * checks `pattern`, lengths and bounds before it posts: `authorize` must still check what it gets.
 */
export interface CredentialInput {
  /** The field's label. Default: its name. */
  label?: string
  /** The input type: `text` (default), `password`, `email`, `tel`, `number` or `url`. */
  type?: InputAttribute<string>
  placeholder?: InputAttribute<string>
  /** Default `true`: every field must be filled in, unless it says `required: false`. */
  required?: InputAttribute<boolean>
  pattern?: InputAttribute<string>
  autoComplete?: InputAttribute<string>
  autocomplete?: InputAttribute<string>
  minLength?: InputAttribute<number>
  maxLength?: InputAttribute<number>
  min?: InputAttribute<number | string>
  max?: InputAttribute<number | string>
  step?: InputAttribute<number | string>
  inputMode?: InputAttribute<string>
  autoFocus?: InputAttribute<boolean>
  title?: InputAttribute<string>
}

/**
 * A user as Auth.js's `User` types it (the session's user fields, without `User`'s index
 * signature), which `authorize` may return beside a `User`.
 */
export type AuthorizedUser = Pick<User, "id" | "name" | "email" | "image">

/** The submitted values of a credentials form: each declared field, as typed, when it was sent. */
export type CredentialValues<C extends Record<string, CredentialInput>> = Partial<Record<keyof C & string, string>>

/**
 * Sign-in with arbitrary credentials (a username and password, a one-time code) that the app
 * checks itself in `authorize`.
 *
 * With JWT sessions the returned user is sealed into the session cookie (a user without an
 * `id` gets a random one). With database sessions a session row is created for the returned
 * user, so `authorize` must return a user the adapter stores (its `id` found by `getUser`).
 */
export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials"
  /** The form's fields, by name. Only these are accepted from the browser. */
  credentials: C
  /**
   * Checks the submitted credentials: returns the user to sign in, or `null` (or throws
   * `CredentialsSignin`) to refuse. Any other throw is logged and shown as a generic error.
   * `request` is the sign-in request (its body has already been read into `credentials`).
   */
  authorize: (credentials: CredentialValues<C>, request: Request) => Awaitable<User | AuthorizedUser | null>
  /**
   * The submitted field that names the account, whose failed attempts `rateLimit.credentials`
   * counts: after too many, that account's password sign-in is paused without calling
   * `authorize`. Default: `email` when declared, else `username`; with neither, nothing is counted.
   */
  identifierField?: keyof C & string
  style?: ProviderButtonStyles
}

/**
 * A field of the passkey form; `email` names who a new passkey is created for. Its `label`,
 * `placeholder`, `autocomplete` (or `autoComplete`) and `required` are read.
 */
export type WebAuthnFormField = CredentialInput

/** A part of the relying party: one value, or (Auth.js's shape) a list whose first value is used. */
type RelyingPartyPart = string | string[]

/**
 * What a custom `getRelayingParty` receives: the part of Auth.js's arguments it reads, the app's
 * auth URL (`{origin}{basePath}`, on its public origin) and the provider.
 */
export interface RelyingPartyOptions {
  url: URL
  provider: { id: string; name: string }
}

/** The request a custom `getRelayingParty` or an Auth.js-style `getUserInfo` receives, as Auth.js shapes it. */
export interface WebAuthnRequestInfo {
  url: URL
  method?: string
  query?: Record<string, string>
  headers?: Record<string, string>
}

/** Who a new passkey is for, as the app's `getUserInfo` says: ours (`{ email, name }`), or Auth.js's (`{ user, exists }`). */
export type NewPasskeyUserInfo =
  | { email?: string; name?: string }
  | { user: { email?: string | null; name?: string | null }; exists?: boolean }

/** What `Passkey()` and `WebAuthn()` take: Auth.js's WebAuthn options, every one optional. */
export interface WebAuthnUserConfig {
  id?: string
  name?: string
  /** Auth.js's provider objects carry their type; it can only be `"webauthn"`. */
  type?: WebAuthnProviderType
  /**
   * The relying party; each part defaults to the request's origin. Auth.js's spelling
   * `relayingParty` works too, and so do its lists: the first value of each is used, as Auth.js's
   * default `getRelayingParty` does.
   */
  relyingParty?: Partial<Record<"id" | "name" | "origin", RelyingPartyPart>>
  relayingParty?: Partial<Record<"id" | "name" | "origin", RelyingPartyPart>>
  /**
   * The relying party of one request, in place of `relyingParty` (Auth.js's option). A method so
   * that one written against Auth.js's types fits; its result is checked on every call.
   */
  getRelayingParty?(options: RelyingPartyOptions, request: WebAuthnRequestInfo): { id: string; name: string; origin: string }
  /** Offer saved passkeys in the email field's autofill on the built-in page. Default `true`. */
  enableConditionalUI?: boolean
  formFields?: Record<string, WebAuthnFormField>
  /**
   * Who a passkey is created for when nobody is signed in. Default: the `email` query parameter
   * of the options request. Called with the `Request`; a function of two parameters is called as
   * Auth.js calls it, with `({ url, provider, adapter }, { url, method, query, headers })`, and
   * may answer Auth.js's `{ user, exists }`. A method so that one written against Auth.js's types fits.
   */
  getUserInfo?(request: Request | (RelyingPartyOptions & { adapter?: unknown }), authjsRequest?: WebAuthnRequestInfo): Awaitable<NewPasskeyUserInfo | null>
  /**
   * Auth.js's version of `@simplewebauthn/browser` to load from a CDN, or `false` for none. The
   * built-in page carries its own script and loads nothing, so only its type is checked.
   */
  simpleWebAuthnBrowserVersion?: `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}` | false
  /** `"required"` for `Passkey()`, `"preferred"` for `WebAuthn()`: the option asked for is also the one enforced. */
  userVerification?: "required" | "preferred" | "discouraged"
  /** How long a ceremony may take, in milliseconds (at most 5 minutes, the challenge's life). */
  timeout?: number
  /** SimpleWebAuthn options passed through, under Auth.js's names. */
  registrationOptions?: Record<string, unknown>
  authenticationOptions?: Record<string, unknown>
  verifyRegistrationOptions?: Record<string, unknown>
  verifyAuthenticationOptions?: Record<string, unknown>
  /**
   * SimpleWebAuthn options passed through by name. Auth.js also takes SimpleWebAuthn's own
   * functions here, to replace them; core verifies WebAuthn itself, so a function is refused at
   * start, naming it.
   */
  simpleWebAuthn?: Record<string, object>
  style?: ProviderButtonStyles
}

/**
 * Passkeys / WebAuthn, as Auth.js configures them. Create it with `Passkey()` or `WebAuthn()`
 * from `@portcullis/providers`, which carry the flow (`@portcullis/core/webauthn`); needs an `adapter`.
 */
export interface WebAuthnConfig extends CommonProviderOptions, Omit<WebAuthnUserConfig, "id" | "name"> {
  type: WebAuthnProviderType
  [option: string]: unknown
}

/** Any provider configuration object. */
/**
 * Where an app that keeps its users elsewhere (an Auth.js adapter) stores the password hashes of
 * `Password()`: a table of its own, keyed by user id. Core hands it PHC strings only, never a
 * password; `get` answers `null` for a user without one.
 */
export interface PasswordStore {
  get(userId: string): Awaitable<string | null>
  set(userId: string, hash: string): Awaitable<void>
}

/** What `Password()` from `@portcullis/providers/password` takes. */
export interface PasswordOptions {
  /** Default `"password"`. */
  id?: string
  /** Default `"Password"`. */
  name?: string
  /**
   * A new account signs in only once its address is confirmed through the mailed link. Default
   * `true`; with `false`, a sign-up signs in at once and tells whether an address is taken.
   */
  requireEmailVerification?: boolean
  /** The least length of a new password, in code points: default 15 (NIST SP 800-63B rev 4), 8 at the least, and only with `mfa.required: true` below 15. */
  minPasswordLength?: number
  /** The greatest length of a new password, in code points: default 256 (at least 64). */
  maxPasswordLength?: number
  /** Refuses new passwords found in a breach corpus, by a k-anonymity range query (off when absent). */
  breachedPasswords?: { url?: string; fetch?: typeof fetch }
  /** Accepts a bcrypt hash (`$2a$`, `$2b$`, `$2y$`) moved from the app's own table once, and re-hashes it on that sign-in. */
  legacyHashes?: "bcrypt"
  /** Where the hashes live when the adapter has no `getPasswordHash` / `setPasswordHash` (an Auth.js adapter). */
  store?: PasswordStore
  style?: ProviderButtonStyles
}

/**
 * Password accounts kept by core: sign-up with a confirmed address, sign-in, reset and change.
 * Create it with `Password()` from `@portcullis/providers/password`, which carries the flow
 * (`@portcullis/core/password`); needs an `adapter` with session records. Its `type` is
 * `"credentials"`: its form posts to `/callback/:id`, as a credentials form does.
 */
export interface PasswordConfig extends CommonProviderOptions, Omit<PasswordOptions, "id" | "name"> {
  type: "credentials"
}

export type ProviderConfig =
  | OAuth2Config<never>
  | OIDCConfig<never>
  | EmailConfig
  | CredentialsConfig
  | WebAuthnConfig
  | PasswordConfig

/** A provider: a configuration object, or a factory returning one. */
export type Provider = ProviderConfig | (() => ProviderConfig)

/** What a user passes to a built-in OAuth 2.0 provider factory. */
export type OAuthUserConfig<P> = Omit<Partial<OAuth2Config<P>>, "type" | "options">

/** What a user passes to a built-in OpenID Connect provider factory. */
export type OIDCUserConfig<P> = Omit<Partial<OIDCConfig<P>>, "type" | "options">

/** What a user passes to a built-in email provider factory. */
export type EmailUserConfig = Omit<Partial<EmailConfig>, "type">

/** What a user passes to the built-in credentials provider factory. */
export type CredentialsUserConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>> = Omit<
  Partial<CredentialsConfig<C>>,
  "type"
> & {
  /** Auth.js's provider objects carry their type; it can only be `"credentials"`. */
  type?: "credentials"
}
