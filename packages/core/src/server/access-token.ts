/**
 * `getAccessToken`: the signed-in user's access token at a provider, refreshed when due. The
 * provider's flow keeps the tokens and does the work (see `SignInFlow.accessToken`).
 */
import { resolveConfig } from "../config/config.js"
import { InvalidProvider } from "../errors/errors.js"
import type { AccessToken, SetCookieSink } from "../internal.js"
import type { AuthConfig } from "../types.js"

export type { AccessToken } from "../internal.js"

/**
 * The signed-in user's access token at an OAuth or OpenID Connect provider, for calling the
 * provider's API on their behalf. When the stored token has expired or expires within 60
 * seconds, it is refreshed first (the `refresh_token` grant, with the provider's client
 * authentication) and the new tokens are stored through the adapter's `updateAccount`; a
 * provider that answers without a new refresh token (Google) keeps the old one.
 *
 * One refresh per account runs at a time: in this process, callers share it; across instances,
 * through the adapter's `withAccountLock` (our memory and PostgreSQL adapters have it), the
 * others wait and then read the tokens the winner stored, so a provider that rotates refresh
 * tokens and revokes the grant on reuse never sees one spent twice. An adapter without
 * `withAccountLock` gets single flight within the process only, and a warning once.
 *
 * With an adapter, the tokens live on the account in its store (database or JWT sessions); the
 * `jwt` and `session` callbacks are not run again by a refresh, so a session that copied tokens
 * at sign-in keeps that copy: read tokens through this function instead.
 *
 * Without an adapter (JWT sessions), a provider with `tokensInCookie: true` keeps its tokens in
 * the sealed session cookie (the `providerTokens` claim, which the `jwt` callback sees on every
 * read). A refresh then re-seals the cookie and hands it to `setCookie`, as
 * `getSessionForResponse` does; without `setCookie`, a due refresh rejects rather than spend a
 * refresh token whose successor could not be kept. For 60 seconds after a refresh, a cookie
 * sealed before it (another tab, a retried request) gets its new tokens instead of spending the
 * old refresh token again. Both are per process only: several instances with a provider that
 * revokes reused refresh tokens need an adapter.
 *
 * @param setCookie Receives each `Set-Cookie` the response must carry (cookie-kept tokens, and
 * a session renewal found by the read). Without it, such cookies are dropped.
 * @returns `null` when the request has no session, or the user has no account at the provider.
 * @throws {InvalidProvider} when `providerId` names no provider whose flow keeps tokens (OAuth 2.0, OpenID Connect).
 * @throws {Configuration} when there is no `adapter` and the provider has no `tokensInCookie`,
 * or the adapter lacks `listAccountsByUserId`, or
 * `updateAccount` and a refresh is due (the message names the method).
 * @throws {RefreshTokenError} when a due refresh fails: no refresh token, or the provider refused
 * it (`invalid_grant`) or could not be reached, or cookie-kept tokens and no `setCookie`. The app
 * session is not ended.
 * @throws {AdapterError} when the adapter fails.
 * @example
 * ```ts
 * import { getAccessToken } from "@portcullis/core"
 *
 * const token = await getAccessToken(request, config, "github")
 * if (token === null) return Response.redirect(new URL("/api/auth/signin", request.url))
 * const repos = await fetch("https://api.github.com/user/repos", { headers: { authorization: `Bearer ${token.accessToken}` } })
 * ```
 */
export async function getAccessToken(request: Request, config: AuthConfig, providerId: string, setCookie?: SetCookieSink): Promise<AccessToken | null> {
  const internal = await resolveConfig(config)
  const provider = internal.providersById.get(providerId)
  const read = provider?.flow.accessToken
  if (provider === undefined || read === undefined) {
    throw new InvalidProvider(`getAccessToken: no OAuth or OpenID Connect provider has the id "${providerId}".`)
  }
  return read(internal, request, provider, setCookie)
}
