/**
 * `@portcullis/react-router`: `@portcullis/core` in React Router's framework mode. One call,
 * `ReactRouterAuth(config)`, gives the resource route's `loader` and `action` (the auth routes
 * under `/api/auth`), `auth(request)` for loaders and actions, `rootAuthLoader` handing the
 * session to every route, and `signIn` / `signOut` for form actions. Conversion only: React
 * Router hands loaders and actions a web `Request`, and every check lives in core.
 *
 * @module
 */
import { Auth, getAccessToken, getSessionForResponse, requireRecentAuthForResponse, signIn as coreSignIn, signOut as coreSignOut, unlinkAccount, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { actionFields, isCrossSiteRequest, shouldRedirect, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "@portcullis/core/integration"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import { data, redirect, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, AuthConfig, Profile, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session, User } from "@portcullis/core"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "@portcullis/core/integration"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** What React Router hands a loader or an action; only the request is read. */
export interface RequestArgs {
  request: Request
}

/** What {@link ReactRouterAuth} returns: the resource route's handlers and the server functions bound to the config. */
export interface ReactRouterAuthResult {
  /** The resource route's `loader` (`GET` auth routes): re-export it from `app/routes/api.auth.$.ts`. */
  loader: (args: RequestArgs) => Promise<Response>
  /** The resource route's `action` (`POST` auth routes, a provider's `form_post` callback, back-channel logout). */
  action: (args: RequestArgs) => Promise<Response>
  /**
   * The session of the request, or `null` when signed out (and for a missing, forged or expired
   * cookie). A renewed cookie (a slid expiry) is appended to `headers` when given: pass them to
   * the loader's `data(value, { headers })`; {@link ReactRouterAuthResult.rootAuthLoader} does.
   *
   * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
   */
  auth: (request: Request, headers?: Headers) => Promise<Session | null>
  /**
   * The root route's loader: `{ session }` with the renewal's `Set-Cookie`, for
   * `useRouteLoaderData("root")` on every page, rendered on the server and after client navigation.
   */
  rootAuthLoader: (args: RequestArgs) => Promise<DataWithResponseInit<{ session: Session | null }>>
  /**
   * Signs in from an action in one call to core and throws React Router's `redirect` to where core
   * sends the browser (the provider, the "check your email" page, `redirectTo` with the session),
   * or with `redirect: false` returns that URL. Only from an action: see {@link signInAction}.
   *
   * @throws `403` for a cross-site post, `429` over a per-client limit, else the redirect.
   */
  signIn: (request: Request, provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams) => Promise<string>
  /**
   * Signs out from an action in one call to core (the session ended, its cookies cleared) and
   * throws the redirect to `redirectTo`, or with `redirect: false` returns that URL.
   *
   * @throws `403` for a cross-site post, else the redirect.
   */
  signOut: (request: Request, options?: SignOutOptions) => Promise<string>
  /**
   * A route action signing in with the posted form: `providerId`, `redirectTo`, the provider's
   * fields, and `authorizationParams-<name>` fields for the provider's authorization URL.
   */
  signInAction: (args: RequestArgs) => Promise<string>
  /** A route action signing out with the posted form's `redirectTo`. */
  signOutAction: (args: RequestArgs) => Promise<string>
  /**
   * The signed-in user's access token at a provider, refreshed first when it expires within 60
   * seconds; `null` when signed out or not linked. Renewed cookies go to `headers`, as `auth`'s.
   *
   * @throws {RefreshTokenError} when a due refresh fails; the session stays.
   */
  getAccessToken: (request: Request, providerId: string, headers?: Headers) => Promise<AccessToken | null>
  /**
   * Guards a sensitive loader or action (core's `requireRecentAuth`): `{ ok: true, session }` when
   * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
   * `{ ok: false, url }` for `throw redirect(url)`: the sign-in page, `{basePath}/mfa/setup`
   * (level 2 without a second factor) or the re-authentication page, back to this page. A
   * renewal's cookies go to `headers`, as `auth`'s.
   *
   * @example
   * ```ts
   * const recent = await requireRecentAuth(request)
   * if (!recent.ok) throw redirect(recent.url)
   * ```
   */
  requireRecentAuth: (request: Request, options?: RecentAuthCheck, headers?: Headers) => Promise<RecentAuth>
  /**
   * The signed-in user's sessions on every device, the current one first; `null` when signed out.
   *
   * @throws {AuthError} `Configuration` when the adapter keeps no session records.
   */
  listSessions: (request: Request, headers?: Headers) => Promise<SessionInfo[] | null>
  /**
   * Ends sessions of the signed-in user: `{ id }`, `{ others: true }` or `{ all: true }` (which
   * also clears this session's cookie, appended to `headers`). Refuses a cross-site post.
   *
   * @throws `403` for a cross-site post; {@link AuthError} `UnknownAction` for a malformed target.
   */
  revokeSessions: (request: Request, target: RevokeTarget, headers?: Headers) => Promise<RevokeResult | null>
  /**
   * Unlinks one of the signed-in user's accounts, answering what `POST {basePath}/accounts/unlink`
   * answers: return the `Response`, or read its JSON. Refuses a cross-site post.
   *
   * @throws `403` for a cross-site post.
   */
  unlinkAccount: (request: Request, options: ServerUnlinkAccountOptions) => Promise<Response>
}

/** The prefix of a form field that `signInAction` sends to the provider as an authorization parameter, as the SvelteKit package reads them. */
const AUTHORIZATION_PARAM = "authorizationParams-"

/** Ends the loader or action with `response`: React Router answers a thrown `Response` with it (a redirect followed, an error status rendered by the error boundary). */
function answer(response: Response): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- React Router's idiom, not an error.
  throw response
}

/** A sink for core's `Set-Cookie`s: appended to `headers`, or dropped when the caller has no response to put them on. */
function sink(headers: Headers | undefined): (setCookie: string) => void {
  return (setCookie) => headers?.append("set-cookie", setCookie)
}

/**
 * Refuses a post another site made the browser send (core's {@link isCrossSiteRequest}), since
 * React Router's actions have no origin check of their own and core's server functions skip its
 * CSRF token.
 *
 * @throws `403`, as a thrown `Response` React Router renders with the error boundary.
 */
function refuseCrossSite(request: Request): void {
  if (isCrossSiteRequest(request)) answer(new Response("Cross-site request refused.", { status: 403 }))
}

/**
 * Turns core's answer into React Router's: its cookies on the redirect, a `429` thrown with its
 * `Retry-After`.
 */
function follow(response: Response, fallback: string, redirecting: boolean): string {
  if (response.status === 429) {
    answer(new Response("Too many sign-in requests from this client: try again later.", { status: 429, headers: { "retry-after": response.headers.get("retry-after") ?? "60" } }))
  }
  const target = response.headers.get("location") ?? fallback
  if (!redirecting) return target
  const headers = new Headers()
  for (const setCookie of response.headers.getSetCookie()) headers.append("set-cookie", setCookie)
  return answer(redirect(target, { status: 303, headers }))
}

/** The page the action was posted from, where the browser goes back to by default. */
function here(request: Request): string {
  return request.headers.get("referer") ?? "/"
}

/** The posted form, or `400` when the body is not one, rather than a 500. */
async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    return answer(new Response("The sign-in or sign-out form could not be read.", { status: 400 }))
  }
}

