import { html } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { httpStatus } from "../errors/errors.js"
import { signInPageUrl } from "../http/routes.js"

/** `GET /error?error=CODE`: the error page; an unknown code shows a generic sentence. */
export async function error(context: RequestContext): Promise<Response> {
  const { renderError } = await import("../pages/index.js")
  const { isAuthErrorCode } = await import("../errors/error-messages.js")
  const requested = context.url.searchParams.get("error")
  const code = isAuthErrorCode(requested) ? requested : undefined
  const page = renderError({ theme: context.config.theme, code, homeUrl: context.origin, signinUrl: signInPageUrl(context) })
  return html(context, page, code === undefined ? 400 : httpStatus(code))
}
