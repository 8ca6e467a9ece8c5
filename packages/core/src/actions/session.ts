import { json, readFields } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { verifyCsrf } from "../http/csrf.js"
import { UnknownAction } from "../errors/errors.js"
import { readSession, type SessionUpdate } from "../session/index.js"
import type { Session } from "../types.js"

/**
 * The session a request carries, or `null`; a renewal or a clearing is queued on
 * `context.setCookies`. The one read shared by `GET /session`, `POST /session` and server-side
 * `getSession`.
 */
export async function currentSession(context: RequestContext, update?: SessionUpdate): Promise<Session | null> {
  const current = await readSession(context, update)
  return current?.session ?? null
}

/** `GET /session`: the session as JSON, or `null`. */
export async function session(context: RequestContext): Promise<Response> {
  return json(context, await currentSession(context))
}

/**
 * `POST /session`, CSRF-checked: the client's `update(data)` (Auth.js's `useSession().update`,
 * next-auth's `unstable_update`). The callbacks get `trigger: "update"` and `data` (a JSON
 * object body `{ csrfToken, data }`, or a form whose `data` field is JSON); the answer is the
 * updated session.
 *
 * @throws {MissingCSRF} when the CSRF token does not check out.
 * @throws {UnknownAction} when `data` is not JSON.
 */
export async function updateSession(context: RequestContext): Promise<Response> {
  const { csrfToken, data } = await readUpdate(context.request)
  await verifyCsrf(context, csrfToken)
  return json(context, await currentSession(context, { data }))
}

async function readUpdate(request: Request): Promise<{ csrfToken: string | null; data: unknown }> {
  const fields = await readFields(request)
  if (!(fields instanceof URLSearchParams)) {
    // A JSON body: `data` is the JSON value it is.
    return { csrfToken: typeof fields.csrfToken === "string" ? fields.csrfToken : null, data: fields.data }
  }
  const raw = fields.get("data")
  if (raw === null) return { csrfToken: fields.get("csrfToken"), data: undefined }
  try {
    return { csrfToken: fields.get("csrfToken"), data: JSON.parse(raw) as unknown }
  } catch (cause) {
    throw new UnknownAction("The session update's `data` field is not valid JSON.", { cause })
  }
}
