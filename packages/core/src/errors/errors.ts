/**
 * The `errors/` room: failures as values. The `AuthError` classes and their codes (this module,
 * `error-codes.ts`; the classes only code fetched on first use raises, in `flow-errors.ts`), the sentence shown for each code (`error-messages.ts`) and the logger that
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

/** The provider's callback, token or userinfo answer was an error or did not validate. */
export class OAuthCallbackError extends AuthError {
  readonly code = "OAuthCallbackError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** Starting an email sign-in failed: the address is not one valid address, or the email could not be sent. */
export class EmailSignInError extends AuthError {
  readonly code = "EmailSignInError"
  static override readonly defaultPage: ErrorPage = "signin"
}

/** The request names no route `Auth()` serves, or uses a method the route does not accept. */
export class UnknownAction extends AuthError {
  readonly code = "UnknownAction"
}

/** The request names a provider that is not configured, or one that cannot serve the route. */
export class InvalidProvider extends AuthError {
  readonly code = "InvalidProvider"
}

/** `callbackUrl` was not same-origin and the `redirect` callback did not allow it. */
export class InvalidCallbackUrl extends AuthError {
  readonly code = "InvalidCallbackUrl"
}

/** Reading or writing the session failed (a `jwt`/`session` callback threw, or the cookie could not be sealed). */
export class SessionTokenError extends AuthError {
  readonly code = "SessionTokenError"
}

/** A user-supplied event handler threw; logged only, it never changes the response. */
export class EventError extends AuthError {
  readonly code = "EventError"
}

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
