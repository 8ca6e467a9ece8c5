import { findUser, resolveUser } from "../accounts.js"
import type { AdapterUser } from "../adapters.js"
import { rememberedCallbackUrl, resolveCallbackUrl } from "../callback-url.js"
import { clearCookie } from "../cookies.js"
import { readForm, redirect, type RequestContext } from "../context.js"
import { AccessDenied, CallbackRouteError, InvalidProvider } from "../errors.js"
import { emit } from "../events.js"
import { validateCallback } from "../oauth/callback.js"
import { clearChecks, proxiedOrigin } from "../oauth/checks.js"
import type { InternalOAuthProvider } from "../oauth/provider.js"
import type { User } from "../providers/index.js"
import { callbackUrl } from "../routes.js"
import { readSession, startSession } from "../session/index.js"

/**
 * On the stable deployment behind `redirectProxyUrl`, a callback for a sign-in started on
 * another origin (sealed in `state`) is sent back there unprocessed.
 */
async function forwardProxied(context: RequestContext, provider: InternalOAuthProvider, params: URLSearchParams): Promise<Response | undefined> {
  if (provider.redirectProxyUrl === undefined) return undefined
  const origin = await proxiedOrigin(context.config.secrets, params.get("state"))
  if (origin === undefined || origin === context.origin) return undefined
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

async function askSignIn(context: RequestContext, params: Parameters<NonNullable<RequestContext["config"]["callbacks"]["signIn"]>>[0]): Promise<string | undefined> {
  const callback = context.config.callbacks.signIn
  if (callback === undefined) return undefined
  let answer: boolean | string
  try {
    answer = await callback(params)
  } catch (cause) {
    throw new CallbackRouteError("The `signIn` callback threw.", { cause })
  }
  if (answer === true) return undefined
  if (typeof answer === "string") return resolveCallbackUrl(context, answer)
  throw new AccessDenied("The `signIn` callback refused this sign-in.")
}

/** `GET|POST /callback/:id`: completes an OAuth sign-in and starts the session. */
export async function callback(context: RequestContext, providerId: string): Promise<Response> {
  const { config } = context
  const provider = config.providersById.get(providerId)
  if (provider === undefined) throw new InvalidProvider(`No provider has the id "${providerId}".`)
  const params = context.request.method === "POST" ? await readForm(context.request) : new URLSearchParams(context.url.searchParams)

  const forwarded = await forwardProxied(context, provider, params)
  if (forwarded !== undefined) return forwarded
  const relayed = relayCrossSitePost(context, provider, params)
  if (relayed !== undefined) return relayed

  context.setCookies.push(...clearChecks(context.cookies, context.jar))
  const result = await validateCallback(provider, {
    params,
    jar: context.jar,
    cookies: context.cookies,
    secrets: config.secrets,
    redirectUri: callbackUrl(context, provider.id, provider.redirectProxyUrl),
  })

  const adapter = config.adapter
  let user: User & { id: string } = result.user
  let stored: AdapterUser | null = null
  let isNewUser = false
  const known = adapter === undefined ? undefined : await findUser(adapter, result.account)
  if (known?.accountUser != null) stored = known.accountUser

  const redirectTo = await askSignIn(context, { user: stored ?? user, account: result.account, profile: result.profile })
  if (redirectTo !== undefined) return redirect(context, redirectTo)

  if (adapter !== undefined && known !== undefined) {
    const current = await readSession(context)
    const resolved = await resolveUser(config, adapter, {
      known,
      profileUser: result.user,
      account: result.account,
      profile: result.profile,
      allowEmailLinking: provider.allowDangerousEmailAccountLinking,
      signedInUserId: current?.userId,
    })
    user = resolved.user
    isNewUser = resolved.isNewUser
  }

  await startSession(context, { user, account: result.account, profile: result.profile, isNewUser })
  await emit(config, "signIn", { user, account: result.account, profile: result.profile, isNewUser })

  const target = await resolveCallbackUrl(context, rememberedCallbackUrl(context))
  if (context.jar.has(context.cookies.callbackUrl.name)) context.setCookies.push(clearCookie(context.cookies.callbackUrl))
  if (isNewUser && config.pages.newUser !== undefined) {
    return redirect(context, await resolveCallbackUrl(context, `${config.pages.newUser}${config.pages.newUser.includes("?") ? "&" : "?"}callbackUrl=${encodeURIComponent(target)}`))
  }
  return redirect(context, target)
}
