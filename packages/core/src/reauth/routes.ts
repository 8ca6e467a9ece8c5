/**
 * The `reauth/` room: proving it is still the signed-in user (issue 38): the page at
 * `{basePath}/reauth` that offers this user's ways back in, and the endings that raise the same
 * session's assurance instead of starting a new one. Loaded by `import()` from `Auth()`'s route
 * table on first use.
 *
 * Until re-authentication lands, the page answers as an unknown route does.
 */
import { notFound } from "../http/failures.js"
import type { RequestContext } from "../internal.js"

/** Answers a request to `{basePath}/reauth`. */
export async function reauthRoute(context: RequestContext, _method: "GET" | "POST", _sub: string): Promise<Response> {
  return notFound(context.request, context.url, context.config)
}
