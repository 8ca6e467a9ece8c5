/**
 * Server-side session reads: the `GET /session` read, for code that renders its own response.
 */
import { currentSession } from "../actions/session.js"
import { resolveConfig } from "../config/config.js"
import { createContext } from "../http/context.js"
import { signInPageUrl } from "../http/routes.js"
import { serializeCookie } from "../http/cookies.js"
import { AuthError, Configuration } from "../errors/errors.js"
import { httpStatus } from "../errors/errors.js"
import type { InternalConfig, RequestContext, SetCookieSink } from "../internal.js"
import type { AuthConfig, Session } from "../types.js"
import type { RecentAuth, RecentAuthCheck } from "./recent-auth.js"

export type { RecentAuth, RecentAuthCheck } from "./recent-auth.js"

export type { SetCookieSink } from "../internal.js"

/**
 * Reads the request's session for a server that is answering that request, and hands every
 * cookie the read sets (a slid expiry, a re-sealed token, a cleared bad cookie) to `setCookie`,
 * one header value per call, before it resolves.
 *
 * This is the function an integration builds its `getSession` on. The sink is a required
 * argument, not a field of the result, on purpose: a result such as `{ session, setCookie }`
 * lets a caller take `session` and drop the rest, and sessions would then silently stop
 * rolling. Here the session cannot be had without naming where the cookies go, so forgetting
 * is a type error. The read is the very one `GET /session` does, with the same configuration
 * rules as `Auth()`: origin (`AUTH_URL`, `trustHost`), cookie names and session strategy.
 *
 * Never throws for what the request carries: a missing, forged, expired or unreadable session
 * cookie, or an untrusted or malformed host, gives `null` (and the bad cookie is cleared
 * through `setCookie`). Failures of the server's own set-up or store are thrown, so that an
 * outage is not mistaken for a signed-out user.
 *
 * @throws {Configuration} when the configuration is invalid (or something unexpected failed).
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 * @throws {AdapterError} when the adapter fails (database sessions).
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @example
 * ```ts
 * import { getSessionForResponse } from "@portcullis/core"
 *
 * async function page(request: Request): Promise<Response> {
 *   const headers = new Headers({ "content-type": "text/plain" })
 *   const session = await getSessionForResponse(request, config, (cookie) => headers.append("set-cookie", cookie))
 *   return new Response(session ? `Hello ${session.user?.name}` : "Signed out", { headers })
 * }
 * ```
 */
export function getSessionForResponse(request: Request, config: AuthConfig, setCookie: SetCookieSink): Promise<Session | null> {
  return readForResponse(request, config, setCookie, currentSession, () => null)
}

/**
 * Runs a session read for a server answering `request`, handing its cookies to `setCookie`; what
 * the request carries that cannot be read (a bad host, a failing callback the request caused) is
 * logged and answered with `unreadable`'s answer.
 *
 * @throws {AuthError} for the server's own faults (a `5xx` code).
 */
async function readForResponse<T>(
  request: Request,
  config: AuthConfig,
  setCookie: SetCookieSink,
  read: (context: RequestContext) => Promise<T>,
  unreadable: (internal: InternalConfig, context: RequestContext | undefined) => T,
): Promise<T> {
  const internal = await resolveConfig(config)
  let context: RequestContext | undefined
  try {
    context = createContext(internal, request, new URL(request.url))
    const answer = await read(context)
    for (const cookie of context.setCookies) setCookie(serializeCookie(cookie))
    return answer
  } catch (thrown) {
    const error = thrown instanceof AuthError ? thrown : new Configuration("An unexpected error occurred while reading the session.", { cause: thrown })
    // 503 is how Auth() marks the server's own fault; everything else was caused by the request.
    if (httpStatus(error.code) >= 500) throw error
    internal.logger.error(error)
    return unreadable(internal, context)
  }
}

/**
 * Reads the request's session on the server: the same answer as `GET /session`, without an
 * HTTP round trip. `null` when there is none, never a throw for what the request carries.
 *
 * It has no response to write to, so a renewal due on this read (a slid expiry) does not reach
 * the browser; the session then rolls only when the browser itself calls `GET /session`. A
 * server that answers the request should use {@link getSessionForResponse} (or its framework
 * package's `getSession`, built on it), which forwards the renewal.
 *
 * @throws {Configuration} when the configuration is invalid.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 * @throws {AdapterError} when the adapter fails (database sessions).
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @example
 * ```ts
 * import { getSession } from "@portcullis/core"
 *
 * const session = await getSession(request, config)
 * if (session === null) return Response.redirect(new URL("/api/auth/signin", request.url))
 * ```
 */
export function getSession(request: Request, config: AuthConfig): Promise<Session | null> {
  return getSessionForResponse(request, config, () => undefined)
}

/**
 * Guards an app's own sensitive page or action: the session when its user authenticated within
 * `maxAge` seconds (default `session.reauthAge`) at `level`, as core's own sensitive routes ask.
 * Otherwise `url` says where to send the browser: the sign-in page when there is no session; for
 * `level: 2` and a user with neither a second factor nor a passkey, `{basePath}/mfa/setup`; else
 * the re-authentication page, `{basePath}/reauth?callbackUrl=` (back to the page requested, or
 * `callbackUrl`). Cookies the read sets (a slid expiry) go to `setCookie`, as for
 * {@link getSessionForResponse}. Never throws for what the request carries.
 *
 * @throws {Configuration} when the configuration is invalid.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 * @throws {AdapterError} when the adapter fails.
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1 (re-authentication before sensitive changes)
 * @example
 * ```ts
 * const recent = await requireRecentAuthForResponse(request, config, (cookie) => headers.append("set-cookie", cookie), { level: 2 })
 * if (!recent.ok) return Response.redirect(recent.url, 303)
 * ```
 */
export function requireRecentAuthForResponse(request: Request, config: AuthConfig, setCookie: SetCookieSink, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  return readForResponse(
    request,
    config,
    setCookie,
    async (context) => (await import("./recent-auth.js")).recentAuth(context, options),
    // What the request carries is unreadable (or its host untrusted): as without a session.
    (internal, context) => ({ ok: false, url: context === undefined ? (internal.pages.signIn ?? `${internal.basePath}/signin`) : signInPageUrl(context, { callbackUrl: options.callbackUrl }) }),
  )
}

/**
 * {@link requireRecentAuthForResponse} for code with no response to set cookies on: a renewal due
 * on this read does not reach the browser.
 *
 * @throws {Configuration} when the configuration is invalid.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 * @throws {AdapterError} when the adapter fails.
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @example
 * ```ts
 * import { requireRecentAuth } from "@portcullis/core"
 *
 * const recent = await requireRecentAuth(request, config, { maxAge: 300 })
 * if (!recent.ok) return Response.redirect(recent.url, 303)
 * ```
 */
export function requireRecentAuth(request: Request, config: AuthConfig, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  return requireRecentAuthForResponse(request, config, () => undefined, options)
}
