/**
 * The types the browser client and the passkey client share, and the session list that the
 * browser client and the server functions both answer: their own module, so none imports
 * another's types back.
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

/** One of the user's sessions, as `GET /sessions`, the server's `listSessions` and the client's answer it. */
export interface SessionInfo {
  /** The session record's id: opaque, never the session token. What `revokeSessions({ id })` takes. */
  id: string
  /** When it signed in (ISO 8601). */
  createdAt: string
  /** When it was last seen, to within a few minutes (ISO 8601). */
  lastSeenAt: string
  /** When it ends unless used again (ISO 8601). */
  expires: string
  /** A short description from its user agent ("Chrome on macOS"), or "Unknown device". */
  device: string
  /** The client's address at sign-in, when the app records one. */
  clientAddress: string | null
  /** Whether it is the session of the request that asked. */
  current: boolean
  /** How it signed in: the provider's id and, when the provider is configured, its name. */
  provider: { id: string; name: string | null } | null
}
