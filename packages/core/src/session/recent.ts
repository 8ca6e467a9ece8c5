/**
 * The guard of every sensitive route (unlinking, adding or removing a passkey, second-factor
 * changes, account changes): the request's session, only when its user authenticated recently
 * enough; otherwise the answer that sends the browser to sign in, or to prove it is still them.
 */
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

/** The re-authentication page for `callbackUrl`: `{origin}{basePath}/reauth?callbackUrl=...`. */
export function reauthUrl(context: RequestContext, callbackUrl: string | undefined): string {
  const url = new URL(`${context.config.basePath}/reauth`, context.origin)
  url.searchParams.set("callbackUrl", callbackUrl ?? context.origin)
  return url.href
}

/**
 * The request's session when its user authenticated within `maxAge` seconds at `level`; else the
 * refusal: a fetch gets `401 { error: "SessionRequired", url }` (no session) or `403 { error:
 * "ReauthRequired", url }`, a form post `303` to `url` (the sign-in page, or the re-authentication
 * page with `callbackUrl`). It reads the internal assurance, never what a callback returned.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1, 7.5.3 (re-authentication before sensitive changes)
 */
export async function requireRecentSession(context: RequestContext, options: RecentAuthOptions = {}): Promise<RecentSession> {
  const current = await readSession(context)
  if (current === null || current.userId === undefined) {
    const url = signInPageUrl(context, { callbackUrl: options.callbackUrl })
    return { ok: false, error: "SessionRequired", response: refuse(context, "SessionRequired", url, 401) }
  }
  const maxAge = options.maxAge ?? context.config.session.reauthAge
  if (!isRecentAuth(current.assurance, { maxAge, level: options.level }, Math.floor(Date.now() / 1000))) {
    return { ok: false, error: "ReauthRequired", response: refuse(context, "ReauthRequired", reauthUrl(context, options.callbackUrl), 403) }
  }
  return { ok: true, current: { ...current, userId: current.userId } }
}

function refuse(context: RequestContext, error: string, url: string, status: number): Response {
  const { request } = context
  const accept = request.headers.get("accept") ?? ""
  const fetched = request.headers.get("x-auth-return-redirect") === "1" || (accept.includes("application/json") && !accept.includes("text/html"))
  return fetched ? json(context, { error, url }, status) : redirect(context, url, 303)
}
