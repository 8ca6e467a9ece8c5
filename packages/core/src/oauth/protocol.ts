/**
 * The protocol half of the OAuth 2.0 / OpenID Connect flow: `POST /signin/:id` sends the browser
 * to the provider's authorization endpoint; the provider sends it back to `/callback/:id`, where
 * the code is exchanged and the account signed in. Apart from the flow's description (`flow.ts`)
 * so that an app loads it, and `oauth4webapi` with it, on its first sign-in rather than on its
 * first session read.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749 OAuth 2.0
 * @see https://openid.net/specs/openid-connect-core-1_0.html
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import { rememberCallbackUrl, rememberedCallbackUrl } from "../http/outbound-urls.js"
import { readForm, redirect } from "../http/context.js"
import { serializeCookie } from "../http/cookies.js"
import { browserBinding } from "../http/csrf.js"
import { InvalidCheck } from "../errors/flow-errors.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { isAllowedOrigin, isLoopbackOrigin } from "../http/origins.js"
import { isLocalOrigin, publicOrigin } from "../http/outbound-urls.js"
import { callbackUrl } from "../http/routes.js"
import { outboundCallbackUrl } from "../http/outbound-urls.js"
import { auditAs } from "../audit/audit.js"
import { recentIfSignedIn } from "../session/recent.js"
import { signInAccount } from "../sign-in/sign-in.js"
import { createAuthorizationUrl } from "./authorize.js"
import { checkFreshLogin, validateCallback } from "./callback.js"
import { clearChecks, stateOrigin } from "./checks.js"
import type { InternalOAuthProvider } from "./provider.js"

type Provider = FlowProvider<InternalOAuthProvider>

/** `POST /signin/:id`: the browser goes to the authorization endpoint, with the checks sealed in its cookies. */
export async function signIn(context: RequestContext, { options: provider }: Provider, request: { callbackUrl: string; query?: URLSearchParams }): Promise<Response> {
  rememberCallbackUrl(context, request.callbackUrl)
  const redirectUri = outboundCallbackUrl(context, provider.id, "An OAuth `redirect_uri`", provider.redirectProxyUrl)
  // The CSRF check just passed, so the browser holds a valid CSRF cookie to bind the flow to.
  const browser = (await browserBinding(context)) ?? ""
  // Only a flow started while signed in may link its account to that user (read only when linking can happen),
  // and only one who authenticated recently: asked before the browser leaves. A re-authentication is
  // bound to the user it proves again (whose session is stale by design), and to when it started.
  const { reauth } = context
  let userId = reauth?.userId
  if (reauth === undefined && context.config.adapter !== undefined) {
    const signedIn = await recentIfSignedIn(context, { callbackUrl: request.callbackUrl })
    if (signedIn?.ok === false) return signedIn.response
    userId = signedIn?.current.userId
  }
  const extraParams = new URLSearchParams(request.query ?? new URLSearchParams())
  if (reauth !== undefined) {
    // A fresh login, whatever the provider's own session: OpenID Connect Core 3.1.2.1.
    extraParams.set("prompt", "login")
    if (provider.reauth === "oidc") extraParams.set("max_age", "0")
  }
  // A redirect proxy sends the callback back to this origin: it must be one the app configured.
  const origin = provider.redirectProxyUrl === undefined ? context.origin : publicOrigin(context.config.origins, context.origin, context.url, "A sign-in through `redirectProxyUrl`")
  const { url, cookies } = await createAuthorizationUrl(provider, {
    redirectUri,
    secrets: context.config.secrets,
    cookies: context.cookies,
    binding: userId === undefined ? { origin, browser } : reauth === undefined ? { origin, browser, userId } : { origin, browser, userId, reauthAt: reauth.at },
    extraParams,
  })
  context.setCookies.push(...cookies)
  return redirect(context, url.href)
}

/**
 * On the stable deployment behind `redirectProxyUrl`, a callback for a sign-in started on
 * another origin (sealed in `state`) is sent back there unprocessed, if the app admits it.
 *
 * @throws {InvalidCheck} when the sign-in started on an origin the app does not admit.
 */
