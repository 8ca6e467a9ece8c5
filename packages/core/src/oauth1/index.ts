/**
 * OAuth 1.0a ("Sign in with X"): the three-legged flow of RFC 5849 as a {@link SignInFlow}. A
 * provider factory that needs it (X with `version: "1.0A"`) carries it under `FLOW`; an app
 * that does not import such a provider bundles none of this.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849 The OAuth 1.0 Protocol
 * @see https://docs.x.com/fundamentals/authentication/oauth-1-0a/obtaining-user-access-tokens
 * @module oauth1
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import { rememberCallbackUrl, rememberedCallbackUrl } from "../http/outbound-urls.js"
import { withDeadline, withRequestTimeout } from "../outbound/deadline.js"
import { ACCOUNT_SIGN_IN_METHODS } from "../adapters.js"
import { checkedUser, signInAccount } from "../sign-in/sign-in.js"
import { readForm, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { browserBinding } from "../http/csrf.js"
import { AuthError } from "../errors/errors.js"
import { AccessDenied, InvalidCheck, OAuthSignInError } from "../errors/flow-errors.js"
import { OAuthCallbackError } from "../errors/errors.js"
import type { FlowProvider, SignInFlow } from "../internal.js"
import type { Account } from "../model.js"
import { outboundCallbackUrl } from "../http/outbound-urls.js"
import { recentIfSignedIn } from "../session/recent.js"
import { configureOAuth1, type OAuth1Options } from "./provider.js"
import { describeFailure, requestCredentials, requestProfile } from "./requests.js"
import { requestTokenCookie, takeRequestToken } from "./request-token.js"

export type { OAuth1Config, OAuth1Options } from "./provider.js"

type Provider = FlowProvider<OAuth1Options>

/**
 * `POST /signin/:id`: gets a request token whose `oauth_callback` is our callback, seals it in
 * this browser's cookie and sends the browser to the provider with the token alone.
 *
 * @throws {OAuthSignInError} when the provider fails, is too slow, or does not confirm the callback.
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-2.1
 */
async function signIn(context: RequestContext, provider: Provider, request: { callbackUrl: string }): Promise<Response> {
  const { options } = provider
  rememberCallbackUrl(context, request.callbackUrl)
  const callback = outboundCallbackUrl(context, provider.id, "An OAuth 1.0a `oauth_callback`")
  // The CSRF check just passed, so the browser holds a valid CSRF cookie to bind the flow to.
  const browser = (await browserBinding(context)) ?? ""
  // Only a flow started while signed in may link its account to that user (read only when linking
  // can happen), and only one who authenticated recently: asked before the browser leaves.
  const signedIn = context.config.adapter === undefined ? null : await recentIfSignedIn(context, { callbackUrl: request.callbackUrl })
  if (signedIn?.ok === false) return signedIn.response
  const userId = signedIn?.current.userId
  let answer: Awaited<ReturnType<typeof requestCredentials>>
  try {
    answer = await withRequestTimeout(options.timeout, undefined, (signal) =>
      requestCredentials(options.requestTokenUrl, { consumerKey: options.clientId, consumerSecret: options.clientSecret }, { oauth_callback: callback }, signal, "request token"),
    )
  } catch (cause) {
    throw new OAuthSignInError(describeFailure(provider.id, options.timeout, cause), { cause })
  }
  context.sensitive.add(answer.token)
  context.sensitive.add(answer.secret)
  // Without the confirmation the provider ignored our callback (OAuth 1.0 without the "a").
  if (answer.get("oauth_callback_confirmed") !== "true") {
    throw new OAuthSignInError(`Provider "${provider.id}" did not confirm the callback (\`oauth_callback_confirmed=true\`): refusing its request token.`)
  }
  const binding = { token: answer.token, secret: answer.secret, provider: provider.id, origin: context.origin, browser }
  context.setCookies.push(await requestTokenCookie(context, userId === undefined ? binding : { ...binding, userId }))
  const target = new URL(options.authorizationUrl)
  target.searchParams.set("oauth_token", answer.token)
  return redirect(context, target.href)
}

