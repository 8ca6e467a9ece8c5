import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, readForm, redirect } from "../http/context.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { InvalidProvider } from "../errors/errors.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { otherLoopbackOrigin } from "../http/origins.js"
import type { PageProvider, SignInOrigins } from "../pages/index.js"
import { callbackUrl, signInPageUrl, signInUrl } from "../http/routes.js"
import { readSession } from "../session/index.js"

/** Where a provider's sign-in form posts: its callback when the form is the sign-in (credentials), else `/signin/:id`. */
export function formAction(context: RequestContext, provider: FlowProvider): string {
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

/**
 * `POST /signin/:id`: CSRF-checked, then started by the provider's flow (to the OAuth provider's
 * authorization URL, a sign-in link sent, ...). Query parameters other than `callbackUrl` go to
 * the flow (an OAuth flow adds them to the authorization URL).
 *
 * @throws {InvalidProvider} when no provider has the id.
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 */
export async function signIn(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  if (provider === undefined) throw new InvalidProvider(`No provider has the id "${providerId}".`)
  const form = await readForm(context.request)
  const query = new URLSearchParams(context.url.searchParams)
  const requested = form.get("callbackUrl") ?? query.get("callbackUrl")
  try {
    await verifyCsrf(context, form.get("csrfToken"), form.get("openedAt"))
  } catch (error) {
    // The sign-in page it sends the browser back to keeps the requested page (a safe same-app URL only).
    if (requested !== null) context.returnTo = await resolveCallbackUrl(context, requested)
    throw error
  }

  const target = await resolveCallbackUrl(context, requested)
  if (requested !== null) context.returnTo = target
  query.delete("callbackUrl")
  return provider.flow.signIn(context, provider, { form, callbackUrl: target, query })
}
