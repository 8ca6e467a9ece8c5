/**
 * The types the browser client and the passkey client share: their own module, so neither
 * imports the other's types back.
 */

/** Options of the client functions. */
export interface ClientOptions {
  /** Where `Auth()` is mounted. Default `/api/auth`. */
  basePath?: string
}

/** What `signIn` / `signOut` resolve to when they do not navigate. */
export interface NavigationResult {
  /** Where the server sent the browser. */
  url: string
  /** The error code in that URL, if it is an error page. */
  error: string | null
  ok: boolean
}
