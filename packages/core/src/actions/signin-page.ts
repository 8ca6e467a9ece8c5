/**
 * `GET /signin`: the default sign-in page, or a redirect to the app's own. Fetched when the page
 * is asked for, as the page's markup is: an app's ordinary requests (a session read, a sign-in
 * started from its own page) never load it.
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, redirect } from "../http/context.js"
import { csrfToken } from "../http/csrf.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { otherLoopbackOrigin } from "../http/other-loopback.js"
import type { PageProvider, SignInOrigins } from "../pages/index.js"
import { callbackUrl, signInPageUrl, signInUrl } from "../http/routes.js"
import { readSession } from "../session/index.js"

/** Where a provider's sign-in form posts: its callback when the form is the sign-in (credentials), else `/signin/:id`. */
function formAction(context: RequestContext, provider: FlowProvider): string {
  return provider.flow.postsTo === "callback" ? callbackUrl(context, provider.id) : signInUrl(context, provider.id)
}

/**
 * The page's word on another loopback name than the app's (`127.0.0.1` while `AUTH_URL` says
 * `localhost`): this page was opened there (its forms will fail), or the form before it was
 * (`openedAt` after a `MissingCSRF`, described only if it is such a name). The link offered is
 * built from the app's origin, never from the request.
 */
function otherOrigin(context: RequestContext, shown: string | undefined, target: string | undefined): SignInOrigins | undefined {
  const { origins } = context.config
  const here = otherLoopbackOrigin(origins, context.origin, context.url.origin)
  if (here !== undefined) return { app: context.origin, openedAt: here, here: true, signInUrl: signInPageUrl(context, { callbackUrl: target }) }
  const before = shown === "MissingCSRF" ? otherLoopbackOrigin(origins, context.origin, context.url.searchParams.get("openedAt")) : undefined
  return before === undefined ? undefined : { app: context.origin, openedAt: before, here: false }
}

/** `GET /signin`: the sign-in page (or a redirect to the app's own). */
export async function signInPage(context: RequestContext): Promise<Response> {
  const { pages, theme, providers } = context.config
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const target = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  const error = query.get("error")
  // The list of codes comes with their sentences, loaded only when a code is to be checked.
  const shown = error !== null && (await import("../errors/error-messages.js")).isAuthErrorCode(error) ? error : undefined
  if (pages.signIn !== undefined) {
    return redirect(context, signInPageUrl(context, { callbackUrl: target, error: shown, code: query.get("code") ?? undefined, openedAt: query.get("openedAt") ?? undefined }))
  }
  const token = await csrfToken(context)
  const drawn: PageProvider[] = []
  for (const provider of providers) {
    const entry = await provider.flow.draw?.(context, provider, { refused: shown === "CredentialsSignin" })
    if (entry !== undefined) drawn.push({ ...entry, id: provider.id, name: provider.name, action: formAction(context, provider), style: provider.style })
  }
  // Someone signed in may be here to link another account: the forms stay, the page says who it is.
  const current = await readSession(context)
  const signedIn = current === null ? undefined : { user: current.session.user ?? {}, signOutUrl: `${context.authUrl}/signout?${new URLSearchParams({ callbackUrl: signInPageUrl(context, { callbackUrl: target }) }).toString()}` }
  // The default pages are fetched when one is served: an app on its own pages never loads them.
  const { renderSignIn } = await import("../pages/index.js")
  let response = html(
    context,
    renderSignIn({ theme, homeUrl: context.origin, providers: drawn, csrfToken: token, callbackUrl: target, error: shown, origins: otherOrigin(context, shown, target), signedIn }),
  )
  for (const provider of providers) {
    if (provider.flow.page) response = await provider.flow.page(context, provider, response, { csrfToken: token, callbackUrl: target })
  }
  return response
}