/**
 * Portcullis for a React Router app: the resource route's handlers and the server functions,
 * each taking the loader's or action's `request`. Named as `NextAuth(config)` and
 * `SvelteKitAuth(config)` are, so one call in `app/auth.server.ts` sets everything up. Core's
 * `basePath` defaults to `/api/auth`, the route `app/routes/api.auth.$.ts` serves; set it when
 * the route file sits elsewhere.
 *
 * @example
 * ```ts
 * // app/auth.server.ts
 * export const { loader, action, auth, rootAuthLoader, signInAction, signOutAction } = ReactRouterAuth({ providers: [GitHub] })
 * // app/routes/api.auth.$.ts
 * export { loader, action } from "../auth.server"
 * ```
 */
export function ReactRouterAuth(config: AuthConfig): ReactRouterAuthResult {
  const handler = ({ request }: RequestArgs): Promise<Response> => Auth(request, config)
  const auth = (request: Request, headers?: Headers): Promise<Session | null> => getSessionForResponse(request, config, sink(headers))

  const signIn = async (request: Request, provider?: string, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<string> => {
    refuseCrossSite(request)
    const { redirect: redirectOption, redirectTo, ...fields } = options
    const callbackUrl = typeof redirectTo === "string" && redirectTo !== "" ? redirectTo : here(request)
    const response = await coreSignIn(request, config, provider, { fields: actionFields(fields), redirectTo: callbackUrl, authorizationParams: new URLSearchParams(authorizationParams) })
    return follow(response, callbackUrl, shouldRedirect(redirectOption))
  }

  const signOut = async (request: Request, options: SignOutOptions = {}): Promise<string> => {
    refuseCrossSite(request)
    const callbackUrl = typeof options.redirectTo === "string" && options.redirectTo !== "" ? options.redirectTo : here(request)
    return follow(await coreSignOut(request, config, { redirectTo: callbackUrl }), callbackUrl, shouldRedirect(options.redirect))
  }

  return {
    loader: handler,
    action: handler,
    auth,
    rootAuthLoader: async ({ request }) => {
      const headers = new Headers()
      const session = await auth(request, headers)
      return data({ session }, { headers })
    },
    signIn,
    signOut,
    signInAction: async ({ request }) => {
      refuseCrossSite(request)
      const options: SignInOptions = {}
      const authorizationParams: Record<string, string> = {}
      let provider: string | undefined
      for (const [name, value] of await readForm(request)) {
        if (typeof value !== "string") continue
        if (name === "providerId") provider = value
        else if (name.startsWith(AUTHORIZATION_PARAM)) authorizationParams[name.slice(AUTHORIZATION_PARAM.length)] = value
        else options[name] = value
      }
      return signIn(request, provider, options, authorizationParams)
    },
    signOutAction: async ({ request }) => {
      refuseCrossSite(request)
      const form = await readForm(request)
      const redirectTo = form.get("redirectTo")
      return signOut(request, { ...(typeof redirectTo === "string" ? { redirectTo } : {}), ...(form.get("redirect") === "false" ? { redirect: false } : {}) })
    },
    getAccessToken: (request, providerId, headers) => getAccessToken(request, config, providerId, sink(headers)),
    requireRecentAuth: (request, options, headers) => requireRecentAuthForResponse(request, config, sink(headers), options),
    listSessions: async (request, headers) => (await import("@portcullis/core/sessions")).listSessions(request, config, sink(headers)),
    revokeSessions: async (request, target, headers) => {
      refuseCrossSite(request)
      return (await import("@portcullis/core/sessions")).revokeSessions(request, config, target, sink(headers))
    },
    unlinkAccount: async (request, options) => {
      refuseCrossSite(request)
      return unlinkAccount(request, config, options)
    },
  }
}
