/**
 * `GET /signout`: the default sign-out page, or a redirect to the app's own. Fetched when the
 * page is asked for, as its markup is: a sign-out posted from the app's own page never loads it.
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, redirect } from "../http/context.js"
import { csrfToken } from "../http/csrf.js"
import type { RequestContext } from "../internal.js"

/** `GET /signout`: the confirmation page (or the app's own). */
export async function signOutPage(context: RequestContext): Promise<Response> {
  const { pages, basePath, theme } = context.config
  if (pages.signOut !== undefined) return redirect(context, new URL(pages.signOut, context.origin).href)
  const requested = context.url.searchParams.get("callbackUrl")
  const { renderSignOut } = await import("../pages/index.js")
  const page = renderSignOut({
    theme,
    action: `${context.origin}${basePath}/signout`,
    csrfToken: await csrfToken(context),
    callbackUrl: requested === null ? undefined : await resolveCallbackUrl(context, requested),
    homeUrl: context.origin,
  })
  return html(context, page)
}
