/**
 * Server-side session reads: the `GET /session` read, for code that renders its own response.
 */
import { currentSession } from "../actions/session.js"
import { resolveConfig } from "../config/config.js"
import { createContext } from "../http/context.js"
import { serializeCookie } from "../http/cookies.js"
import { AuthError, Configuration } from "../errors/errors.js"
import { httpStatus } from "../errors/errors.js"
import type { SetCookieSink } from "../internal.js"
import type { AuthConfig, Session } from "../types.js"

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
export async function getSessionForResponse(request: Request, config: AuthConfig, setCookie: SetCookieSink): Promise<Session | null> {
  const internal = await resolveConfig(config)
  try {
    const context = createContext(internal, request, new URL(request.url))
    const session = await currentSession(context)
    for (const cookie of context.setCookies) setCookie(serializeCookie(cookie))
    return session
  } catch (thrown) {
    const error = thrown instanceof AuthError ? thrown : new Configuration("An unexpected error occurred while reading the session.", { cause: thrown })
    // 503 is how Auth() marks the server's own fault; everything else was caused by the request.
    if (httpStatus(error.code) >= 500) throw error
    internal.logger.error(error)
    return null
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
