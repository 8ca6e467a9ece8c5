/**
 * `@portcullis/core/sessions`: the signed-in user's sessions from server code. `listSessions` and
 * `revokeSessions` answer what `GET {basePath}/sessions` and `POST {basePath}/sessions/revoke`
 * answer, without the HTTP round trip (and without the CSRF check: call `revokeSessions` only from
 * code the framework protects against cross-site posts); `revokeUserSessions` ends every session
 * of any user, for an app's admin or account-deletion code. They need an adapter that keeps
 * session records (`@portcullis/adapter-memory`, `@portcullis/adapter-pg`).
 *
 * An entry of its own, so that an app that never lists sessions bundles none of it.
 *
 * @module sessions
 */
import { listSessionsOf, revokeSessionsOf, revokeTarget, type RevokeResult, type RevokeTarget, type SessionInfo } from "./actions/sessions.js"
import { keepsSessionRecords } from "./adapters.js"
import { auditFailure, auditWithoutRequest } from "./audit/trail.js"
import { resolveConfig } from "./config/config.js"
import { createContext } from "./http/context.js"
import { serializeCookie } from "./http/cookies.js"
import { AuthError, Configuration } from "./errors/errors.js"
import { httpStatus } from "./errors/errors.js"
import type { InternalConfig, RequestContext, SetCookieSink } from "./internal.js"
import { revokeUserRecords } from "./session/records.js"
import type { AuthConfig } from "./types.js"

export type { RevokeResult, RevokeTarget, SessionInfo } from "./actions/sessions.js"

/**
 * Runs `work` on a context for `request` and hands its cookies to `setCookie`; a failure caused
 * by the request (an untrusted host) is logged and answers `null`, one of the server's own is
 * thrown. Either is the failure of the operation under way in the audit trail, as `Auth()` sends it.
 */
async function forRequest<T>(request: Request, config: AuthConfig, setCookie: SetCookieSink | undefined, work: (context: RequestContext) => Promise<T | null>): Promise<T | null> {
  const internal = await resolveConfig(config)
  let context: RequestContext | undefined
  try {
    context = createContext(internal, request, new URL(request.url))
    context.serverCall = true
    const answer = await work(context)
    if (setCookie !== undefined) for (const cookie of context.setCookies) setCookie(serializeCookie(cookie))
    return answer
  } catch (thrown) {
    const error = thrown instanceof AuthError ? thrown : new Configuration("An unexpected error occurred while reading the sessions.", { cause: thrown })
    if (context?.audit !== undefined) await auditFailure(context, (await import("./http/failures.js")).auditReasonOf(error))
    if (httpStatus(error.code) >= 500) throw error
    internal.logger.error(error)
    return null
  }
}

/**
 * The request's user's live sessions (the asking one first, marked `current`), as `GET
 * {basePath}/sessions` answers them; `null` when the request has no session.
 *
 * @param setCookie Receives each `Set-Cookie` the read sets (a slid session), as `getSessionForResponse` does.
 * @throws {Configuration} when the adapter keeps no session records.
 * @throws {AdapterError} when the store fails.
 * @example
 * ```ts
 * import { listSessions } from "@portcullis/core/sessions"
 *
 * const sessions = await listSessions(request, config)
 * for (const session of sessions ?? []) console.log(session.device, session.lastSeenAt, session.current)
 * ```
 */
export function listSessions(request: Request, config: AuthConfig, setCookie?: SetCookieSink): Promise<SessionInfo[] | null> {
  return forRequest(request, config, setCookie, listSessionsOf)
}

/**
 * Ends the request's user's sessions: `{ id }` one of them (`revoked: 0` for an id that is not
 * one of the user's live sessions, whosever it is), `{ others: true }` every one but the asking
 * session, `{ all: true }` all of them and signs out here as `signOut` does (the answer's `url`
 * is where to send the browser; `redirectTo` is checked as a `callbackUrl` is). Each ended
 * session sends `sessionRevoked`. The CSRF token is not checked: call it only from code the
 * framework protects against cross-site posts, and hand every cookie to `setCookie` (ending the
 * asking session clears its cookie).
 *
 * @returns `null` when the request has no session.
 * @throws {UnknownAction} when `target` is not one of the three forms.
 * @throws {Configuration} when the adapter keeps no session records.
 * @throws {AdapterError} when the store fails.
 * @example
 * ```ts
 * const result = await revokeSessions(request, config, { others: true }, (cookie) => headers.append("set-cookie", cookie))
 * ```
 */
export async function revokeSessions(request: Request, config: AuthConfig, target: RevokeTarget, setCookie?: SetCookieSink, options: { redirectTo?: string } = {}): Promise<RevokeResult | null> {
  const checked = revokeTarget(target)
  return forRequest(request, config, setCookie, (context) => revokeSessionsOf(context, checked, options.redirectTo))
}

/**
 * Ends every session of user `userId`, from anywhere (an admin page, account deletion): database
 * sessions at once, JWT sessions within `session.revocationCheckInterval` on every instance, and
 * (while `legacySessionCookies` is read) the sessions from before the switch that have not been
 * read since. Each recorded one sends `sessionRevoked` with reason `"admin"`, and the whole one
 * `sessionRevoke` audit event (reason `"admin"`, or the failure's). Answers how many live
 * recorded sessions it ended.
 *
 * @throws {Configuration} when the adapter keeps no session records.
 * @throws {AdapterError} when the store fails.
 * @example
 * ```ts
 * await revokeUserSessions(config, user.id)
 * ```
 */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<number> {
  const internal: InternalConfig = await resolveConfig(config)
  const adapter = internal.adapter
  if (!keepsSessionRecords(adapter)) throw new Configuration("revokeUserSessions needs an adapter that keeps session records (@portcullis/adapter-memory and @portcullis/adapter-pg have them).")
  if (typeof userId !== "string" || userId === "") return 0
  let revoked: number
  try {
    revoked = await revokeUserRecords(internal, userId, "admin")
  } catch (error) {
    await auditWithoutRequest(internal, "sessionRevoke", "failure", error instanceof AuthError ? (await import("./http/failures.js")).auditReasonOf(error) : "storeError", userId)
    throw error
  }
  await auditWithoutRequest(internal, "sessionRevoke", "success", "admin", userId)
  return revoked
}
