/**
 * The `errors/` room: failures as values. The `AuthError` classes and their codes (this module,
 * `error-codes.ts`), the sentence shown for each code (`error-messages.ts`) and the logger that
 * redacts what it prints (`logger.ts`). A leaf room: it imports no other folder, so every room may
 * use it; how a failed request is answered is `http/failures.ts`.
 *
 * Every failure `Auth()` can meet, as values with a stable `code`.
 *
 * The logger receives the error with its `cause`; the browser only ever sees the `code`
 * (in an error or sign-in page URL) and a fixed human sentence for it (`error-messages.ts`,
 * loaded when an answer shows one). Published with the sentences as `@portcullis/core/errors`
 * (`public-errors.ts`).
 */
import type { AuthErrorCode } from "./error-codes.js"

export type { AuthErrorCode } from "./error-codes.js"

/** Where a browser is sent after a failure: back to sign-in (it may retry) or the error page. */
export type ErrorPage = "signin" | "error"

/** What an error is constructed with. */
export interface AuthErrorOptions {
  cause?: unknown
  /** Overrides the class's default landing page, for one occurrence. */
  page?: ErrorPage
  /**
   * A short reason the browser may see, as `code=` on the sign-in page URL: letters, digits,
   * `_` and `-`, at most 32; anything else is dropped.
   */
  publicCode?: string
}

/**
 * Base class of every error raised by `@portcullis/core`.
 *
 * @example
 * ```ts
 * logger: { error(error) { if (error.code === "InvalidCheck") metrics.inc("csrf_or_state") } }
 * ```
 */
export abstract class AuthError extends Error {
  /** Stable identifier of the failure, safe to show and to match on. */
  abstract readonly code: AuthErrorCode
  /** Which page a browser lands on after this failure. */
  readonly page: ErrorPage
  /** The reason shown to the browser as `code=` beside `error=` on the sign-in page URL, if any. */
  readonly publicCode: string | undefined
  /** The page a browser lands on for this class of failure, unless the occurrence says otherwise. */
  static readonly defaultPage: ErrorPage = "error"

  constructor(message: string, options?: AuthErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.page = options?.page ?? (new.target).defaultPage
    this.publicCode = isPublicCode(options?.publicCode) ? options.publicCode : undefined
  }
}

// An error's `name` is its `code` ("CredentialsSignin"), read when asked: a class's own name does
// not survive every bundler (Turbopack inlines an exported class as an anonymous one, whose name
// is ""). A subclass or an app may still set a name of its own, which then wins.
Object.defineProperty(AuthError.prototype, "name", {
  configurable: true,
  get(this: AuthError): string {
    return this.code
  },
  set(this: AuthError, value: string) {
    Object.defineProperty(this, "name", { value, writable: true, configurable: true, enumerable: false })
  },
})

/** The configuration passed to `Auth()` is invalid; the message names the option to fix. */
export class Configuration extends AuthError {
  readonly code = "Configuration"
}

/** No `secret` was configured (nor `AUTH_SECRET` set). */
export class MissingSecret extends AuthError {
  readonly code = "MissingSecret"
}

/** The request's host is not trusted: set `trustHost`, `AUTH_TRUST_HOST` or `AUTH_URL`. */
export class UntrustedHost extends AuthError {
  readonly code = "UntrustedHost"
}

/** The request names no route `Auth()` serves, or uses a method the route does not accept. */
export class UnknownAction extends AuthError {
  readonly code = "UnknownAction"
}

/** The request names a provider that is not configured, or one that cannot serve the route. */
export class InvalidProvider extends AuthError {
  readonly code = "InvalidProvider"
}

/** A state-changing POST came without a valid CSRF token. */
export class MissingCSRF extends AuthError {
  readonly code = "MissingCSRF"
  static override readonly defaultPage: ErrorPage = "signin"
  /**
   * The loopback origin the posting page was opened at, when it is not the app's own (`AUTH_URL`
   * says `localhost`, the page was on `127.0.0.1`): the likely cause, shown on the sign-in page
   * as text, never as a link.
   */
  readonly openedAt: string | undefined

  constructor(message: string, options?: AuthErrorOptions & { openedAt?: string | undefined }) {
    super(message, options)
    this.openedAt = options?.openedAt
  }
}

/** A `state`, PKCE or `nonce` check failed on the callback: missing, expired or mismatched. */
export class InvalidCheck extends AuthError {
  readonly code = "InvalidCheck"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** Starting the sign-in with an OAuth provider failed (discovery, authorization URL). */
export class OAuthSignInError extends AuthError {
  readonly code = "OAuthSignInError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** The provider's callback, token or userinfo answer was an error or did not validate. */
export class OAuthCallbackError extends AuthError {
  readonly code = "OAuthCallbackError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** The email is already used by a user who signed in with another provider (rule R1). */
export class OAuthAccountNotLinked extends AuthError {
  readonly code = "OAuthAccountNotLinked"
  static override readonly defaultPage: ErrorPage = "signin"
}

/**
 * A credentials sign-in was refused: `authorize` returned `null` or threw this error. The
 * browser goes back to the sign-in page with `error=CredentialsSignin&code={publicCode}`.
 *
 * @example
 * ```ts
 * authorize: async ({ username, password }) => {
 *   const user = await users.find(username)
 *   if (user?.locked) throw new CredentialsSignin("Account locked.", { code: "locked" })
 *   return user && (await verify(password, user.hash)) ? user : null
 * }
 * ```
 */
export class CredentialsSignin extends AuthError {
  readonly code = "CredentialsSignin"
  static override readonly defaultPage: ErrorPage = "signin"
  /**
   * A short reason the browser may see, as `code=` on the sign-in page URL: letters, digits,
   * `_` and `-`, at most 32; anything else is replaced by the default `"credentials"`.
   */
  override readonly publicCode: string

