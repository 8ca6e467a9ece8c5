/**
 * The failures only a sign-in, a callback, a refresh or a user's own routes meet, apart from
 * `errors.ts`, whose classes every request may raise: the code that raises these is fetched on
 * first use, and so, by the same rule, are they.
 * Published with the others as `@portcullis/core/errors`.
 */
import { AuthError, isPublicCode, type AuthErrorOptions, type Configuration, type ErrorPage, type EmailSignInError, type OAuthCallbackError, type EventError, type InvalidCallbackUrl, type InvalidProvider, type MissingSecret, type SessionTokenError, type UnknownAction, type UntrustedHost } from "./errors.js"

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
