/**
 * The signed-in user's sessions from Next.js code (core's `@portcullis/core/sessions`): the
 * request built from `headers()`, one call to core, its cookies handed to `cookies()`. Loaded on
 * first use, so an app that never lists sessions bundles none of it.
 */
import type { AuthConfig } from "@portcullis/core"
import { listSessions, revokeSessions, type RevokeResult, type RevokeTarget, type SessionInfo } from "@portcullis/core/sessions"
import { cookies, headers } from "next/headers.js"
import { canSetCookies, setCookies } from "./cookies.js"
import { requestFromHeaders } from "./request.js"

/** The request's user's sessions; a renewal found by the read is set where Next.js allows it. */
export async function sessionsFromContext(config: AuthConfig): Promise<SessionInfo[] | null> {
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const pending: string[] = []
  const sink = canSetCookies(store) ? (cookie: string) => pending.push(cookie) : undefined
  const sessions = await listSessions(requestFromHeaders(incoming, "/"), config, sink)
  if (pending.length > 0) setCookies(store, pending)
  return sessions
}

/** Ends the request's user's sessions (a server action or route handler: ending this one clears its cookie). */
export async function revokeFromContext(config: AuthConfig, target: RevokeTarget, redirectTo: string | undefined): Promise<RevokeResult | null> {
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const pending: string[] = []
  const result = await revokeSessions(requestFromHeaders(incoming, "/"), config, target, (cookie) => pending.push(cookie), { redirectTo })
  if (pending.length > 0) setCookies(store, pending)
  return result
}
