/**
 * `@portcullis/core/types`: the public types of the configuration, the session and the callbacks.
 * Augment them here, as with Auth.js:
 *
 * @example
 * ```ts
 * import type { DefaultSession } from "@portcullis/core/types"
 *
 * declare module "@portcullis/core/types" {
 *   interface Session {
 *     user: { role: "admin" | "member" } & DefaultSession["user"]
 *   }
 * }
 * ```
 *
 * @module types
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "./adapters.js"
import type { RefreshTokenError } from "./errors/flow-errors.js"
import type { RateLimitStore } from "./limits/rate-limit-store.js"
import type { Account, Awaitable, CookiesOptions, LoggerInstance, Profile, SessionAssurance, Theme, User } from "./model.js"
import type { EmailMessage, Provider } from "./providers/types.js"

export type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "./adapters.js"
export type { Account, Awaitable, CookieOption, CookiesOptions, LoggerInstance, Profile, ProviderType, SessionAssurance, Theme, TokenSet, User } from "./model.js"
export type { Provider } from "./providers/types.js"

/** The claims every session JWT may carry; the registered ones are set by `encode`. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/**
 * The claims of the session JWT: what the `jwt` callback returns. Add your own claims with
 * `declare module "@portcullis/core/jwt" { interface JWT { role?: string } }`.
 */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

/** The session's shape before the app adds to it. */
export interface DefaultSession {
  user?: User
  /** ISO 8601 date after which the session is no longer honoured. */
  expires: string
  /**
   * How strongly the user is authenticated, and since when (this project's addition). Always set
   * on the sessions core answers; what a `session` callback returns here is replaced by core's own.
   */
  assurance?: SessionAssurance
  [field: string]: unknown
}

/**
 * What `GET /session` answers and the `session` callback shapes. Add your own fields with
 * `declare module "@portcullis/core/types" { interface Session { ... } }`.
 *
 * @example
 * ```ts
 * declare module "@portcullis/core/types" {
 *   interface Session {
 *     user: { role: "admin" | "member" } & DefaultSession["user"]
 *   }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty so that apps can augment it
export interface Session extends DefaultSession {}

/** How the session is kept: an encrypted cookie, or a token pointing at a row in the adapter. */
export type SessionStrategy = "jwt" | "database"

/** Session options. */
export interface SessionOptions {
  /** Default `"jwt"`, or `"database"` when an `adapter` is configured. */
  strategy?: SessionStrategy
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge?: number
  /** Seconds between two extensions of the expiry. Default 24 hours. */
  updateAge?: number
  /** Generates a database session token; must carry at least 32 bytes of entropy. */
  generateSessionToken?: () => string
  /**
   * Seconds a JWT session may still be used on an instance after its session record was revoked
   * elsewhere (a back-channel logout): each instance looks at a session's record at most once per
   * interval. `0` looks on every read. Default 30. Only with an adapter that keeps session
   * records; database sessions end at once (their rows are deleted), and their record, which
   * holds their `assurance`, is read again after this interval, so a re-authentication on one
   * instance shows on the others.
   */
  revocationCheckInterval?: number
  /**
   * Seconds after the user last authenticated (`session.assurance.authTime`) during which the
   * session counts as recently authenticated, for what asks for a fresh sign-in (changing a second
   * factor, an email, a password). Default 600 (10 minutes).
   */
  reauthAge?: number
  /**
   * Seconds after sign-in (`session.assurance.signedInAt`) when the session ends, however often it
   * is used, renewed or re-authenticated: the user signs in again. Default 30 days (2592000).
   * JWT sessions, and database sessions with an adapter that keeps session records (their
   * sign-in time lives there). A Portcullis addition: Auth.js sessions slide forever.
   *
   * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.3.2 (absolute session lifetime)
   */
  absoluteMaxAge?: number
  /**
   * Seconds without a read of the session after which it ends (at least 60). Off by default. A
   * read counts where it can set a cookie (`GET {basePath}/session`, a route handler, a server
   * action, `getSessionForResponse`); one that cannot (a server component) does not move it. A
   * Portcullis addition.
   *
   * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.3.1 (inactivity timeout)
   */
  idleTimeout?: number
}

