/**
 * `@portcullis/sveltekit/components`: the `SignIn` and `SignOut` forms @auth/sveltekit ships,
 * posting to the app's `signIn` / `signOut` form actions.
 *
 * @module components
 */
import { SvelteComponent } from "svelte"

/** Props of {@link SignIn}. */
export interface SignInProps {
  /** Classes added to the form's `signInButton`. */
  className?: string
  /** The provider id; empty for the sign-in page. */
  provider?: string
  /** The route whose default form action is `signIn`. Default `signin`. */
  signInPage?: string
  /** `redirectTo` (where to land) and `redirect`, as `signIn` takes them. */
  options?: FormData | { redirectTo?: string; redirect?: boolean }
  /** Sent to the provider's authorization endpoint. */
  authorizationParams?: string | string[][] | Record<string, string> | URLSearchParams
  /** Any other attribute goes to the `<form>`. */
  [attribute: string]: unknown
}

/** Props of {@link SignOut}. */
export interface SignOutProps {
  /** Classes added to the form's `signOutButton`. */
  className?: string
  /** `redirectTo` (where to land) and `redirect`, as `signOut` takes them. */
  options?: { redirectTo?: string; redirect?: boolean }
  /** The route whose default form action is `signOut`. Default `signout`. */
  signOutPage?: string
  /** Any other attribute goes to the `<form>`. */
  [attribute: string]: unknown
}

/** A sign-in form; slots `credentials`, `email` and `submitButton`. */
export declare class SignIn extends SvelteComponent<SignInProps, Record<string, never>, { credentials: Record<string, never>; email: Record<string, never>; submitButton: Record<string, never> }> {}

/** A sign-out form; slot `submitButton`. */
export declare class SignOut extends SvelteComponent<SignOutProps, Record<string, never>, { submitButton: Record<string, never> }> {}
