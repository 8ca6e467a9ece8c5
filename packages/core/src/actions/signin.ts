import { rememberCallbackUrl, resolveCallbackUrl } from "../callback-url.js"
import { html, readForm, redirect, type RequestContext } from "../context.js"
import { csrfToken, verifyCsrf } from "../csrf.js"
import { InvalidProvider, isAuthErrorCode } from "../errors.js"
import { createAuthorizationUrl } from "../oauth/authorize.js"
import { renderSignIn } from "../pages/index.js"
import { callbackUrl, signInPageUrl, signInUrl } from "../routes.js"

/** `GET /signin`: the sign-in page (or a redirect to the app's own). */
export async function signInPage(context: RequestContext): Promise<Response> {
  const { pages, theme, providers } = context.config
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const target = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  const error = query.get("error")
  if (pages.signIn !== undefined) {
    return redirect(context, signInPageUrl(context, { callbackUrl: target, error: isAuthErrorCode(error) ? error : undefined }))
  }
  const page = renderSignIn({
    theme,
    providers: providers.map((provider) => ({
      id: provider.id,
      name: provider.name,
      signinUrl: signInUrl(context, provider.id),
      style: provider.style,
    })),
    csrfToken: await csrfToken(context),
    callbackUrl: target,
    error: isAuthErrorCode(error) ? error : undefined,
  })
  return html(context, page)
}

/** `POST /signin/:id`: CSRF-checked; sends the browser to the provider's authorization URL. */
export async function signIn(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  if (provider === undefined) throw new InvalidProvider(`No provider has the id "${providerId}".`)
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))

  const query = new URLSearchParams(context.url.searchParams)
  const target = await resolveCallbackUrl(context, form.get("callbackUrl") ?? query.get("callbackUrl"))
  query.delete("callbackUrl")
  rememberCallbackUrl(context, target)

  const { url, cookies } = await createAuthorizationUrl(provider, {
    redirectUri: callbackUrl(context, provider.id, provider.redirectProxyUrl),
    secrets: context.config.secrets,
    cookies: context.cookies,
    proxiedFrom: provider.redirectProxyUrl === undefined ? undefined : context.origin,
    extraParams: query,
  })
  context.setCookies.push(...cookies)
  return redirect(context, url.href)
}
