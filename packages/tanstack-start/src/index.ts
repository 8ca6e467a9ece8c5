/**
 * `@portcullis/tanstack-start`: `@portcullis/core` in a TanStack Start app. One call,
 * `TanStackStartAuth(config)`, gives the server route's `GET` and `POST` (the auth routes under
 * `/api/auth`), a request middleware putting the session in the server route's context, and the
 * functions a server function's handler calls: `auth()` (for loaders, through a server function),
 * `signIn` / `signOut` (a form posted to a server function), `getAccessToken`, `listSessions`,
 * `revokeSessions`, `unlinkAccount` and `requireRecentAuth`. Conversion only: Start hands over a
 * web `Request` and takes a `Response`; the request of a server function and its response headers
 * are read and written through Start's own server helpers, and every check lives in core.
 *
 * @module
 */
import { Auth, getAccessToken, getSessionForResponse, requireRecentAuthForResponse, signIn as coreSignIn, signOut as coreSignOut, unlinkAccount, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { actionFields, isCrossSiteRequest, shouldRedirect, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "@portcullis/core/integration"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import { createMiddleware } from "@tanstack/react-start"
import { appendResponseHeader, getWebRequest } from "@tanstack/react-start/server"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, AuthConfig, Profile, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session, User } from "@portcullis/core"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "@portcullis/core/integration"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** What Start hands a server route's method handler; only the request is read. */
export interface RouteArgs {
  request: Request
}

/** What a sign-in or sign-out takes: its options, or the form a server function received (`providerId`, `redirectTo`, the provider's fields, `authorizationParams-<name>`). */
export type ActionInput<O> = O | FormData

/** What a server route's handlers find in `context` after {@link TanStackStartAuthResult.authMiddleware}. */
export interface AuthContext {
  session: Session | null
}

/** A request middleware adding {@link AuthContext}, typed as Start's `.middleware([...])` reads it. */
export interface AuthMiddleware {
  options: unknown
  _types: { type: "request"; middlewares: undefined; serverContext: AuthContext; allServerContext: AuthContext }
}

/** What {@link TanStackStartAuth} returns: the server route's handlers, its middleware and the server-side functions bound to the config. */
export interface TanStackStartAuthResult {
  /** `GET` of the server route `src/routes/api/auth/$.ts`: the sign-in page, callbacks, `/session`, `/csrf`... */
  GET: (args: RouteArgs) => Promise<Response>
  /** `POST` of the same route: sign-in and sign-out posts, a provider's `form_post` callback, back-channel logout. */
  POST: (args: RouteArgs) => Promise<Response>
  /**
   * A request middleware for server routes (`createServerFileRoute(path).middleware([authMiddleware])`):
   * the session, or `null`, as `context.session`, its renewal on the response the route answers.
   */
  authMiddleware: AuthMiddleware
  /**
   * The session of the request being served, or `null` when signed out (and for a missing, forged
   * or expired cookie): call it in a server function's handler and the loader calls that server
   * function, on the server for the first page and through Start's fetch after a client navigation.
   * A renewed cookie (a slid expiry) goes on the response.
   *
   * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
   */
  auth: () => Promise<Session | null>
  /**
   * Signs in from a server function in one call to core, and throws the `303` to where core sends
   * the browser (the provider, the "check your email" page, `redirectTo` with the session): post a
   * form to the server function's `url`. With `redirect: false` the URL is returned instead and the
   * cookies go on the server function's response.
   *
   * @throws `403` for a cross-site post, `429` over a per-client limit, else the redirect.
   */
  signIn: (provider?: string | FormData, options?: SignInOptions, authorizationParams?: AuthorizationParams) => Promise<string>
  /**
   * Signs out from a server function (the session ended, its cookies cleared) and throws the `303`
   * to `redirectTo`, or with `redirect: false` returns that URL.
   *
   * @throws `403` for a cross-site post, else the redirect.
   */
  signOut: (options?: ActionInput<SignOutOptions>) => Promise<string>
  /**
   * The signed-in user's access token at a provider, refreshed first when it expires within 60
   * seconds; `null` when signed out or not linked.
   *
   * @throws {RefreshTokenError} when a due refresh fails; the session stays.
   */
  getAccessToken: (providerId: string) => Promise<AccessToken | null>
  /**
   * Guards a sensitive server function (core's `requireRecentAuth`): `{ ok: true, session }` when
   * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
   * `{ ok: false, url }` for `throw redirect({ href: url })`: the sign-in page,
   * `{basePath}/mfa/setup` (level 2 without a second factor) or the re-authentication page, back to
   * the page the request came for (pass `callbackUrl` for a server function called by fetch). A
   * renewal goes on the response, as `auth()`'s.
   *
   * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
   * @example
   * ```ts
   * const recent = await requireRecentAuth({ callbackUrl: "/settings" })
   * if (!recent.ok) throw redirect({ href: recent.url })
   * ```
   */
  requireRecentAuth: (options?: RecentAuthCheck) => Promise<RecentAuth>
  /**
   * The signed-in user's sessions on every device, the current one first; `null` when signed out.
   *
   * @throws {AuthError} `Configuration` when the adapter keeps no session records.
   */
  listSessions: () => Promise<SessionInfo[] | null>
  /**
   * Ends sessions of the signed-in user: `{ id }`, `{ others: true }` or `{ all: true }` (which
   * also clears this session's cookie). Refuses a cross-site post.
   *
   * @throws `403` for a cross-site post; {@link AuthError} `UnknownAction` for a malformed target.
   */
  revokeSessions: (target: RevokeTarget) => Promise<RevokeResult | null>
  /**
   * Unlinks one of the signed-in user's accounts, answering what `POST {basePath}/accounts/unlink`
   * answers: return the `Response`, or read its JSON. Refuses a cross-site post.
   *
   * @throws `403` for a cross-site post.
   */
  unlinkAccount: (options: ServerUnlinkAccountOptions) => Promise<Response>
}

/** The prefix of a form field sent to the provider as an authorization parameter, as the SvelteKit and React Router packages read them. */
const AUTHORIZATION_PARAM = "authorizationParams-"

/** Ends the server function with `response`: Start answers a thrown `Response` with it as it is. */
function answer(response: Response): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- Start's idiom, not an error.
  throw response
}

