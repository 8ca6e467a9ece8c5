/**
 * The human sentence for each error code: the only error text a browser ever sees. Loaded when
 * an answer shows one (a JSON error, a default page, a code read from a URL);
 * `@portcullis/core/errors` re-exports it.
 */
import type { AuthErrorCode } from "./error-codes.js"

/** A human sentence per code: the only error text a browser ever sees. */
export const errorMessages: Readonly<Record<AuthErrorCode, string>> = {
  Configuration: "Sign-in is not working on this site right now. Please try again later.",
  MissingSecret: "Sign-in is not working on this site right now. Please try again later.",
  UntrustedHost: "Sign-in is not working on this site right now. Please try again later.",
  UnknownAction: "There is nothing at this address. Check the link, or start again from the sign-in page.",
  InvalidProvider: "This way of signing in is not available here. Please choose another one.",
  MissingCSRF: "This page was open for too long and has expired. Please try again.",
  InvalidCheck: "We could not confirm that this sign-in started in this browser. Please start again, and allow cookies for this site if they are blocked.",
  OAuthSignInError: "We could not reach the sign-in service. Please try again, or choose another way to sign in.",
  OAuthCallbackError: "The sign-in service sent back an answer we could not use. Please try again, or choose another way to sign in.",
  OAuthAccountNotLinked: "Your email address is already used with a different way of signing in. Please sign in the way you did before.",
  CredentialsSignin: "Those details did not work. Check them and try again.",
  EmailSignInError: "We could not send the sign-in email. Check the address and try again.",
  AccessDenied: "This account is not allowed to sign in here. If you think it should be, contact the site's owner.",
  Verification: "This sign-in link no longer works: it may have been used already, or it has expired. Ask for a new one.",
  CallbackRouteError: "The sign-in could not be finished. Please try again.",
  AdapterError: "Sign-in is not working right now because of a problem on our side. Please try again in a few minutes.",
  InvalidCallbackUrl: "The page you wanted to return to after signing in is not allowed. Please start again from this site.",
  SessionTokenError: "We could not read your sign-in. Please sign in again.",
  WebAuthnVerificationError: "That passkey did not work here. Please try again, or choose another way to sign in.",
  RefreshTokenError: "Your access to the sign-in service has ended. Please sign in with it again.",
  InvalidLogoutToken: "This sign-out request could not be verified, so nothing was signed out.",
  EventError: "Something went wrong while signing in. Please try again.",
  SignInRequired: "You need to be signed in to do this. Please sign in and try again.",
  UnknownAccount: "No such account is linked to you. Check which account you meant and try again.",
  LastSignInMethod: "This is your last way to sign in, so it cannot be removed. Add another way to sign in first.",
}

/**
 * What the sign-in page says instead, as a neutral notice rather than an error, for a code that
 * reads differently there. `AccessDenied`
 * lands on the sign-in page only when the person pressed Cancel or Deny at the provider
 * (`access_denied`); the `signIn` callback's refusal goes to the error page.
 */
export const signInPageMessages: Readonly<Partial<Record<AuthErrorCode, string>>> = {
  AccessDenied: "You cancelled the sign-in, so you are not signed in. Choose a way to sign in below to try again.",
}

/** Whether a value is a known error code (for values read from a URL). */
export function isAuthErrorCode(value: unknown): value is AuthErrorCode {
  return typeof value === "string" && Object.hasOwn(errorMessages, value)
}
