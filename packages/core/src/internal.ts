/**
 * The runtime types that refer to one another: the configuration as the routes use it, one
 * request as a route sees it, and the contract every sign-in flow implements. They live in one
 * module so that the modules using them import types in one direction only.
 *
 * @module
 */
import type { Adapter, AdapterAccount, AdapterAccountKey, AdapterMethod, AdapterUser } from "./adapters.js"
import type { Configuration } from "./errors/errors.js"
import type { SetCookie } from "./http/cookies.js"
import type { OriginPolicy } from "./http/origins.js"
import type { RateLimitStore } from "./limits/rate-limit-store.js"
import type { ClientLimits, ClientRule } from "./limits/client-limit-rules.js"
import type { Account, Awaitable, CookiesOptions, LoggerInstance, ProviderButtonStyles, ProviderType, Theme } from "./model.js"
import type { EmailMessage } from "./providers/types.js"
import type { AuditReason, AuditType, CallbacksOptions, EventCallbacks, JWT, JWTOptions, MailOptions, MfaFactor, PagesOptions, SessionStrategy } from "./types.js"

/** The configuration as the routes use it. */
export interface InternalConfig {
  basePath: string
  secrets: string[]
  trustHost: boolean
  /** The canonical URL from `url` / `AUTH_URL`, when set. */
  authUrl: URL | undefined
  /** Which origins requests and outbound URLs may use. */
  origins: OriginPolicy
  providers: FlowProvider[]
  providersById: Map<string, FlowProvider>
  /**
   * The providers left out because their configuration lacks a value (an issuer, a client id), by
   * id: the error, logged once, that their own routes answer with.
   */
  unavailable: ReadonlyMap<string, Configuration>
  /** The route names the configured flows add under `basePath` (e.g. `webauthn-options`). */
  flowRoutes: ReadonlySet<string>
  session: {
    strategy: SessionStrategy
    maxAge: number
    updateAge: number
    generateSessionToken: () => string
    /** Seconds between two looks at a JWT session's record (see `SessionOptions.revocationCheckInterval`). */
    revocationCheckInterval: number
    /** Seconds an authentication counts as recent (see `SessionOptions.reauthAge`). */
    reauthAge: number
    /** Seconds from sign-in to the session's end, however it is used (see `SessionOptions.absoluteMaxAge`). */
    absoluteMaxAge: number
    /** Seconds without a read that end the session, or `undefined` (see `SessionOptions.idleTimeout`). */
    idleTimeout: number | undefined
  }
  jwt: { maxAge: number; encode: JWTOptions["encode"]; decode: JWTOptions["decode"] }
  callbacks: CallbacksOptions
  events: EventCallbacks
  /** `mail.send`: the app's hook for core's mails that are not sign-in links (see `outbound/mail.ts`). */
  mail: { send: MailOptions["send"] }
  pages: PagesOptions
  /** Cookies for an https origin and for a plain one; `useSecureCookies` pins one. */
  cookies: { secure: CookiesOptions; insecure: CookiesOptions }
  useSecureCookies: boolean | undefined
  redirectProxyUrl: URL | undefined
  logger: LoggerInstance
  debug: boolean
  /** `NODE_ENV` is `"production"`: the leniency kept for development (a quiet loopback) is off. */
  production: boolean
  theme: Theme
  adapter: Adapter | undefined
  /** Milliseconds a store call may take (`storeTimeout`): the adapter is bounded already, a store a provider brings (a password store) by its flow. */
  storeTimeout: number
  /** Second factors (see `AuthConfig.mfa`), read and checked against the adapter; `undefined` when not configured. */
  mfa: InternalMfa | undefined
  /** Until when Auth.js's session cookie names are still read (see `AuthConfig.legacySessionCookies`). */
  legacySessionCookies: { until: Date } | undefined
  /** The abuse limits (see `AuthConfig.rateLimit`); `undefined` with `rateLimit: false`. The store is made on first use when none is configured. */
  rateLimit:
    | {
        store: RateLimitStore | undefined
        mail: { limit: number; windowSeconds: number }
        credentials: { failures: number; windowSeconds: number }
        /** `rateLimit.perClient`: absent for every default, `false` when turned off. */
        perClient?: ClientLimits | false
      }
    | undefined
  /** The app's `clientAddress` hook, which wins over the address an integration recorded. */
  clientAddress: ((request: Request) => unknown) | undefined
}

