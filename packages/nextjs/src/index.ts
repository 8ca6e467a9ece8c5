/**
 * `@portcullis/nextjs`: `@portcullis/core` in the Next.js App Router with next-auth v5's API. `NextAuth(config)`
 * gives the route handlers, `auth()` (server components, route handlers, server actions,
 * middleware / `proxy`), and the `signIn` / `signOut` server actions. Works on the Node.js and
 * the edge runtime. Conversion only: every check lives in core.
 *
 * @module
 */
import { Auth, type AccessToken, type RecentAuth, type RecentAuthCheck, type Session } from "@portcullis/core"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { NextRequest } from "next/server.js"
import { configFor, type NextAuthConfigInput } from "./config.js"
import { handleWithSession, type AuthCallback, type AuthHandler, type MiddlewareOrRouteContext } from "./middleware.js"
import { forCore } from "./request.js"
import { accessTokenFromContext, recentAuthFromContext, sessionFromContext, signInAction, signOutAction, updateAction, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "./server.js"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, DefaultSession, Profile, RecentAuth, RecentAuthCheck, Session, User } from "@portcullis/core"
export type { AuthorizedParams, NextAuthCallbacks, NextAuthConfig, NextAuthConfigInput } from "./config.js"
export type { AuthCallback, AuthHandler, MiddlewareOrRouteContext, NextAuthRequest } from "./middleware.js"
export type { AuthorizationParams, SignInOptions, SignOutOptions } from "./server.js"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** A route handler of `app/api/auth/[...nextauth]/route.ts`. */
export type RouteHandler = (request: NextRequest) => Promise<Response>

/** `auth`: called bare, as middleware, or around a middleware or route handler. */
export interface NextAuthAuth {
  /** The session in a server component, route handler or server action; `null` when signed out. */
  (): Promise<Session | null>
  /** `auth` itself as middleware (`export { auth as proxy }`): applies the `authorized` callback. */
  (request: NextRequest, context?: MiddlewareOrRouteContext): Promise<Response>
  /** A middleware or route handler that reads `request.auth`. */
  (callback: AuthCallback): AuthHandler
}

/** What `NextAuth(config)` returns. */
export interface NextAuthResult {
  /** `export const { GET, POST } = handlers` in `app/api/auth/[...nextauth]/route.ts`. */
  handlers: { GET: RouteHandler; POST: RouteHandler }
  auth: NextAuthAuth
  /**
   * Server action: signs in with a provider (the sign-in page when no id is given), then
   * redirects to the provider, or with `redirect: false` returns that URL. `options` may be the
   * action's `FormData`; `authorizationParams` go to the provider's authorization URL.
   *
   * @throws Next.js's redirect signal when redirecting: call it outside `try`, as `redirect()`.
   */
  signIn: (provider?: string, options?: FormData | SignInOptions, authorizationParams?: AuthorizationParams) => Promise<string>
  /**
   * Server action: signs out (ending the session in core), then redirects to `redirectTo`, or
   * with `redirect: false` returns that URL.
   *
   * @throws Next.js's redirect signal when redirecting.
   */
  signOut: (options?: SignOutOptions) => Promise<string>
  /**
   * next-auth's session update from a server action or route handler: `data` reaches the `jwt`
   * callback as `session` and the `session` callback as `newSession`, with `trigger: "update"`.
   * Resolves to the updated session, or `null` when signed out.
   */
  unstable_update: (data: Partial<Session>) => Promise<Session | null>
  /**
   * The signed-in user's access token at a provider (`{ accessToken, expiresAt?, scope?,
   * tokenType? }`), refreshed when it has expired or expires within 60 seconds; `null` when
   * signed out or not linked to that provider. In a server component, tokens kept in the session
   * cookie (`tokensInCookie`) cannot be renewed there: a due refresh rejects with
   * `RefreshTokenError` saying to call it from a route handler or server action.
   *
   * @throws {RefreshTokenError} when a due refresh fails.
   * @example
   * ```ts
   * const token = await getAccessToken("github")
   * const repos = token && (await fetch("https://api.github.com/user/repos", { headers: { authorization: `Bearer ${token.accessToken}` } }))
   * ```
   */
  getAccessToken: (providerId: string) => Promise<AccessToken | null>
  /**
   * Guards a sensitive page, route handler or server action (core's `requireRecentAuth`):
   * `{ ok: true, session }` when the user authenticated within `maxAge` seconds (default
   * `session.reauthAge`) at `level`; else `{ ok: false, url }`: the sign-in page, `/mfa/setup`
   * (level 2 without a second factor) or the re-authentication page, back to `callbackUrl`
   * (default: the page the request came from). Read it in a route handler or server action where
   * it can: a server component cannot set cookies, so with `session.idleTimeout` its read does not
   * count as activity.
   *
   * @example
   * ```ts
   * const recent = await requireRecentAuth({ maxAge: 300 })
   * if (!recent.ok) redirect(recent.url)
   * ```
   */
  requireRecentAuth: (options?: RecentAuthCheck) => Promise<RecentAuth>
  /**
   * The signed-in user's sessions on every device (core's `listSessions`), the current one first;
   * `null` when signed out. Needs an adapter that keeps session records.
   *
   * @throws {Configuration} when the adapter keeps no session records.
   */
  listSessions: () => Promise<SessionInfo[] | null>
  /**
   * Server action or route handler: ends sessions of the signed-in user (core's `revokeSessions`):
   * `{ id }`, `{ others: true }` or `{ all: true }` (sign out everywhere; the answer's `url` is
   * where to send the browser, `redirectTo` by default). `null` when signed out.
   *
   * @throws {Configuration} when the adapter keeps no session records.
   */
  revokeSessions: (target: RevokeTarget, options?: { redirectTo?: string }) => Promise<RevokeResult | null>
}