async function forwardProxied(context: RequestContext, provider: InternalOAuthProvider, params: URLSearchParams): Promise<Response | undefined> {
  if (provider.redirectProxyUrl === undefined) return undefined
  const origin = await stateOrigin(context.config.secrets, params.get("state"))
  if (origin === undefined || origin === context.origin) return undefined
  if (!isAllowedOrigin(context.config.origins, origin) && !(isLoopbackOrigin(origin) && isLocalOrigin(context.origin, context.url))) {
    throw new InvalidCheck(`The sign-in started on ${origin}, which is not one of \`allowedOrigins\`: its callback is not forwarded there.`)
  }
  const target = new URL(`${context.config.basePath}/callback/${encodeURIComponent(provider.id)}`, origin)
  target.search = params.toString()
  return redirect(context, target.href)
}

/**
 * A `response_mode=form_post` callback is a cross-site POST, on which browsers withhold our
 * SameSite=Lax check cookies. Answering 303 turns it into a top-level GET of the same callback,
 * which carries them; the parameters are then checked as usual.
 */
function relayCrossSitePost(context: RequestContext, provider: InternalOAuthProvider, params: URLSearchParams): Response | undefined {
  if (context.request.method !== "POST") return undefined
  const { state, pkceCodeVerifier, nonce } = context.cookies
  if ([state, pkceCodeVerifier, nonce].some((cookie) => context.jar.has(cookie.name))) return undefined
  const target = new URL(callbackUrl(context, provider.id))
  target.search = params.toString()
  return new Response(null, { status: 303, headers: { location: target.href, "cache-control": "private, no-cache, no-store" } })
}

/** `GET|POST /callback/:id`: the provider's answer checked against this browser's sealed checks, then the account signed in. */
export async function callback(context: RequestContext, { options: provider }: Provider): Promise<Response> {
  const { config } = context
  const params = context.request.method === "POST" ? await readForm(context.request) : new URLSearchParams(context.url.searchParams)

  const forwarded = await forwardProxied(context, provider, params)
  if (forwarded !== undefined) return forwarded
  const relayed = relayCrossSitePost(context, provider, params)
  if (relayed !== undefined) return relayed

  context.setCookies.push(...clearChecks(context.cookies, context.jar))
  const remembered = rememberedCallbackUrl(context)
  if (remembered !== undefined) context.returnTo = await resolveCallbackUrl(context, remembered)
  const result = await validateCallback(provider, {
    params,
    jar: context.jar,
    cookies: context.cookies,
    secrets: config.secrets,
    redirectUri: outboundCallbackUrl(context, provider.id, "An OAuth `redirect_uri`", provider.redirectProxyUrl),
    origin: context.origin,
    browser: await browserBinding(context),
    sensitive: context.sensitive,
  })

  // A provider trusted for its own multi-factor login proves the second factor too (`trustProviderMfa`).
  const methods = result.providerMfa ? ["fed", "mfa"] : ["fed"]
  if (result.reauthAt !== undefined && result.startedBy !== undefined) {
    // A re-authentication links, creates and remembers nothing: it proves the account's owner again.
    auditAs(context, "reauth", provider.id)
    if (provider.reauth === "oidc") checkFreshLogin(provider, result.authTime, result.reauthAt)
    const target = context.returnTo ?? (await resolveCallbackUrl(context, undefined))
    return (await import("../reauth/ending.js")).finishReauth(context, { provider: provider.id, startedBy: result.startedBy, proves: { account: result.account }, methods }, target)
  }
  const response = await signInAccount(context, { ...result, methods }, provider.allowDangerousEmailAccountLinking)
  if (provider.endSessionOnSignOut) {
    // Kept for the sign-out at the provider: only once the sign-in succeeded, on its own answer.
    const queued = context.setCookies.length
    await (await import("./end-session.js")).rememberIdToken(context, provider, result.tokens.id_token)
    for (const cookie of context.setCookies.slice(queued)) response.headers.append("set-cookie", serializeCookie(cookie))
  }
  return response
}
