import { html, type RequestContext } from "../context.js"
import { isAuthErrorCode, type AuthErrorCode } from "../errors.js"
import { renderError } from "../pages/index.js"
import { signInPageUrl } from "../routes.js"

const STATUS: Partial<Record<AuthErrorCode, number>> = {
  Configuration: 503,
  MissingSecret: 503,
  UntrustedHost: 400,
  AccessDenied: 403,
  Verification: 403,
}

/** `GET /error?error=CODE`: the error page; an unknown code shows a generic sentence. */
export function error(context: RequestContext): Response {
  const requested = context.url.searchParams.get("error")
  const code = isAuthErrorCode(requested) ? requested : undefined
  const page = renderError({ theme: context.config.theme, code, homeUrl: context.origin, signinUrl: signInPageUrl(context) })
  return html(context, page, code === undefined ? 400 : (STATUS[code] ?? 400))
}