/**
 * Sets up Auth.js for a Next.js App Router app: the one call next-auth v5 apps make, in `auth.ts`.
 * `config` is core's `AuthConfig` plus the `authorized` callback, or a function of the request
 * (`undefined` outside middleware and route handlers) returning it. `secret`, `url` and each
 * provider's `clientId` / `clientSecret` default to `AUTH_SECRET`, `AUTH_URL` and
 * `AUTH_<PROVIDER>_ID` / `_SECRET`; the routes live under `/api/auth`.
 *
 * @example
 * ```ts
 * // auth.ts
 * import NextAuth from "@portcullis/nextjs"
 * import GitHub from "@portcullis/providers/github"
 * export const { handlers, auth, signIn, signOut } = NextAuth({ providers: [GitHub()] })
 *
 * // app/api/auth/[...nextauth]/route.ts
 * import { handlers } from "@/auth"
 * export const { GET, POST } = handlers
 * ```
 */
export default function NextAuth(config: NextAuthConfigInput): NextAuthResult {
  const handler: RouteHandler = async (request) => Auth(forCore(request), await configFor(config, request))

  function auth(): Promise<Session | null>
  function auth(request: NextRequest, context?: MiddlewareOrRouteContext): Promise<Response>
  function auth(callback: AuthCallback): AuthHandler
  function auth(...args: [] | [NextRequest, MiddlewareOrRouteContext?] | [AuthCallback]): Promise<Session | Response | null> | AuthHandler {
    const [first, context] = args
    if (first === undefined) return configFor(config, undefined).then(sessionFromContext)
    if (typeof first === "function") {
      return async (request, routeContext) => handleWithSession(await configFor(config, request), request, routeContext, first)
    }
    return configFor(config, first).then((resolved) => handleWithSession(resolved, first, context ?? { params: Promise.resolve({}) }, undefined))
  }

  return {
    handlers: { GET: handler, POST: handler },
    auth,
    signIn: async (provider, options, authorizationParams) => signInAction(await configFor(config, undefined), provider, options, authorizationParams),
    signOut: async (options) => signOutAction(await configFor(config, undefined), options),
    unstable_update: async (data) => updateAction(await configFor(config, undefined), data),
    getAccessToken: async (providerId) => accessTokenFromContext(await configFor(config, undefined), providerId),
    requireRecentAuth: async (options) => recentAuthFromContext(await configFor(config, undefined), options),
    listSessions: async () => (await import("./sessions.js")).sessionsFromContext(await configFor(config, undefined)),
    revokeSessions: async (target, options) => (await import("./sessions.js")).revokeFromContext(await configFor(config, undefined), target, options?.redirectTo),
  }
}

export { NextAuth }
