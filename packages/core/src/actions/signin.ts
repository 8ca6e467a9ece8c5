import { rememberCallbackUrl, resolveCallbackUrl } from "../callback-url.js"
import { html, readForm, redirect, type RequestContext } from "../context.js"
import { browserBinding, csrfToken, verifyCsrf } from "../csrf.js"
import { InvalidProvider, isAuthErrorCode } from "../errors.js"
import { createAuthorizationUrl } from "../oauth/authorize.js"
import type { InternalOAuthProvider } from "../oauth/provider.js"
import type { PageProvider } from "../pages/index.js"
import { publicOrigin } from "../origins.js"
import { callbackUrl, outboundCallbackUrl, signInPageUrl, signInUrl } from "../routes.js"
import { readSession } from "../session/index.js"

/** `GET /signin`: the sign-in page (or a redirect to the app's own). */
export async function signInPage(context: RequestContext): Promise<Response> {
  const { pages, theme, providers } = context.config
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const target = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  const error = query.get("error")
  if (pages.signIn !== undefined) {
    return redirect(context, signInPageUrl(context, { callbackUrl: target, error: isAuthErrorCode(error) ? error : undefined, code: query.get("code") ?? undefined }))
  }
  const shown = isAuthErrorCode(error) ? error : undefined
  // Only a browser whose credentials form was just refused carries the cookie: the code that reads
  // it is fetched then, so an app without a credentials provider bundles none of it.
  const typed = context.jar.has(context.cookies.credentialsInput.name)
    ? (await import("../credentials/typed-fields.js")).takeTypedFields(context, shown === "CredentialsSignin")
    : undefined
  const token = await csrfToken(context)
  // The default pages are fetched when one is served: an app on its own pages never loads them.
  const { renderSignIn } = await import("../pages/index.js")
  const page = renderSignIn({
    theme,
    providers: providers.map(
      (provider): PageProvider => ({
        id: provider.id,
        name: provider.name,
        type: provider.type === "flow" ? provider.providerType : provider.type,
        // A credentials form goes straight to its callback; the others start at their sign-in route.
        action: provider.type === "credentials" ? callbackUrl(context, provider.id) : signInUrl(context, provider.id),
        style: provider.style,
        fields: provider.type === "credentials" ? provider.fields : undefined,
      }),
    ),
    csrfToken: token,
    callbackUrl: target,
    error: shown,
    typed,
  })
  let response = html(context, page)
  for (const provider of providers) {
    if (provider.type === "flow" && provider.flow.page) response = await provider.flow.page(context, provider, response, { csrfToken: token, callbackUrl: target })
  }
  return response
}

/**
 * `POST /signin/:id`: CSRF-checked; sends the browser to the OAuth provider's authorization
 * URL, or sends an email provider's sign-in link. A credentials form posts to its callback
 * instead: here it is answered with the sign-in page.
 */
export async function signIn(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  if (provider === undefined) throw new InvalidProvider(`No provider has the id "${providerId}".`)
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))

  const query = new URLSearchParams(context.url.searchParams)
  const requested = form.get("callbackUrl") ?? query.get("callbackUrl")
  const target = await resolveCallbackUrl(context, requested)
  if (requested !== null) context.returnTo = target
  query.delete("callbackUrl")
  switch (provider.type) {
    case "email": {
      // Fetched on first use: an app without an email provider never loads its code.
      const { sendSignInLink } = await import("../email/signin.js")
      return redirect(context, await sendSignInLink(context, provider, { form, callbackUrl: target }))
    }
    case "credentials":
      return redirect(context, signInPageUrl(context, { callbackUrl: target }))
    case "flow":
      return provider.flow.signIn(context, provider, { form, callbackUrl: target })
    default:
      return startOAuthSignIn(context, provider, target, query)
  }
}

async function startOAuthSignIn(context: RequestContext, provider: InternalOAuthProvider, target: string, query: URLSearchParams): Promise<Response> {
  rememberCallbackUrl(context, target)
  const redirectUri = outboundCallbackUrl(context, provider.id, "An OAuth `redirect_uri`", provider.redirectProxyUrl)
  // The CSRF check just passed, so the browser holds a valid CSRF cookie to bind the flow to.
  const browser = (await browserBinding(context)) ?? ""
  // Only a flow started while signed in may link its account to that user (read only when linking can happen).
  const userId = context.config.adapter === undefined ? undefined : (await readSession(context))?.userId
  // A redirect proxy sends the callback back to this origin: it must be one the app configured.
  const origin = provider.redirectProxyUrl === undefined ? context.origin : publicOrigin(context.config.origins, context.origin, context.url, "A sign-in through `redirectProxyUrl`")
  const { url, cookies } = await createAuthorizationUrl(provider, {
    redirectUri,
    secrets: context.config.secrets,
    cookies: context.cookies,
    binding: userId === undefined ? { origin, browser } : { origin, browser, userId },
    extraParams: query,
  })
  context.setCookies.push(...cookies)
  return redirect(context, url.href)
}
