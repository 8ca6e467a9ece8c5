/**
 * OAuth 2.0 and OpenID Connect sign-in as a {@link SignInFlow}: what the routes and the config
 * checks need to know of it. The protocol itself (`protocol.ts`, with `oauth4webapi`) loads on the
 * first sign-in, so an app's session reads never load it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749 OAuth 2.0
 * @see https://openid.net/specs/openid-connect-core-1_0.html
 */
import { ACCOUNT_SIGN_IN_METHODS, SESSION_RECORD_METHODS } from "../adapters.js"
import type { FlowProvider, RequestContext, SignInFlow } from "../internal.js"
import { missingOAuthOptions, normalizeOAuthProvider, type InternalOAuthProvider } from "./provider.js"

type Provider = FlowProvider<InternalOAuthProvider>

let loadedProtocol: typeof import("./protocol.js") | undefined

/** The sign-in and callback code, fetched once, on the first sign-in. */
async function protocol(): Promise<typeof import("./protocol.js")> {
  loadedProtocol ??= await import("./protocol.js")
  return loadedProtocol
}

let loadedAccessTokens: typeof import("./access-token.js") | undefined

/** The getAccessToken code, fetched once: an `import()` on every call would cost more than the read itself. */
async function accessTokens(): Promise<typeof import("./access-token.js")> {
  loadedAccessTokens ??= await import("./access-token.js")
  return loadedAccessTokens
}

/** Whether this browser holds the cookie of a sign-in that may be ended at its provider. */
function keptForSignOut(context: RequestContext): boolean {
  const { name } = context.cookies.endSession
  return context.jar.has(name) || context.jar.has(`${name}.0`)
}

/**
 * The OAuth 2.0 / OpenID Connect flow. Every OAuth provider factory carries it (through
 * `mergeProviderConfig`); a provider object written by hand with `type: "oauth"` or `"oidc"`
 * gets it from core's registry.
 */
export const oauth = {
  name: "OAuth",
  configure: (config, env, setup) => {
    const { provider, rare } = normalizeOAuthProvider(config as never, env, setup?.redirectProxyUrl)
    // Most apps set none of the seldom set options (JWT client authentication, `[customFetch]`...): their checks load only for a provider that does.
    return rare === undefined ? provider : import("./rare-options.js").then((module) => module.withRareOptions(provider, rare.config, rare.params))
  },
  missing: (config, env) => missingOAuthOptions(config as never, env),
  adapterMethods: (options) => [
    ...ACCOUNT_SIGN_IN_METHODS,
    ...(options.backchannelLogout ? [...SESSION_RECORD_METHODS, "deleteSession" as const] : []),
    // Tokens are revoked once the user's last session ends: the store must tell which sessions live.
    ...(options.revokeTokensOnSignOut ? [...SESSION_RECORD_METHODS, "listAccountsByUserId" as const] : []),
  ],
  needsAdapter: (options) =>
    options.backchannelLogout
      ? "with session records for `backchannelLogout` (to end sessions on every instance)"
      : options.revokeTokensOnSignOut && !options.tokensInCookie
        ? "with session records for `revokeTokensOnSignOut` (or `tokensInCookie`, to revoke the tokens the cookie keeps)"
        : undefined,
  secrets: (options) => (options.clientSecret === undefined ? [] : [options.clientSecret]),
  draw: () => ({ kind: "button" }),
  signIn: async (context, provider: Provider, request) => (await protocol()).signIn(context, provider, request),
  callback: async (context, provider: Provider) => (await protocol()).callback(context, provider),
  // Fetched when the app calls getAccessToken: an app that never does loads none of the refresh code.
  accessToken: async (config, request, provider, setCookie) => (await accessTokens()).oauthAccessToken(config, request, provider, setCookie),
  // The end-session code is fetched only by a browser that signed in with such a provider.
  signOut: async (context, provider, request) => {
    if (provider.options.revokeTokensOnSignOut) await (await import("./revocation.js")).revokeOnSignOut(context, provider, request.ended)
    return keptForSignOut(context) ? (await import("./end-session.js")).endProviderSession(context, provider, request.callbackUrl) : undefined
  },
  signOutCallback: async (context, provider) => (await import("./end-session.js")).endSessionCallback(context, provider),
  // An unlinked account's tokens are no session's any more: revoked at once, with the option.
  accounts: {
    unlinked: async (context, provider, account) => {
      if (provider.options.revokeTokensOnSignOut) await (await import("./revocation.js")).revokeOnUnlink(context, provider, account)
    },
  },
  routes: {
    // Fetched when a provider posts a logout token: an app without back-channel logout loads none of it.
    "backchannel-logout": { POST: async (context, provider) => (await import("./backchannel.js")).backchannelLogout(context, provider) },
  },
  // A linked account proves its owner again at its provider (see `OAuthConfig.reauth`), only
  // through sealed checks: they carry the re-authentication to its callback.
  reauth: { offers: (options) => options.reauth !== false && [...options.checks].some((check) => check !== "none") },
  sessionToken: async (options, token, account) => {
    if (!options.tokensInCookie) return token
    return (await import("../session/cookie-tokens.js")).withProviderTokens(token, account)
  },
} satisfies SignInFlow<InternalOAuthProvider>