/** `AuthConfig.mfa` in its internal form. */
export interface InternalMfa {
  /** The factors offered, in the app's order, each once. */
  factors: readonly MfaFactor[]
  /**
   * Whether `user` must have a second factor (`mfa.required`, as a function whatever the app gave).
   *
   * @throws {Configuration} when the app's function answers anything but a boolean.
   */
  required: (user: AdapterUser) => Promise<boolean>
}

/** What every route gets. */
export interface RequestContext {
  config: InternalConfig
  request: Request
  url: URL
  /** The app's origin, e.g. `https://example.com`. */
  origin: string
  /** `{origin}{basePath}`: where the routes live. */
  authUrl: string
  cookies: CookiesOptions
  /** The cookies the browser sent (parsed on first use). */
  jar: Map<string, string>
  /** The cookies the response sets. */
  setCookies: SetCookie[]
  /** Where the user meant to go, once a route has resolved it: a failed sign-in keeps it. */
  returnTo: string | undefined
  /** Values of this request no log may show (codes, tokens, passwords), found as the request is handled. */
  sensitive: Set<string>
  /** The key-derivation salt of the session JWT (see `createContext`). */
  sessionSalt: string
  /**
   * Set only by core's server-side calls (`signIn`, `signOut`, `updateSession` in `server.ts`) on
   * the request they build for server code; nothing a request carries sets it. The CSRF check
   * honours it: the framework refused cross-site posts to that server code. Unset on every
   * request `Auth()` serves.
   */
  serverCall?: true
  /**
   * The authentication operation this request performs, while it is under way, for its audit
   * event (`audit/audit.ts`): set only when the app has `events.audit`, cleared once its event is sent.
   */
  audit?: AuditedOperation
  /**
   * Set only by the re-authentication room (`reauth/`) before it hands the request to a flow: the
   * flow proves the signed-in user again instead of signing anyone in, and ends through that
   * room's ending (`reauth/ending.ts`), never `finishSignIn`. Nothing a request carries sets it.
   */
  reauth?: ReauthMarker
}

/** A re-authentication under way: whose, and since when. */
export interface ReauthMarker {
  /** The signed-in user it must prove again. */
  userId: string
  /** When it started, in epoch seconds: an OpenID provider's `auth_time` must not be older (less the clock tolerance). */
  at: number
}

/** An operation under way, as its audit event will name it. */
export interface AuditedOperation {
  type: AuditType
  provider?: string | undefined
  userId?: string | undefined
}

/** A configured provider as the routes use it: what it declared, and the flow that serves it. */
export interface FlowProvider<Options = unknown> {
  id: string
  name: string
  /** The type the provider declares (`"oauth"`, `"oidc"`, `"email"`, `"credentials"`, `"webauthn"`), as `GET /providers` reports it. */
  type: ProviderType
  style: ProviderButtonStyles
  flow: SignInFlow<Options>
  /** What the flow's `configure` made of the provider's configuration. */
  options: Options
}

/** A route a flow adds under `basePath`: `{basePath}/<name>/:id`, by method. */
export type FlowRoute<Options> = Partial<Record<"GET" | "POST", (context: RequestContext, provider: FlowProvider<Options>) => Promise<Response>>> & {
  /** The per-client limit (`rateLimit.perClient`) the route's requests count against, if any. */
  clientLimit?: ClientRule
}

/** What the configuration hands a flow's `configure` beside the provider's own options. */
export interface ProviderSetup {
  /** The environment variables (`AUTH_<ID>_ID`, `AUTH_<ID>_SECRET`, ...). */
  env: Readonly<Record<string, string | undefined>>
  /** The app's `redirectProxyUrl` / `AUTH_REDIRECT_PROXY_URL`, when set. */
  redirectProxyUrl: URL | undefined
  /** The app's `mfa` option as given, for a flow whose rules depend on a second factor (a password's least length). */
  mfa?: unknown
}

