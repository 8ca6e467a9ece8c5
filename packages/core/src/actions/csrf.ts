import { json } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { csrfToken } from "../http/csrf.js"

/** `GET /csrf`: this browser's CSRF token, setting its cookie when there is none. */
export async function csrf(context: RequestContext): Promise<Response> {
  return json(context, { csrfToken: await csrfToken(context) })
}
