/**
 * The signed-in user's sessions for a request event (core's `@portcullis/core/sessions`), with
 * core's cookies handed to `event.cookies`. Loaded on first use: an app that never lists
 * sessions bundles none of it.
 */
import type { AuthConfig } from "@portcullis/core"
import { listSessions, revokeSessions, type RevokeResult, type RevokeTarget, type SessionInfo } from "@portcullis/core/sessions"
import type { RequestEvent } from "@sveltejs/kit"
import { setCookies } from "./cookies.js"

/** `event.locals.listSessions()`. */
export async function sessionsOf(event: RequestEvent, config: AuthConfig): Promise<SessionInfo[] | null> {
  const pending: string[] = []
  const sessions = await listSessions(event.request, config, (cookie) => pending.push(cookie))
  setCookies(event.cookies, pending)
  return sessions
}

/** `event.locals.revokeSessions()`: from a form action (ending this session clears its cookie). */
export async function revokeOf(event: RequestEvent, config: AuthConfig, target: RevokeTarget, redirectTo: string | undefined): Promise<RevokeResult | null> {
  const pending: string[] = []
  const result = await revokeSessions(event.request, config, target, (cookie) => pending.push(cookie), { redirectTo })
  setCookies(event.cookies, pending)
  return result
}