/** The verifier exchanged for the access token, the profile read with it and mapped, within `callbackTimeout`. */
async function completeSignIn(context: RequestContext, provider: Provider, requestToken: { token: string; secret: string }, verifier: string, deadline: AbortSignal) {
  const { options } = provider
  const client = { consumerKey: options.clientId, consumerSecret: options.clientSecret }
  let profile: Record<string, unknown>
  let access: Awaited<ReturnType<typeof requestCredentials>>
  try {
    access = await withRequestTimeout(options.timeout, deadline, (signal) =>
      requestCredentials(options.accessTokenUrl, { ...client, token: requestToken.token, tokenSecret: requestToken.secret }, { oauth_verifier: verifier }, signal, "access token"),
    )
    context.sensitive.add(access.token)
    context.sensitive.add(access.secret)
    const credentials = { ...client, token: access.token, tokenSecret: access.secret }
    profile = await withRequestTimeout(options.timeout, deadline, (signal) => requestProfile(options.profileUrl, credentials, signal))
  } catch (cause) {
    throw new OAuthCallbackError(describeFailure(provider.id, options.timeout, cause), { cause })
  }
  const tokens = { oauth_token: access.token, oauth_token_secret: access.secret }
  let mapped: ReturnType<typeof checkedUser>
  try {
    mapped = checkedUser(provider, await options.profile(profile, tokens), profile)
  } catch (cause) {
    if (cause instanceof AuthError) throw cause
    throw new OAuthCallbackError(`The \`profile\` callback of provider "${provider.id}" threw.`, { cause })
  }
  const account: Account = { ...tokens, provider: provider.id, type: "oauth", providerAccountId: mapped.user.id }
  return { ...mapped, account, profile }
}

/**
 * `GET /callback/:id`: the provider sends the browser back with `oauth_token` and
 * `oauth_verifier` (or `denied`). The token must be the one this browser's cookie holds, issued
 * by this provider.
 *
 * @throws {InvalidCheck} when the cookie is missing (replay, another browser), was issued by
 *   another provider, or names another token.
 * @throws {AccessDenied} when the user refused at the provider.
 * @throws {OAuthCallbackError} when the provider fails, answers badly, or the deadline passes.
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-2.2
 */
async function callback(context: RequestContext, provider: Provider): Promise<Response> {
  const params = context.request.method === "POST" ? await readForm(context.request) : new URLSearchParams(context.url.searchParams)
  for (const name of ["oauth_token", "oauth_verifier", "denied"]) {
    if (params.getAll(name).length > 1) throw new OAuthCallbackError(`The callback repeats the parameter "${name}".`)
  }
  const remembered = rememberedCallbackUrl(context)
  if (remembered !== undefined) context.returnTo = await resolveCallbackUrl(context, remembered)
  const verifier = params.get("oauth_verifier")
  if (verifier !== null) context.sensitive.add(verifier)

  const started = await takeRequestToken(context, provider.id, await browserBinding(context))
  const denied = params.get("denied")
  if (denied !== null) {
    if (denied !== started.token) throw new InvalidCheck("The refusal names a request token this browser did not start.")
    throw new AccessDenied(`The user refused access at provider "${provider.id}".`, { page: "signin" })
  }
  if (params.get("oauth_token") !== started.token) throw new InvalidCheck("The callback's `oauth_token` is not the request token this browser started.")
  if (verifier === null || verifier === "") throw new OAuthCallbackError("The callback has no `oauth_verifier`.")

  const { callbackTimeout } = provider.options
  const expired = new OAuthCallbackError(`Provider "${provider.id}" did not complete the sign-in within ${callbackTimeout} ms (\`callbackTimeout\`).`)
  const result = await withDeadline(callbackTimeout, expired, (deadline) => completeSignIn(context, provider, started, verifier, deadline))
  return signInAccount(context, { ...result, startedBy: started.userId, methods: ["fed"] }, provider.options.allowDangerousEmailAccountLinking)
}

/**
 * The OAuth 1.0a flow, for provider factories to carry under `FLOW`.
 *
 * @example
 * ```ts
 * import { oauth1 } from "@portcullis/core/oauth1"
 * import { FLOW } from "@portcullis/core/providers"
 *
 * const provider = { id: "acme", name: "Acme", type: "oauth", requestTokenUrl, authorization, accessTokenUrl, profileUrl, [FLOW]: oauth1 }
 * ```
 */
export const oauth1 = {
  name: "OAuth 1.0a",
  configure: configureOAuth1,
  adapterMethods: () => [...ACCOUNT_SIGN_IN_METHODS],
  secrets: (options) => [options.clientSecret],
  draw: () => ({ kind: "button" }),
  signIn,
  callback,
  // Its accounts sign in and may be unlinked; OAuth 1.0a has no standard way to revoke a token.
  accounts: {},
} satisfies SignInFlow<OAuth1Options>