/** Core's `Set-Cookie`s on the response Start is building for this request. */
function toResponse(setCookie: string): void {
  appendResponseHeader("set-cookie", setCookie)
}

/** A form field's text, `undefined` for a file or a missing field. */
function text(value: FormDataEntryValue | null): string | undefined {
  return typeof value === "string" ? value : undefined
}

/**
 * The server function's request, once core's {@link isCrossSiteRequest} finds it no post another
 * site made the browser send: Start checks no origin on server functions, and core's server
 * functions skip its CSRF token.
 *
 * @throws `403`, as a thrown `Response`.
 */
function sameSiteRequest(): Request {
  const request = getWebRequest()
  return isCrossSiteRequest(request) ? answer(new Response("Cross-site request refused.", { status: 403 })) : request
}

/** Core's answer as the server function's: a `303` with its cookies, or the URL with the cookies on Start's response; a `429` thrown with its `Retry-After`. */
function follow(response: Response, fallback: string, redirecting: boolean): string {
  if (response.status === 429) {
    answer(new Response("Too many sign-in requests from this client: try again later.", { status: 429, headers: { "retry-after": response.headers.get("retry-after") ?? "60" } }))
  }
  const location = response.headers.get("location") ?? fallback
  const cookies = response.headers.getSetCookie()
  if (!redirecting) {
    cookies.forEach(toResponse)
    return location
  }
  const headers = new Headers({ location })
  for (const setCookie of cookies) headers.append("set-cookie", setCookie)
  return answer(new Response(null, { status: 303, headers }))
}