/** Arguments of `jwt.encode`. */
export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to seal. Default `{}`. */
  token?: Payload
  /** The secret(s): the first one seals. */
  secret: string | string[]
  /** The cookie name, used as the key-derivation salt. */
  salt: string
  /** Seconds until the JWT expires. Default 30 days. */
  maxAge?: number
}

/** Arguments of `jwt.decode`. */
export interface JWTDecodeParams {
  /** The sealed JWT; empty or missing decodes to `null`. */
  token?: string
  /** The secret(s): each is tried, so an old one keeps opening what it sealed. */
  secret: string | string[]
  /** The cookie name, used as the key-derivation salt. */
  salt: string
}

/** JWT options. */
export interface JWTOptions {
  /** Seconds until the JWT expires. Default: `session.maxAge`. */
  maxAge?: number
  /** Replaces the built-in JWE sealing. */
  encode?: (params: JWTEncodeParams) => Awaitable<string>
  /** Replaces the built-in JWE opening; return `null` for "no session". */
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** Why the `jwt` callback runs. */
export type JWTTrigger = "signIn" | "signUp" | "update"

/** Callbacks that let the app shape, allow or refuse. */
export interface CallbacksOptions {
  /** Return `false` to refuse the sign-in (`AccessDenied`) or a URL to redirect to instead. */
  signIn?: (params: {
    user: User | AdapterUser
    account: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  /**
   * Decides where a `callbackUrl` may lead. Default: same origin or a relative path. `url` is
   * chosen by whoever made the link: compare `new URL(url, baseUrl).origin` with `baseUrl`, never
   * `url.startsWith(baseUrl)` (`https://app.example.com@evil.com` passes that). An answer on an
   * origin the app does not admit (`url`, `allowedOrigins`) is replaced with `baseUrl` and logged
   * as a `RedirectOffOrigin` warning.
   */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /**
   * Shapes what `GET /session` returns, with the arguments Auth.js passes: `{ session, token }`
   * with JWT sessions (`session.user` holds the token's `sub`, `name`, `email` and `picture`);
   * `{ session, user, newSession }` with database sessions (`session.user` is the adapter's user).
   */
  session?: (params: {
    session: Session & { user: AdapterUser }
    /** The session JWT's claims (JWT sessions only). */
    token: JWT
    /** The adapter's user (database sessions only). */
    user: AdapterUser
    /** What the client sent with an update (database sessions); validate it before use. */
    newSession?: unknown
    trigger?: "update"
  }) => Awaitable<Session | DefaultSession>
  /** Shapes the session JWT; return `null` to end the session. */
  jwt?: (params: {
    token: JWT
    user: User | AdapterUser
    account: Account | null
    profile?: Profile
    trigger?: JWTTrigger
    isNewUser?: boolean
    /**
     * With `trigger: "update"`: the data the user's browser sent with `update(data)`. Untrusted
     * input: copy the fields you allow by name after checking them, never spread it into the token.
     */
    session?: unknown
  }) => Awaitable<JWT | null>
}

/** Handlers called after things happen; they cannot change the outcome, and a throw is only logged. */
export interface EventCallbacks {
  /** A user signed in (`isNewUser` when the sign-in created them). */
  signIn?: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  /** Database sessions pass the deleted `session`; JWT sessions the `token` that was in the cookie. */
  signOut?: (message: { session: AdapterSession | null } | { token: JWT | null }) => Awaitable<void>
  /** The adapter created a user (a first sign-in). */
  createUser?: (message: { user: User }) => Awaitable<void>
  /** The adapter updated a user (an email address verified by a sign-in link). */
  updateUser?: (message: { user: User }) => Awaitable<void>
  /** An account at a provider was linked to a user. */
  linkAccount?: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  /**
   * The signed-in user unlinked one of their accounts (`POST /accounts/unlink`, or the server's
   * `unlinkAccount`): `account` is the record that left the store, its tokens included (revoked
   * at the provider by then when it sets `revokeTokensOnSignOut`).
   */
  unlinkAccount?: (message: { user: AdapterUser; account: AdapterAccount }) => Awaitable<void>
  /** The session was read (`GET /session`). */
  session?: (message: { session: Session; token: JWT }) => Awaitable<void>
  /** `getAccessToken` refreshed an account's tokens and stored them: `account` is the stored account, new tokens included. */
  refreshToken?: (message: { account: AdapterAccount }) => Awaitable<void>
  /** `getAccessToken` could not refresh an account's tokens; `error` is the `RefreshTokenError` it rejects with. */
  refreshTokenError?: (message: { provider: string; providerAccountId: string; error: RefreshTokenError }) => Awaitable<void>
  /**
   * A session was revoked (its record, with an adapter that keeps session records): signed out
   * (`"signOut"`), ended by the provider's back-channel logout (`"backchannelLogout"`), by the
   * user from their list of sessions (`"revoked"`, one or every other), by their "sign out
   * everywhere" (`"signOutEverywhere"`), by the app's `revokeUserSessions` (`"admin"`), or
   * with its user's account (`"accountDeleted"`).
   */
  sessionRevoked?: (message: { userId: string; sessionId: string; reason: SessionRevocationReason }) => Awaitable<void>
  /**
   * The audit trail: one {@link AuditEvent} per authentication operation, failures included (each
   * way in, sign-out, session revocations, account linking and unlinking, passkeys added and
   * removed). The event carries no token, code, password, secret or cookie value. An app without
   * this handler pays nothing for it: no event is built. See the core README, "Audit events".
   *
   * @example
   * ```ts
   * events: { audit: (event) => auditLog.write(event) } // e.g. { type: "signIn", outcome: "failure", reason: "invalidCredentials", provider: "credentials", at: 1767225600000 }
   * ```
   */
  audit?: (event: AuditEvent) => Awaitable<void>
}

/**
 * What an audit event records, a closed list (an exhaustive `switch` over it is safe until a release
 * adds a member, which its changeset says):
 *
 * - `signIn`: a sign-in through any way in (OAuth 2.0 / OpenID Connect, OAuth 1.0a, a followed
 *   email link, credentials, a passkey, a passkey sign-up): `success` once the session starts,
 *   `failure` when any step refuses it (its start, the provider's callback, the link, the form,
 *   the ceremony).
 * - `emailLinkRequest`: a sign-in link asked for (an email provider's form, or a passkey sign-up
 *   confirming its address): `success` once sent, `failure` when not, `rateLimited` included,
 *   where the browser is told it was sent.
 * - `signOut`: `POST /signout` or the server's `signOut()`.
 * - `sessionRevoke`: sessions ended otherwise; its `reason` on success says how (`revoked`,
 *   `signOutEverywhere`, `backchannelLogout`, `admin`).
 * - `accountLink`: a provider's account linked to an existing user (while signed in, or by a
 *   verified email); its failures are the sign-in's.
 * - `accountUnlink`: `POST /accounts/unlink` or the server's `unlinkAccount()`.
 * - `passkeyAdd`, `passkeyRemove`: a signed-in user registers or deletes a passkey.
 * - `reauth`: the signed-in user proved it is them again (`{basePath}/reauth`): `success` when the
 *   session was raised; `wrongUser` when the way proved another user (the session unchanged).
 * - `secondFactor`: a code typed to complete a pending sign-in (`POST /mfa/verify`): `success`
 *   (its `methods` the factor's, `"otp"` or `"kba"`, followed by the `signIn` success), or
 *   `failure` (`invalidCode`, `replayed`, `rateLimited`, `locked`, `expired`, `invalidRequest`).
 * - `mfaEnrol`: an authenticator app confirmed with its first code (`POST /mfa/totp/confirm`).
 * - `mfaRemove`: a second factor removed (`POST /mfa/remove`).
 * - `backupCodesRegenerate`: new backup codes replace the old ones (`POST /mfa/backup-codes`).
 * - `emailChange`: the email address changed in two steps. The request (`POST /account/email`,
 *   `changeEmail()`) ends `pending` once the link was mailed to the new address, or fails
 *   (`addressTaken`: another account has it, a mail without a link says so; `rateLimited`;
 *   `reauthRequired`...); the link's post (`POST /account/email/confirm`) ends `success` with the
 *   change applied, or fails (`invalidCode`: unknown, used, expired or cancelled; `addressTaken`).
 * - `accountDelete`: the user deleted their account (`POST /account/delete`, `deleteAccount()`).
 */
export type AuditType =
  | "signIn"
  | "emailLinkRequest"
  | "signOut"
  | "sessionRevoke"
  | "accountLink"
  | "accountUnlink"
  | "passkeyAdd"
  | "passkeyRemove"
  | "reauth"
  | "secondFactor"
  | "mfaEnrol"
  | "mfaRemove"
  | "backupCodesRegenerate"
  | "emailChange"
  | "accountDelete"
  | "passwordSignUp"
  | "passwordReset"
  | "passwordChange"

/**
 * How an audited operation ended; `pending` for a `signIn` whose first factor passed and whose
 * user owes a second (no session yet: a `secondFactor` event and the `signIn` success follow),
 * and for an `emailChange` whose link was mailed (its post sends the success).
 */
export type AuditOutcome = "success" | "failure" | "pending"

/**
 * Why an audited operation failed (or, for a `sessionRevoke` success, how the sessions ended), a
 * closed list:
 *
 * - `denied`: refused by the user at the provider, or by the app (`signIn` callback, `jwt` callback).
 * - `invalidCredentials`: a password form `authorize` refused, a passkey that did not verify or is unknown (or, as a second factor, was the first).
 * - `invalidCode`: a sign-in link whose token is unknown, used or expired; a wrong second-factor code.
 * - `expired`, `replayed`: a passkey challenge that expired or was used already; a back-channel logout token seen before;
 *   a pending sign-in that ended (5 minutes, 5 wrong codes, completed) and a TOTP step or backup code used already.
 * - `rateLimited`: an account's password sign-in paused (`rateLimit.credentials`), an address's mail allowance spent
 *   (`rateLimit.mailPerAddress`), a user's 10 wrong second-factor codes in 15 minutes.
 * - `locked`: the user's TOTP factor is locked after 100 wrong codes in a row.
 * - `accountNotLinked`: the account-linking rules refused the account.
 * - `invalidRequest`: the request itself was wrong: CSRF, state, PKCE, nonce, callback URL, an unknown provider, malformed input.
 * - `providerError`: the provider answered with an error or did not validate, or the email could not be sent.
 * - `signInRequired`: the operation needs a signed-in user and the request has none.
 * - `wrongUser`: another user is signed in than the one who started the operation; another user's passkey offered as a second factor.
 * - `lastSignInMethod`: refused to remove the user's last way to sign in.
 * - `reauthRequired`: the change needs a recent authentication (`session.reauthAge`) and the session's is older.
 * - `configuration`: the app's set-up or its own code failed (a callback or `authorize` that threw).
 * - `storeError`: the adapter failed.
 * - `addressTaken`: an email change to an address another account has; a password sign-up for an address that already has an account (answered as for a new one; the owner is mailed).
 * - `passwordRefused`: a new password the rules refused (too short, too long, common, breached).
 * - `unverified`: a password sign-in whose account has not confirmed its address yet (a new link is mailed).
 * - On a `sessionRevoke` success: `revoked` (one, or every other, from the user's list of sessions),
 *   `signOutEverywhere`, `backchannelLogout`, `admin` (`revokeUserSessions`), `passwordChange` (a password reset
 *   or changed: every session, or every other one).
 */
export type AuditReason =
  | "denied"
  | "invalidCredentials"
  | "invalidCode"
  | "expired"
  | "replayed"
  | "rateLimited"
  | "locked"
  | "accountNotLinked"
  | "invalidRequest"
  | "providerError"
  | "signInRequired"
  | "wrongUser"
  | "lastSignInMethod"
  | "reauthRequired"
  | "configuration"
  | "storeError"
  | "passwordRefused"
  | "addressTaken"
  | "unverified"
  | Exclude<SessionRevocationReason, "signOut" | "accountDeleted">

/**
 * One authentication operation, as `events.audit` receives it. Fields are present only where known;
 * none carries a token, code, password, secret, cookie value or a callback URL.
 */
export interface AuditEvent {
  type: AuditType
  outcome: AuditOutcome
  /** Why it failed; on a `sessionRevoke` success, how the sessions ended. */
  reason?: AuditReason
  /** The user it concerns, once known (not for a refused sign-in of an unknown user). */
  userId?: string
  /** The provider's id (`"github"`, `"credentials"`, `"passkey"`...). */
  provider?: string
  /** The ways the user proved who they are (a sign-in's methods, as on `session.assurance`). */
  methods?: string[]
  /** The client's address as the per-client limits key it (an IPv6 client by its /64), only when the app's `clientAddress` or its integration names one. */
  clientAddress?: string
  /** The request's `User-Agent`, cut to 256 characters as session records keep it. */
  userAgent?: string
  /** When, in milliseconds since the epoch. */
  at: number
}

/**
 * Why a session was revoked: see the `sessionRevoked` event. `expired`: it reached
 * `session.absoluteMaxAge`; `idle`: it went unread for `session.idleTimeout`; `accountDeleted`:
 * its user deleted their account (the deletion's own `accountDelete` audit event tells it);
 * `passwordChange`: its user's password was reset (every session) or changed (every other one).
 */
export type SessionRevocationReason = "signOut" | "backchannelLogout" | "revoked" | "signOutEverywhere" | "admin" | "expired" | "idle" | "accountDeleted" | "passwordChange"

/** The app's own pages, used instead of the built-in ones. */
export interface PagesOptions {
  /** The app's sign-in page, instead of `{basePath}/signin`; it is sent `callbackUrl` and, after a failure, `error`. */
  signIn?: string
  /** The app's sign-out page, instead of `{basePath}/signout`. */
  signOut?: string
  /** The app's error page, instead of `{basePath}/error`; it is sent the error code as `error`. */
  error?: string
  /** The app's "check your email" page, shown after a sign-in link was sent. */
  verifyRequest?: string
  /** Where a user's first sign-in lands (sent the `callbackUrl` to go on to). */
  newUser?: string
}

/**
 * Why core sends a mail that is not a sign-in link: a notice of something done to the account
 * (a second factor locked, added or removed), a second-factor code, or a link to confirm a new
 * address, an address for a password account, or a password reset.
 */
export type MailKind = "notice" | "mfaCode" | "emailChange" | "passwordVerify" | "passwordReset"

/** One mail core asks the app to send (see `AuthConfig.mail`): the message and why it is sent. */
export interface MailMessage extends EmailMessage {
  kind: MailKind
  /** The link the mail carries (a confirmation or reset link), for an app that writes its own body. Never log it. */
  url?: string
  /** The one-time code the mail carries (`mfaCode`), for an app that writes its own body. Never log it. */
  code?: string
}

/** `AuthConfig.mail`: how core's mails other than sign-in links go out. */
export interface MailOptions {
  /**
   * Sends one mail (a throw or a rejection counts as not sent: it is logged with the link and
   * code redacted, and the feature that asked decides what the user is told). Default: through
   * the transport of the configured email provider (`Resend`, `Nodemailer`, `Sendgrid`...).
   */
  send?: (message: MailMessage) => Awaitable<void>
}

/** The configuration of `Auth()`. */
export interface AuthConfig {
  /** The ways to sign in: OAuth and OpenID Connect providers, email links, credentials, passkeys. */
  providers: Provider[]
  /** Seals sessions and checks; an array rotates: the first seals, all are tried to open. Default: `AUTH_SECRET`. */
  secret?: string | string[]
  /**
   * The app's URL (origin, and the routes' path when `basePath` is not set), e.g.
   * `"https://app.example.com"`. Every URL that leaves the server (emailed sign-in links,
   * `redirect_uri`, redirect-proxy targets) is built from it. Default: `AUTH_URL`.
   */
  url?: string
  /**
   * Other origins the app is served on, such as preview deployments: exact origins or patterns
   * with `*` in the first label (`"https://*.preview.example.com"`). A request whose (trusted)
   * host is one of them is served on that origin. Default: `AUTH_ALLOWED_ORIGINS`, comma-separated.
   */
  allowedOrigins?: string[]
  /**
   * Believes the request's `Host`, `X-Forwarded-Host` and `X-Forwarded-Proto` headers, as set by
   * a proxy you control, to tell which of the app's origins a request came to. It never lets
   * those headers name an origin the app did not configure (`url`, `allowedOrigins`) in a URL
   * sent elsewhere; without either, only loopback addresses get such URLs.
   * Default: `AUTH_TRUST_HOST`, or true when `url` / `AUTH_URL` is set.
   */
  trustHost?: boolean
  /** The path the routes live under. Default `/api/auth`. */
  basePath?: string
  session?: SessionOptions
  jwt?: JWTOptions
  callbacks?: CallbacksOptions
  events?: EventCallbacks
  pages?: PagesOptions
  /**
   * The one hook for every mail core sends that is not a sign-in link (second-factor codes and
   * notices, address changes, password accounts): a Portcullis addition. Without `send`, such
   * mail goes through the configured email provider's transport; an app whose email provider
   * has only its own `sendVerificationRequest` gets one warning naming this option, and the mail
   * is not sent.
   *
   * @example
   * ```ts
   * mail: { send: ({ to, subject, text, html }) => mailer.send({ from: "Acme <no-reply@acme.example>", to, subject, text, html }) }
   * ```
   */
  mail?: MailOptions
  /** Overrides a cookie's name or options, per cookie (`sessionToken`, `csrfToken`...): the defaults are `__Host-` / `__Secure-` on https. */
  cookies?: Partial<{ [K in keyof CookiesOptions]: Partial<CookiesOptions[K]> }>
  /** Default: true when the origin is `https:`. */
  useSecureCookies?: boolean
  /** A stable URL that forwards OAuth callbacks to preview deployments. */
  redirectProxyUrl?: string
  /** Where errors, warnings and debug lines go, instead of the console; secrets are redacted first. */
  logger?: Partial<LoggerInstance>
  /** Logs the debug lines too. Default false. */
  debug?: boolean
  theme?: Theme
  /** Where users, accounts, database sessions, verification tokens and passkeys are stored (any Auth.js adapter fits). */
  adapter?: Adapter
  /**
   * Second factors: a Portcullis addition (Auth.js has none). Which factors users may enrol
   * (`factors`, default `["totp"]`) and who must have one (`required`, default `false`). Needs an
   * `adapter` with the second-factor and session-record methods (`@portcullis/adapter-pg` and
   * `@portcullis/adapter-memory` have them; an Auth.js adapter gains them from
   * `@portcullis/adapter-pg` on the same database): `Auth()` refuses `mfa` at start otherwise,
   * naming what is missing. See the core README's "Second factors".
   *
   * @example
   * ```ts
   * mfa: { factors: ["totp"], required: (user) => user.role === "admin" }
   * ```
   */
  mfa?: MfaOptions
  /**
   * How long one call into a store (each `adapter` method, each `rateLimit.store` call) may take,
   * in milliseconds, 1 to 120000. A call still pending then fails as the store failing does: the
   * request is answered `503` or with the error page (`AdapterError`), and a limit fails closed.
   * A Portcullis addition (Auth.js waits as long as the store does). Default 5000.
   */
  storeTimeout?: number
  /** Auth.js's feature flags. `enableWebAuthn` is accepted and not needed: passkeys work once `Passkey()` is configured. */
  experimental?: {
    /** Accepted for Auth.js's sake; it changes nothing. */
    enableWebAuthn?: boolean
  }
  /**
   * Keeps users signed in across a move from Auth.js: until `until`, a request that carries no
   * session cookie of ours but one under Auth.js's name (`__Secure-authjs.session-token` on
   * https, and next-auth v4's `next-auth.session-token` names for database sessions) is read
   * as signed in, and the response moves the session to our cookie and expires the old one.
   * After `until` the old names are ignored. Set it to the day you deploy plus
   * `session.maxAge`; `@portcullis/migrate` writes it. The old names are not `__Host-`, so a
   * sibling subdomain can plant them: see SECURITY.md.
   *
   * @example
   * ```ts
   * legacySessionCookies: { until: "2026-03-31T00:00:00Z" }
   * ```
   */
  legacySessionCookies?: LegacySessionCookiesOptions
  /**
   * Abuse limits, keyed by who is targeted, on by default: at most `mailPerAddress.limit` sign-in
   * mails (email links, passkey sign-up links) per address per `mailPerAddress.window` seconds
   * (default 3 per 15 minutes; over it the answer is the same and no mail is sent), and after
   * `credentials.failures` failed password attempts for one account (default 10) its password
   * sign-in is refused for `credentials.lockout` seconds (default 15 minutes) without calling
   * `authorize`, answered like a wrong password. Counters live in `store` (default: this
   * process); give several instances one shared store. Per client, `perClient` (see
   * {@link PerClientRateLimits}) answers `429` with `Retry-After` to a client address that floods
   * the sign-in routes; it applies only when the address is known (`clientAddress`, or an
   * integration that passes it). `false` turns every limit off.
   */
  rateLimit?: false | RateLimitOptions
  /**
   * The client's IP address for the per-client limits (`rateLimit.perClient`): a Portcullis
   * addition, Auth.js has none. Called once for each request to a limited route; answer the
   * address, or `undefined` when it is not known (the request is then not counted). IPv6
   * addresses count by their /64. It wins over the address an integration passes
   * (`@portcullis/express` passes `req.ip`, `@portcullis/sveltekit` `getClientAddress()`).
   * Nothing reads a request header by default: behind proxies you control, use
   * `forwardedFor({ proxies })` from `@portcullis/core/client-address`.
   *
   * @example
   * ```ts
   * import { forwardedFor } from "@portcullis/core/client-address"
   *
   * clientAddress: forwardedFor({ proxies: 1 }) // one load balancer that appends to X-Forwarded-For
   * ```
   */
  clientAddress?: (request: Request) => Awaitable<string | null | undefined>
}

/** Which cookies of a previous Auth.js or next-auth set-up still sign a user in, and until when. */
export interface LegacySessionCookiesOptions {
  /** A `Date`, or an ISO 8601 date (`"2026-03-31"`, UTC) or date-time with its offset (`"2026-03-31T00:00:00Z"`). */
  until: Date | string
}

/**
 * A second factor a user may enrol: `"totp"`, an authenticator app's six-digit codes (RFC 6238);
 * `"passkey"`, any of the user's passkeys; `"email"`, a code sent by mail (weaker: NIST SP 800-63B
 * does not accept email as an out-of-band authenticator).
 */
export type MfaFactor = "totp" | "passkey" | "email"

/** `AuthConfig.mfa`: which second factors users may enrol, and who must have one. */
export interface MfaOptions {
  /**
   * The factors offered, each at most once. Default `["totp"]`. `"email"` (a 6-digit code mailed
   * through `mail.send`, weaker than the others) is owed by every user with a verified address on
   * every way in but an email link, and needs a way to send mail (`Auth()` refuses it without one).
   */
  factors?: MfaFactor[]
  /**
   * Who must have a second factor: `true` for every user, or a function answering `true` or
   * `false` for one user (called as they sign in; an answer that is not a boolean fails the
   * sign-in as a `Configuration` error). A user with an enrolled factor always owes it, whatever
   * this says. Default `false`.
   */
  required?: boolean | ((user: AdapterUser) => Awaitable<boolean>)
}

/** `AuthConfig.rateLimit`: the limits and where their counters live. */
export interface RateLimitOptions {
  /** Where the counters live. Default: in this process. */
  store?: RateLimitStore
  /** Sign-in mails (email links, passkey sign-up links, second-factor codes) per address. */
  mailPerAddress?: {
    /** Mails per window. Default 3. */
    limit?: number
    /** The window in seconds. Default 900 (15 minutes). */
    window?: number
  }
  /** Failed password attempts per account. */
  credentials?: {
    /** Failures before the account's password sign-in pauses. Default 10. */
    failures?: number
    /** Seconds the pause lasts. Default 900 (15 minutes). */
    lockout?: number
  }
  /** Requests per client address and route group; `false` turns every per-client limit off. */
  perClient?: false | PerClientRateLimits
}

/** One per-client rule: `limit` requests per `window` seconds, or `false` to turn the rule off. */
export type ClientRateLimit = false | { limit?: number; window?: number }

/**
 * `rateLimit.perClient`: how many requests of each route group one client address (an IPv6
 * client by its /64) may make per window before it is answered `429` with `Retry-After`. The
 * defaults are far above what a person does by hand. Applied only when the client address is
 * known (see `AuthConfig.clientAddress`).
 */
export interface PerClientRateLimits {
  /** `POST /signin/:provider`: starting a sign-in (a redirect to a provider, a sign-in mail). Default 30 per 60 s. */
  signIn?: ClientRateLimit
  /** `GET|POST /callback/:provider`: a provider's return, an email link, a password or passkey sign-in. Default 60 per 60 s. */
  callback?: ClientRateLimit
  /** `GET /webauthn-options/:provider`: a passkey challenge. Default 30 per 60 s. */
  passkeyOptions?: ClientRateLimit
  /** `POST /session`: a session update. Default 60 per 60 s. */
  sessionUpdate?: ClientRateLimit
  /** `POST /password/signup`, `/password/reset-request`, `/password/reset`, `/password/change` (`Password()`): each hashes a password or sends a mail. Default 10 per 60 s. */
  password?: ClientRateLimit
}