/** One field of a form the built-in sign-in page draws. */
export interface PageField {
  name: string
  label: string
  type: string
  placeholder?: string | undefined
  autocomplete?: string | undefined
  /** Default `true`. */
  required?: boolean
  /** Further `<input>` attributes, HTML-named and checked: a value, or `true` for a boolean one. */
  attributes?: readonly (readonly [name: string, value: string | true])[]
}

/**
 * What the built-in sign-in page draws for a provider: a button (a redirect flow), an email
 * field, or the provider's own fields. `values` are what the person typed into a refused form,
 * shown again.
 */
export interface PageEntry {
  kind: "button" | "email" | "fields"
  fields?: readonly PageField[]
  values?: ReadonlyMap<string, string>
}

/** The tokens `getAccessToken` answers. */
export interface AccessToken {
  accessToken: string
  /** Seconds since the epoch, when the provider said. */
  expiresAt?: number
  scope?: string
  tokenType?: string
}

/**
 * One way a user can sign in that core can see, for the rule that a user always keeps one (see
 * `ways-in.ts`): an account linked at a provider whose flow signs in with it, a passkey, or a
 * verified email address with an email provider configured, or a password (`Password()`).
 */
export type WayIn = { kind: "account"; account: AdapterAccountKey } | { kind: "passkey"; credentialID: string } | { kind: "email"; provider: string } | { kind: "password"; provider: string }

/** Receives one `Set-Cookie` header value that the response to the request must carry. */
export type SetCookieSink = (setCookie: string) => void

/**
 * A way to sign in, as core serves it. Each flow (OAuth 2.0 / OpenID Connect, email, credentials,
 * OAuth 1.0a, WebAuthn) lives in a folder of its own and declares here what the routes and the
 * configuration checks need to know about it; nothing outside the flow's folder asks which flow
 * a provider has.
 */
