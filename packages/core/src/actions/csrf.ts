import { json, type RequestContext } from "../context.js"
import { csrfToken } from "../csrf.js"

/** `GET /csrf`: this browser's CSRF token, setting its cookie when there is none. */
export async function csrf(context: RequestContext): Promise<Response> {
  return json(context, { csrfToken: await csrfToken(context) })
}
