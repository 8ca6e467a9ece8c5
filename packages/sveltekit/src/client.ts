/**
 * `@portcullis/sveltekit/client`: `signIn` and `signOut` in the browser, as @auth/sveltekit's
 * client has them: the routes under `/auth` (after SvelteKit's `paths.base`), `redirectTo` for
 * where to land. They call `@portcullis/core/client`.
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from "@portcullis/sveltekit/client"
 * </script>
 * <button onclick={() => signIn("github")}>Sign in</button>
 * ```
 *
 * @module client
 */
import { base as deprecatedBase } from "$app/paths"
import { signIn as coreSignIn, signOut as coreSignOut, type NavigationResult } from "@portcullis/core/client"

// `base` rather than `resolve()`: the peer range starts before SvelteKit 2.26, which added it.
// eslint-disable-next-line @typescript-eslint/no-deprecated
const base: string = deprecatedBase

export type { NavigationResult } from "@portcullis/core/client"

/** Options of {@link signIn}. */
export interface SignInOptions {
  /** Where the browser lands after signing in. Default: the current page. */
  redirectTo?: string
  /** @deprecated Use `redirectTo`. */
  callbackUrl?: string
  /** `false` resolves with the outcome instead of navigating (an inline credentials error). Default `true`. */
  redirect?: boolean
  /** Where the routes are served. Default `${base}/auth`. */
  basePath?: string
  /** Form fields a provider reads: `email`, a credentials provider's fields. */
  [field: string]: string | boolean | undefined
}

/** Options of {@link signOut}. */
export interface SignOutParams {
  /** Where the browser lands after signing out. Default: the current page. */
  redirectTo?: string
  /** @deprecated Use `redirectTo`. */
  callbackUrl?: string
  /** `false` resolves with the outcome instead of navigating. Default `true`. */
  redirect?: boolean
  /** Where the routes are served. Default `${base}/auth`. */
  basePath?: string
}

/**
 * Starts a sign-in with a provider (the sign-in page when no id is given); navigates unless
 * `redirect: false`, which resolves with where the server sent the browser and its error code.
 */
export function signIn(
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: Record<string, string>,
): Promise<NavigationResult | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- still honoured, as @auth/sveltekit does
  const { redirectTo, callbackUrl, basePath, ...rest } = options
  const target = redirectTo ?? callbackUrl
  return coreSignIn(provider, { ...rest, basePath: basePath ?? `${base}/auth`, ...(target === undefined ? {} : { callbackUrl: target }) }, authorizationParams)
}

/** Signs out (CSRF-checked); navigates to `redirectTo` (default: the current page) unless `redirect: false`. */
export function signOut(options: SignOutParams = {}): Promise<NavigationResult | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- still honoured, as @auth/sveltekit does
  const { redirectTo, callbackUrl, basePath, redirect } = options
  const target = redirectTo ?? callbackUrl
  return coreSignOut({ basePath: basePath ?? `${base}/auth`, ...(redirect === undefined ? {} : { redirect }), ...(target === undefined ? {} : { callbackUrl: target }) })
}
