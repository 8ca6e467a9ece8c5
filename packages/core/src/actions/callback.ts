import { askEmailSignIn, askSignIn, findUser, resolveEmailUser, resolveUser, storedCredentialsUser } from "../accounts.js"
import { rememberedCallbackUrl, resolveCallbackUrl } from "../callback-url.js"
import { clearCookie } from "../cookies.js"
import type { InternalProvider } from "../config.js"
import { readForm, redirect, type RequestContext } from "../context.js"
import { browserBinding, verifyCsrf } from "../csrf.js"
import { authorize, readCredentials } from "../credentials/authorize.js"
import type { InternalCredentialsProvider } from "../credentials/provider.js"
import { confirmationPage, verifySignInLink } from "../email/callback.js"
import type { InternalEmailProvider } from "../email/provider.js"
import { emailAdapter } from "../email/signin.js"
import { CredentialsSignin, InvalidCheck, InvalidProvider } from "../errors.js"
import { emit } from "../events.js"
import { validateCallback } from "../oauth/callback.js"
import { clearChecks, stateOrigin } from "../oauth/checks.js"
import type { InternalOAuthProvider } from "../oauth/provider.js"
import type { Account, Profile, User } from "../providers/index.js"
import { isAllowedOrigin, isLocalOrigin, isLoopbackOrigin } from "../origins.js"
import { callbackUrl, outboundCallbackUrl } from "../routes.js"
import { readSession, startSession, type SignedIn } from "../session/index.js"

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

/**
 * Every provider type ends the same way: the session started, the event sent, the browser sent
 * on. Flows (`SignInFlow`) end their callbacks here too.
 */
export async function finishSignIn(context: RequestContext, signedIn: SignedIn, target: string): Promise<Response> {
  const { config } = context
  await startSession(context, signedIn)
  await emit(config, "signIn", { user: signedIn.user, account: signedIn.account, profile: signedIn.profile, isNewUser: signedIn.isNewUser })
  if (context.jar.has(context.cookies.callbackUrl.name)) context.setCookies.push(clearCookie(context.cookies.callbackUrl))
  if (signedIn.isNewUser && config.pages.newUser !== undefined) {
    return redirect(context, await resolveCallbackUrl(context, `${config.pages.newUser}${config.pages.newUser.includes("?") ? "&" : "?"}callbackUrl=${encodeURIComponent(target)}`))
  }
  return redirect(context, target)
}

async function oauthCallback(context: RequestContext, provider: InternalOAuthProvider): Promise<Response> {
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

  return signInAccount(context, result, provider.allowDangerousEmailAccountLinking)
}

/** What a provider callback established, for {@link signInAccount}. */
export interface AccountSignIn {
  user: User & { id: string }
  account: Account
  profile: Profile
  /** Whether the provider vouched for `user.email`. */
  emailVerified: boolean
  /** The user signed in when the flow started (from its sealed, browser-bound state). */
  startedBy: string | undefined
}

/**
 * Ends a provider callback (OAuth 2, OAuth 1.0a): asks the `signIn` callback, applies the
 * account-linking rules with an adapter, starts the session and sends the browser on.
 *
 * @throws {AccessDenied} when the `signIn` callback refuses.
 * @throws {OAuthAccountNotLinked} when the linking rules refuse the account.
 * @throws {AdapterError} when the store fails.
 */
export async function signInAccount(context: RequestContext, result: AccountSignIn, allowEmailLinking: boolean): Promise<Response> {
  const { config } = context
  const adapter = config.adapter
  let user: User & { id: string } = result.user
  let isNewUser = false
  const accountUser = adapter === undefined ? null : await findUser(adapter, result.account)

  const redirectTo = await askSignIn(context, { user: accountUser ?? user, account: result.account, profile: result.profile })
  if (redirectTo !== undefined) return redirect(context, redirectTo)

  if (adapter !== undefined) {
    // Linking to the signed-in user needs both: that user is signed in now, and started this flow.
    // A session cookie planted mid-flow, or a flow started by someone else, links nothing.
    const current = result.startedBy === undefined ? undefined : (await readSession(context))?.userId
    const resolved = await resolveUser(config, adapter, {
      accountUser,
      profileUser: result.user,
      account: result.account,
      profile: result.profile,
      emailVerified: result.emailVerified,
      allowEmailLinking,
      signedInUserId: current !== undefined && current === result.startedBy ? current : undefined,
    })
    user = resolved.user
    isNewUser = resolved.isNewUser
  }

  const target = context.returnTo ?? (await resolveCallbackUrl(context, undefined))
  return finishSignIn(context, { user, account: result.account, profile: result.profile, isNewUser }, target)
}

async function emailCallback(context: RequestContext, provider: InternalEmailProvider): Promise<Response> {
  if (context.request.method !== "POST") return confirmationPage(context, provider)
  const { config } = context
  const { identifier, callbackUrl: requested } = await verifySignInLink(context, provider, await readForm(context.request))
  const adapter = emailAdapter(context, provider)
  const { existing, account, redirectTo } = await askEmailSignIn(context, { adapter, providerId: provider.id, identifier })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  const { user, isNewUser } = await resolveEmailUser(config, adapter, identifier, existing, provider.allowDangerousEmailAccountLinking)
  return finishSignIn(context, { user, account: { ...account, userId: user.id }, isNewUser }, await resolveCallbackUrl(context, requested))
}

async function credentialsCallback(context: RequestContext, provider: InternalCredentialsProvider): Promise<Response> {
  if (context.request.method !== "POST") {
    throw new InvalidProvider(`Provider "${provider.id}" (type "credentials") signs in by POSTing its form to this route.`)
  }
  const { config } = context
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  const requested = form.get("callbackUrl")
  const target = await resolveCallbackUrl(context, requested)
  if (requested !== null) context.returnTo = target
  const credentials = readCredentials(provider, form)
  for (const value of Object.values(credentials)) context.sensitive.add(value)
  let user: User & { id: string }
  try {
    user = await authorize(provider, credentials, context.request)
  } catch (error) {
    // Fetched on a refusal only: an app without a credentials provider bundles none of it.
    if (error instanceof CredentialsSignin) (await import("../credentials/typed-fields.js")).keepTypedFields(context, provider, credentials)
    throw error
  }
  if (config.session.strategy === "database" && config.adapter !== undefined) {
    user = await storedCredentialsUser(config.adapter, user, provider.id)
  }
  const account: Account = { provider: provider.id, type: "credentials", providerAccountId: user.id, userId: user.id }
  const redirectTo = await askSignIn(context, { user, account, credentials })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  return finishSignIn(context, { user, account, isNewUser: false }, target)
}

/**
 * `GET|POST /callback/:id`: completes a sign-in and starts the session. OAuth providers come
 * back here from the provider; an email link opens its confirmation page here (GET) and signs
 * in on its button (POST); a credentials form posts here.
 */
export async function callback(context: RequestContext, providerId: string): Promise<Response> {
  const provider: InternalProvider | undefined = context.config.providersById.get(providerId)
  if (provider === undefined) throw new InvalidProvider(`No provider has the id "${providerId}".`)
  switch (provider.type) {
    case "email":
      return emailCallback(context, provider)
    case "credentials":
      return credentialsCallback(context, provider)
    case "flow":
      return provider.flow.callback(context, provider)
    default:
      return oauthCallback(context, provider)
  }
}