  constructor(message = "The credentials were refused.", options?: AuthErrorOptions & { code?: string }) {
    super(message, options)
    const code = options?.code ?? options?.publicCode
    this.publicCode = isPublicCode(code) ? code : "credentials"
  }
}

/** Starting an email sign-in failed: the address is not one valid address, or the email could not be sent. */
export class EmailSignInError extends AuthError {
  readonly code = "EmailSignInError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** The user refused at the provider, or the `signIn` callback refused the sign-in. */
export class AccessDenied extends AuthError {
  readonly code = "AccessDenied"
}

/** A verification token (magic link) is expired, already used, unknown or malformed. */
export class Verification extends AuthError {
  readonly code = "Verification"
}

/** A callback (`signIn`, `jwt`, `session`, `profile`, ...) threw while handling the callback route. */
export class CallbackRouteError extends AuthError {
  readonly code = "CallbackRouteError"
}

/** An adapter method threw or returned something unusable. */
export class AdapterError extends AuthError {
  readonly code = "AdapterError"
}

/** `callbackUrl` was not same-origin and the `redirect` callback did not allow it. */
export class InvalidCallbackUrl extends AuthError {
  readonly code = "InvalidCallbackUrl"
}

/** Reading or writing the session failed (a `jwt`/`session` callback threw, or the cookie could not be sealed). */
export class SessionTokenError extends AuthError {
  readonly code = "SessionTokenError"
}

/**
 * A passkey (WebAuthn) ceremony failed: the response was malformed, its challenge unknown, used
 * or expired, its origin, relying party, signature, counter or user verification wrong, or its
 * credential unknown or already registered. The browser goes back to the sign-in page.
 */
export class WebAuthnVerificationError extends AuthError {
  readonly code = "WebAuthnVerificationError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/**
 * `getAccessToken` could not refresh a provider's access token: the provider refused the refresh
 * token (`invalid_grant`: revoked, expired or already used), answered with an error, or could
 * not be reached, or the account has no refresh token. The app session is not ended: the user
 * may sign in with the provider again to get new tokens.
 */
export class RefreshTokenError extends AuthError {
  readonly code = "RefreshTokenError"
}

/**
 * A back-channel logout token failed a check of OpenID Connect Back-Channel Logout 1.0 §2.6
 * (signature, issuer, audience, age, event, `nonce`, `sub`/`sid`) or was replayed: the provider
 * gets `400` and no session ends.
 */
export class InvalidLogoutToken extends AuthError {
  readonly code = "InvalidLogoutToken"
}

/** A user-supplied event handler threw; logged only, it never changes the response. */
export class EventError extends AuthError {
  readonly code = "EventError"
}

/** A route that acts for the signed-in user (unlinking an account, listing or ending sessions) was called without a session: answered `401`. */
export class SignInRequired extends AuthError {
  readonly code = "SignInRequired"
}

/**
 * The signed-in user has no such account to unlink: the provider is unknown or keeps no accounts
 * a user unlinks, the account is another user's or does not exist, or the user has several at
 * the provider and the request named none. One answer for all, so that it tells nothing about
 * other users' accounts.
 */
export class UnknownAccount extends AuthError {
  readonly code = "UnknownAccount"
}

/**
 * Unlinking the account would leave the user no way to sign in (see the core README's "the last
 * way in"): link another account, add a passkey or verify the email first.
 */
export class LastSignInMethod extends AuthError {
  readonly code = "LastSignInMethod"
}

/** Every error class `@portcullis/core` raises. */
export type AuthErrorClass =
  | Configuration
  | MissingSecret
  | UntrustedHost
  | UnknownAction
  | InvalidProvider
  | MissingCSRF
  | InvalidCheck
  | OAuthSignInError
  | OAuthCallbackError
  | OAuthAccountNotLinked
  | CredentialsSignin
  | EmailSignInError
  | AccessDenied
  | Verification
  | CallbackRouteError
  | AdapterError
  | InvalidCallbackUrl
  | SessionTokenError
  | WebAuthnVerificationError
  | RefreshTokenError
  | InvalidLogoutToken
  | EventError
  | SignInRequired
  | UnknownAccount
  | LastSignInMethod

/**
 * The HTTP status a code answers with: 503 for the server's own set-up or store, 401 for a
 * request that needs a signed-in user and has none, 403 for a refusal, 400 for everything the
 * request itself got wrong. Never 500.
 */
export function httpStatus(code: AuthErrorCode): number {
  switch (code) {
    case "Configuration":
    case "MissingSecret":
    case "AdapterError":
    case "SessionTokenError":
      return 503
    case "SignInRequired":
      return 401
    case "MissingCSRF":
    case "AccessDenied":
    case "Verification":
      return 403
    default:
      return 400
  }
}

/** Whether a value can be a `CredentialsSignin` public code: 1 to 32 letters, digits, `_` or `-`. */
export function isPublicCode(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(value)
}
