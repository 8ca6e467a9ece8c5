import { json, type RequestContext } from "../context.js"
import { readSession } from "../session/index.js"
import type { Session } from "../types.js"

/**
 * The session a request carries, or `null`; a renewal or a clearing is queued on
 * `context.setCookies`. The one read shared by `GET /session` and server-side `getSession`.
 */
export async function currentSession(context: RequestContext): Promise<Session | null> {
  const current = await readSession(context)
  return current?.session ?? null
}

/** `GET /session`: the session as JSON, or `null`. */
export async function session(context: RequestContext): Promise<Response> {
  return json(context, await currentSession(context))
}
