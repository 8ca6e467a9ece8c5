/**
 * The guard of every sensitive route (unlinking, adding or removing a passkey, second-factor
 * changes, account changes): the request's session, only when its user authenticated recently
 * enough; otherwise the answer that sends the browser to sign in, or to prove it is still them.
 */
import { keepsSessionRecords } from "../adapters.js"
import { auditFailure } from "../audit/trail.js"
import type { RequestContext } from "../internal.js"
import { json, redirect } from "../http/context.js"
import { signInPageUrl } from "../http/routes.js"
import { isRecentAuth } from "./assurance.js"
import { readSession } from "./index.js"
import type { CurrentSession } from "./source.js"

/** How recent, and at which level, a route asks the authentication to be. */
export interface RecentAuthOptions {
  /** Seconds since the last authentication (default `session.reauthAge`). */
  maxAge?: number
  /** `2` when the user has a second factor and the change touches authentication details. */
  level?: 1 | 2
  /** Where the browser returns after re-authenticating (default: the app's root). */
  callbackUrl?: string
}

/** The session of a recent enough authentication, or the answer that refuses the request. */
export type RecentSession = { ok: true; current: CurrentSession & { userId: string } } | { ok: false; response: Response; error: "SessionRequired" | "ReauthRequired" }

/**
 * The session of a recent enough authentication, or where the browser goes instead: the sign-in
 * page (no session), or the re-authentication page (a stale one, whose `current` it names).
 */
export type RecentCheck =
  | { ok: true; current: CurrentSession & { userId: string } }
  | { ok: false; error: "SessionRequired"; url: string }
  | { ok: false; error: "ReauthRequired"; url: string; current: CurrentSession & { userId: string } }

/** The re-authentication page for `callbackUrl`: `{origin}{basePath}/reauth?callbackUrl=...`. */
export function reauthUrl(context: RequestContext, callbackUrl: string | undefined): string {
  const url = new URL(`${context.config.basePath}/reauth`, context.origin)
  url.searchParams.set("callbackUrl", callbackUrl ?? context.origin)
  return url.href
}

/**
 * Whether the request's session authenticated within `maxAge` seconds at `level`, answering where
 * the browser goes when not; it reads the internal assurance, never what a callback returned.
 * Nothing is audited: the server's `requireRecentAuth` asks it for an app's own pages.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1, 7.5.3 (re-authentication before sensitive changes)
 */
export async function checkRecentSession(context: RequestContext, options: RecentAuthOptions = {}): Promise<RecentCheck> {
  const current = await readSession(context)
  if (current === null || current.userId === undefined) return { ok: false, error: "SessionRequired", url: signInPageUrl(context, { callbackUrl: options.callbackUrl }) }
  return recentOrStale(context, { ...current, userId: current.userId }, options)
}

/** The configurations already warned that their sessions' authentication times are unknown. */
const warnedUntracked = new WeakSet<object>()

function recentOrStale(context: RequestContext, current: CurrentSession & { userId: string }, options: RecentAuthOptions): RecentCheck {
  const { config } = context
  // A database session on an adapter without session records (Auth.js's) has nowhere to keep when
  // its user authenticated. Refusing it would lock its user out of their own settings for good (no
  // re-authentication can be recorded either), so a level-1 check passes as it did before these
  // checks existed, with one warning naming the fix; a level-2 check (second factors) still refuses.
  if (config.session.strategy === "database" && !keepsSessionRecords(config.adapter) && (options.level ?? 1) === 1) {
    if (!warnedUntracked.has(config)) {
      warnedUntracked.add(config)
      config.logger.warn(
        "ReauthUntracked",
        "Database sessions on an adapter without session records cannot tell when their user last authenticated, so sensitive changes (unlinking, passkeys) are allowed without a recent authentication: add session records (@portcullis/adapter-pg's methods beside your adapter) or use JWT sessions.",
      )
    }
    return { ok: true, current }
  }
  const maxAge = options.maxAge ?? config.session.reauthAge
  if (isRecentAuth(current.assurance, { maxAge, level: options.level }, Math.floor(Date.now() / 1000))) return { ok: true, current }
  return { ok: false, error: "ReauthRequired", url: reauthUrl(context, options.callbackUrl), current }
}

/**
 * The request's session when its user authenticated within `maxAge` seconds at `level`; else the
 * refusal: a fetch gets `401 { error: "SessionRequired", url }` (no session) or `403 { error:
 * "ReauthRequired", url }`, a form post `303` to `url` (the sign-in page, or the re-authentication
 * page with `callbackUrl`). A stale session is the failure (`reauthRequired`) of the audited
 * operation under way, when the route audits one.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1, 7.5.3 (re-authentication before sensitive changes)
 */
export async function requireRecentSession(context: RequestContext, options: RecentAuthOptions = {}): Promise<RecentSession> {
  return refuseStale(context, await checkRecentSession(context, options))
}

/**
 * Like {@link requireRecentSession}, for a route that also serves a request without a session
 * (a provider sign-in, passkey options): `null` when nobody is signed in. Where a signed-in user
 * adds a way in (linking an account, registering a passkey), it is asked before the browser
 * leaves for the provider or the authenticator: a stolen session must not add the thief's.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1 (re-authentication before adding a way in)
 */
export async function recentIfSignedIn(context: RequestContext, options: RecentAuthOptions = {}): Promise<RecentSession | null> {
  const current = await readSession(context)
  if (current === null || current.userId === undefined) return null
  return refuseStale(context, recentOrStale(context, { ...current, userId: current.userId }, options))
}

async function refuseStale(context: RequestContext, check: RecentCheck): Promise<RecentSession> {
  if (check.ok) return check
  if (check.error === "SessionRequired") return { ok: false, error: check.error, response: refuse(context, check.error, check.url, 401) }
  // A route that audits (unlinking, passkeys, a sign-in that would link) ends its operation here; one that does not sends nothing.
  await auditFailure(context, "reauthRequired", check.current.userId)
  return { ok: false, error: check.error, response: refuse(context, check.error, check.url, 403) }
}

/** JSON for a fetch and for server code (`unlinkAccount()` answers JSON as its other failures), a 303 for a form. */
function refuse(context: RequestContext, error: string, url: string, status: number): Response {
  const { request } = context
  const accept = request.headers.get("accept") ?? ""
  const fetched = context.serverCall === true || request.headers.get("x-auth-return-redirect") === "1" || (accept.includes("application/json") && !accept.includes("text/html"))
  return fetched ? json(context, { error, url }, status) : redirect(context, url, 303)
}