/** Splits a posted form into the provider, the options and the authorization parameters a sign-in takes. */
function fromForm(form: FormData): [string | undefined, SignInOptions, Record<string, string>] {
  const options: SignInOptions = {}
  const params: Record<string, string> = {}
  let provider: string | undefined
  form.forEach((value, name) => {
    if (typeof value !== "string") return
    if (name === "providerId") provider = value
    else if (name.startsWith(AUTHORIZATION_PARAM)) params[name.slice(AUTHORIZATION_PARAM.length)] = value
    else options[name] = value
  })
  return [provider, options, params]
}

/** `redirectTo` when given, else the page the form was posted from, else `/`. */
function destination(request: Request, redirectTo: string | boolean | undefined): string {
  return typeof redirectTo === "string" && redirectTo !== "" ? redirectTo : (request.headers.get("referer") ?? "/")
}

/** The request middleware of {@link TanStackStartAuthResult.authMiddleware}, typed by what it adds. */
function requestMiddleware(config: AuthConfig): AuthMiddleware {
  return createMiddleware({ type: "request" }).server(async ({ next, request }) => {
    const renewals: string[] = []
    const session = await getSessionForResponse(request, config, (setCookie) => renewals.push(setCookie))
    const result = await next({ context: { session } })
    for (const setCookie of renewals) result.response.headers.append("set-cookie", setCookie)
    return result
  }) as unknown as AuthMiddleware
}

/**
 * Portcullis for a TanStack Start app: the server route's handlers, its middleware and the
 * functions server functions call. Named as `NextAuth(config)` and `SvelteKitAuth(config)` are,
 * so one call in `src/auth.ts` sets everything up. Core's `basePath` defaults to `/api/auth`, the
 * path of the server route `src/routes/api/auth/$.ts`; set it when the route sits elsewhere.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * export const { GET, POST, auth, signIn, signOut } = TanStackStartAuth({ providers: [GitHub] })
 * // src/routes/api/auth/$.ts
 * export const ServerRoute = createServerFileRoute("/api/auth/$").methods({ GET, POST })
 * ```
 */
export function TanStackStartAuth(config: AuthConfig): TanStackStartAuthResult {
  const handler = ({ request }: RouteArgs): Promise<Response> => Auth(request, config)
  const signIn = async (provider?: string | FormData, options: SignInOptions = {}, authorizationParams?: AuthorizationParams): Promise<string> => {
    if (provider instanceof FormData) return signIn(...fromForm(provider))
    const request = sameSiteRequest()
    const { redirect, redirectTo, ...fields } = options
    const callbackUrl = destination(request, redirectTo)
    const response = await coreSignIn(request, config, provider, { fields: actionFields(fields), redirectTo: callbackUrl, authorizationParams: new URLSearchParams(authorizationParams) })
    return follow(response, callbackUrl, shouldRedirect(redirect))
  }
  return {
    GET: handler,
    POST: handler,
    authMiddleware: requestMiddleware(config),
    auth: () => getSessionForResponse(getWebRequest(), config, toResponse),
    signIn,
    signOut: async (input = {}) => {
      const request = sameSiteRequest()
      const { redirectTo, redirect }: { redirectTo?: string; redirect?: string | boolean } = input instanceof FormData ? { redirectTo: text(input.get("redirectTo")), redirect: text(input.get("redirect")) } : input
      const callbackUrl = destination(request, redirectTo)
      return follow(await coreSignOut(request, config, { redirectTo: callbackUrl }), callbackUrl, shouldRedirect(redirect))
    },
    getAccessToken: (providerId) => getAccessToken(getWebRequest(), config, providerId, toResponse),
    requireRecentAuth: (options) => requireRecentAuthForResponse(getWebRequest(), config, toResponse, options),
    listSessions: async () => (await import("@portcullis/core/sessions")).listSessions(getWebRequest(), config, toResponse),
    revokeSessions: async (target) => (await import("@portcullis/core/sessions")).revokeSessions(sameSiteRequest(), config, target, toResponse),
    unlinkAccount: (options) => unlinkAccount(sameSiteRequest(), config, options),
  }
}