export interface SignInFlow<Options = unknown> {
  /** The flow's name in messages, e.g. `"OAuth 1.0a"`. */
  name: string
  /**
   * Checks and normalises a provider's configuration, once per configuration. A promise lets a
   * flow fetch the checks of options apps seldom set only when one is set.
   *
   * @throws {Configuration} naming the provider and the option to fix.
   */
  configure(config: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>, setup?: ProviderSetup): Options | Promise<Options>
  /**
   * What a provider's configuration lacks to work at all (a client id, an issuer), each as what to
   * set, e.g. "set `clientId` or AUTH_ACME_ID"; empty when nothing is missing. Asked before
   * `configure`: such a provider is left out of sign-in, with one error log, and every other
   * provider keeps working (a value that is present but wrong still fails the configuration).
   */
  missing?: (config: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>) => readonly string[]
  /** The adapter methods a configuration with this provider calls; `Auth()` checks them up front. */
  adapterMethods?: (options: Options, session: { strategy: SessionStrategy }) => AdapterMethod[]
  /** The provider's own secrets (a client secret): no log line shows them. */
  secrets?: (options: Options) => readonly string[]
  /**
   * Why the flow cannot work without an `adapter` (e.g. `"to store its passkeys"`), for a flow
   * that cannot: `Auth()` then refuses a configuration without one.
   */
  needsAdapter?: string | ((options: Options) => string | undefined)
  /**
   * Where this provider's sign-in form posts: `"signin"` (`POST /signin/:id`, which starts the
   * sign-in: the default) or `"callback"` (the form itself is the sign-in, as for credentials).
   */
  postsTo?: "signin" | "callback"
  /**
   * What `POST /signin/:id` starts, as the audit trail (`events.audit`) names it: `"signIn"` (the
   * default: a sign-in, finished at the callback) or `"emailLinkRequest"` (a sign-in link is sent).
   */
  startsAs?: Extract<AuditType, "signIn" | "emailLinkRequest">
  /** What the built-in sign-in page draws for this provider; nothing when absent (see `page`). */
  draw?: (context: RequestContext, provider: FlowProvider<Options>, page: { refused: boolean }) => PageEntry | Promise<PageEntry | undefined> | undefined
  /** `POST /signin/:id`, after the CSRF check: starts a sign-in. `query` holds the route's other query parameters. */
  signIn(context: RequestContext, provider: FlowProvider<Options>, request: { form: URLSearchParams; callbackUrl: string; query?: URLSearchParams }): Promise<Response>
  /** `GET|POST /callback/:id`: completes a sign-in. */
  callback(context: RequestContext, provider: FlowProvider<Options>): Promise<Response>
  /** Further routes, by name (e.g. `"webauthn-options"`). */
  routes?: Readonly<Record<string, FlowRoute<Options>>>
  /**
   * For a flow that owns a route action of its own (`Password()`: `{basePath}/password/signup`...):
   * the action's name and its routes by the segment after it. The action answers 404 unless a
   * configured provider's flow declares it; the first such provider serves it.
   */
  actionRoutes?: { action: "password"; routes: Readonly<Record<string, FlowRoute<Options>>> }
  /**
   * Adds this provider's control to the built-in sign-in page (a flow that is not a redirect,
   * such as passkeys, shows no button there): gets the page as rendered and answers the page to
   * send. The flow owns everything it adds, the markup and the Content-Security-Policy that admits
   * its script, so an app without such a flow carries none of it.
   */
  page?: (context: RequestContext, provider: FlowProvider<Options>, response: Response, page: { csrfToken: string; callbackUrl: string | undefined }) => Promise<Response>
  /**
   * `POST /signout`, after the local session ended: a flow that also signs the user out at the
   * provider (OpenID Connect RP-initiated logout) answers the redirect there; `undefined` keeps
   * the sign-out local. Asked of every provider; a flow answers only for the one this browser
   * signed in with.
   */
  signOut?: (context: RequestContext, provider: FlowProvider<Options>, request: { callbackUrl: string; ended: { userId: string | undefined; token: JWT | null } }) => Promise<Response | undefined>
  /** `GET /signout/callback/:id`: where the provider's sign-out sends the browser back. */
  signOutCallback?: (context: RequestContext, provider: FlowProvider<Options>) => Promise<Response>
  /**
   * For a flow that keeps the provider's tokens (OAuth 2.0): the signed-in user's access token,
   * refreshed when due, for `getAccessToken`. `setCookie` receives a renewed session cookie.
   */
  accessToken?: (config: InternalConfig, request: Request, provider: FlowProvider<Options>, setCookie: SetCookieSink | undefined) => Promise<AccessToken | null>
  /**
   * For a flow whose sign-in links an account at the provider (OAuth 2.0, OpenID Connect, OAuth
   * 1.0a): such an account is one of its user's ways to sign in, and the user may unlink it
   * (`POST {basePath}/accounts/unlink`). `unlinked` runs once the account has left the store:
   * what the flow does about it at the provider (OAuth 2.0 revokes its tokens under
   * `revokeTokensOnSignOut`); it never throws, and a failure there never undoes the unlink.
   */
  accounts?: { unlinked?: (context: RequestContext, provider: FlowProvider<Options>, account: AdapterAccount) => Promise<void> }
  /**
   * For a flow that signs a user in some other way core can see (a link to a verified email
   * address, a passkey): the user's ways in through this provider, for the rule that a user
   * always keeps one. A flow with neither gives none: core cannot know who has a password under
   * `Credentials()`, so those never count; `Password()` keeps the hash, so its passwords do.
   */
  waysIn?: (context: RequestContext, provider: FlowProvider<Options>, user: AdapterUser) => Promise<readonly WayIn[]>
  /**
   * For a flow whose sign-up creates a user before its address is proven (a password account):
   * whether `user` is such a user, still unproven. A sign-in that proves the address (a provider
   * that vouches for it, a followed email link) replaces that user rather than linking to it or
   * being refused, so an unproven claim on an address never becomes a way into its owner's account.
   */
  unproven?: (context: RequestContext, provider: FlowProvider<Options>, user: AdapterUser) => Promise<boolean>
  /**
   * For a flow that can prove again who the signed-in user is (the re-authentication page,
   * `reauth/`); a flow without it is never offered there.
   */
  reauth?: {
    /** Whether this provider can. */
    offers: (options: Options) => boolean
    /**
     * For a way that runs in the browser (passkeys): its control on the page, and the script
     * source (`'sha256-…'`) the page's Content-Security-Policy admits for it.
     */
    control?: (context: RequestContext, provider: FlowProvider<Options>, page: { csrfToken: string; callbackUrl: string }) => { markup: string; script: string }
  }
  /**
   * For a flow whose credential can be a second factor (passkeys, under `mfa.factors:
   * ["passkey"]`): the second factor's room (`factors/`) reaches it only through the provider, as
   * the re-authentication room does. Which credentials a user has comes from `waysIn`.
   */
  secondFactor?: {
    /**
     * The challenge page's control: the data attributes its form carries for the script, the
     * script element, and the script source (`'sha256-…'`) the page's Content-Security-Policy admits.
     */
    control: (context: RequestContext, provider: FlowProvider<Options>) => { attributes: string; script: string; source: string }
    /**
     * Checks the credential posted to `/mfa/verify` (the assertion's JSON, untrusted) against the
     * pending sign-in it was asked for: only `pending.userId`'s own, never `pending.except`.
     * Answers the method it adds, or why it was refused; never throws for what a request carries.
     *
     * @throws {AdapterError} when the store fails.
     */
    verify: (context: RequestContext, provider: FlowProvider<Options>, pending: PendingFactor, credential: string) => Promise<{ ok: true; method: string } | { ok: false; reason: AuditReason }>
    /**
     * For a flow whose credential can be enrolled by a pending user under `mfa.required` (the
     * routes under `/mfa/setup` decide who may): `options` answers what the browser needs to make
     * one for `pending.userId`, bound to that pending sign-in; `register` checks what the browser
     * made (untrusted) and stores it, answering the method it adds, or why it was refused.
     */
    enrol?: {
      options: (context: RequestContext, provider: FlowProvider<Options>, pending: PendingFactor) => Promise<Response>
      register: (context: RequestContext, provider: FlowProvider<Options>, pending: PendingFactor, credential: string) => Promise<{ ok: true; method: string } | { ok: false; reason: AuditReason }>
    }
  }
  /**
   * For a flow that sends mail (email links): how core's other mails go out through this
   * provider (see `outbound/mail.ts`): its transport, or `undefined` when the provider sends
   * only its sign-in links (a custom `sendVerificationRequest` and no `sendMail`).
   */
  mailTransport?: (options: Options) => ((message: EmailMessage) => Awaitable<void>) | undefined
  /** What a sign-in through this provider adds to a JWT session token when there is no adapter (OAuth 2.0's `tokensInCookie`). */
  sessionToken?: (options: Options, token: JWT, account: Account) => JWT | Promise<JWT>
}

/** The pending sign-in a second factor is checked for (`SignInFlow.secondFactor`). */
export interface PendingFactor {
  /** The pending sign-in's id: a challenge issued for it is good for it alone. */
  id: string
  /** Whose sign-in it is: only their credentials complete it. */
  userId: string
  /** The credential that was the first factor, which cannot be the second too. */
  except?: string | undefined
}

/**
 * What ties a sign-in's check values to where, in which browser and by whom it was started,
 * sealed into every check value so none can be replayed elsewhere.
 */
export interface FlowBinding {
  /** The origin the sign-in started on: its callback is completed there (after the redirect proxy, if any). */
  origin: string
  /** `browserBinding` of the browser that started it. */
  browser: string
  /** The user signed in when it started: only that user can have the new account linked. */
  userId?: string
  /** A re-authentication of `userId` started at this time (epoch seconds): see {@link ReauthMarker}. */
  reauthAt?: number
}
