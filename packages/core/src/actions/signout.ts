import { resolveCallbackUrl } from "../callback-url.js"
import { html, readForm, redirect } from "../context.js"
import type { RequestContext } from "../internal.js"
import { csrfToken, verifyCsrf } from "../csrf.js"
import { endSession } from "../session/index.js"

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

/** `POST /signout`: CSRF-checked; ends the session and redirects to `callbackUrl`. */
export async function signOut(context: RequestContext): Promise<Response> {
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  await endSession(context)
  return redirect(context, await resolveCallbackUrl(context, form.get("callbackUrl")))
}
