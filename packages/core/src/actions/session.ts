import { json, type RequestContext } from "../context.js"
import { readSession } from "../session/index.js"

/** `GET /session`: the session as JSON, or `null`. */
export async function session(context: RequestContext): Promise<Response> {
  const current = await readSession(context)
  return json(context, current?.session ?? null)
}
