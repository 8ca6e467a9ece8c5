/**
 * `@portcullis/core`: `Auth(request, config)` and the public types.
 *
 * @module
 */
import { callback } from "./actions/callback.js"
import { csrf } from "./actions/csrf.js"
import { flowRoute } from "./actions/flow.js"
import { providers } from "./actions/providers.js"
import { session, updateSession } from "./actions/session.js"
import { signIn } from "./actions/signin.js"
import { signOut, signOutCallback } from "./actions/signout.js"
import { limitClient } from "./limits/client-limit-gate.js"
import { resolveConfig } from "./config/config.js"
import { createContext } from "./http/context.js"
import type { InternalConfig, RequestContext } from "./internal.js"
import { parseRoute, type Action } from "./http/routes.js"
import type { AuthConfig } from "./types.js"

export type { Adapter, AdapterAccount, AdapterAccountKey, AdapterSession, AdapterSessionRecord, AdapterUser, AdapterUserFields, Awaitable, NewAdapterUser, SessionRecordFilter, StrictAdapter, VerificationToken } from "./adapters.js"
export type { AuthErrorCode } from "./errors/errors.js"
export type { Account, Profile, ProviderType, TokenSet, User } from "./model.js"
export type { CredentialInput, CredentialsConfig, EmailConfig, Provider, SendVerificationRequestParams } from "./providers/types.js"
export type * from "./types.js"
export { getSession, getSessionForResponse, requireRecentAuth, requireRecentAuthForResponse, type RecentAuth, type RecentAuthCheck, type SetCookieSink } from "./server/get-session.js"
export { getAccessToken, type AccessToken } from "./server/access-token.js"
export { memoryRateLimitStore, type RateLimitCount, type RateLimitStore } from "./limits/rate-limit-store.js"
export { envFlag, envName, envValue, readEnv, type Env } from "./config/env.js"
export { customFetch } from "./config/flow-key.js"
export {
  authBase,
  changeEmail,
  deleteAccount,
  signIn,
  signOut,
  unlinkAccount,
  updateSession,
  type AccountActionResult,
  type AuthBase,
  type ServerChangeEmailOptions,
  type ServerDeleteAccountOptions,
  type ServerSignInOptions,
  type ServerSignOutOptions,
  type ServerUnlinkAccountOptions,
} from "./server/server.js"

// How a failed or unknown request is answered loads with the first such request: an app's ordinary requests never need it.
const failures = () => import("./http/failures.js")

type Handler = (context: RequestContext, providerId: string | undefined, flowRoute: string | undefined) => Promise<Response> | Response

// Listing and ending sessions needs session records: an app that never serves them loads none of it.
const sessions = (method: "GET" | "POST"): Handler => async (context, sub) => (await import("./actions/sessions.js")).sessionsRoute(context, method, sub)
// The default sign-in and sign-out pages load when one is asked for, as their markup does.
const signInPage: Handler = async (context) => (await import("./actions/signin-page.js")).signInPage(context)
const signOutPage: Handler = async (context) => (await import("./actions/signout-page.js")).signOutPage(context)
// The user's linked accounts (list, unlink) are seldom looked at: their routes load on first use.
const accounts: Handler = async (context, action) => (await import("./actions/accounts.js")).accountsRoute(context, action)
// Second factors and re-authentication: apps that configure neither load none of their code.
const mfa = (method: "GET" | "POST"): Handler => async (context, sub) => (await import("./factors/routes.js")).mfaRoute(context, method, sub ?? "")
const reauth = (method: "GET" | "POST"): Handler => async (context, sub) => (await import("./reauth/routes.js")).reauthRoute(context, method, sub ?? "")
// Account settings (email change, deletion) are seldom used: their routes load on first use.
const account = (method: "GET" | "POST"): Handler => async (context, sub) => (await import("./account/routes.js")).accountRoute(context, method, sub ?? "")
// Password accounts' sign-up, reset and change: served by the `Password()` provider's flow, loaded only when one is configured.
const password = (method: "GET" | "POST"): Handler => async (context, sub) => (await import("./actions/password.js")).passwordRoute(context, method, sub ?? "")

const GET: Partial<Record<Action, Handler>> = {
  providers: (context) => providers(context),
  csrf: (context) => csrf(context),
  signin: signInPage,
  session: (context) => session(context),
  sessions: sessions("GET"),
  signout: signOutPage,
  "signout-callback": (context, id) => signOutCallback(context, id ?? ""),
  // The error and check-your-email pages are served seldom (and by the email flow only): their routes load on first use.
  error: async (context) => (await import("./actions/error.js")).error(context),
  callback: (context, id) => callback(context, id ?? ""),
  "verify-request": async (context) => (await import("./actions/verify-request.js")).verifyRequest(context),
  flow: (context, id, name) => flowRoute(context, "GET", id ?? "", name ?? ""),
  accounts,
  mfa: mfa("GET"),
  reauth: reauth("GET"),
  account: account("GET"),
  password: password("GET"),
}

const POST: Partial<Record<Action, Handler>> = {
  signin: (context, id, name) => (id === undefined ? signInPage(context, id, name) : signIn(context, id)),
  callback: (context, id) => callback(context, id ?? ""),
  signout: (context) => signOut(context),
  session: (context) => updateSession(context),
  sessions: sessions("POST"),
  flow: (context, id, name) => flowRoute(context, "POST", id ?? "", name ?? ""),
  accounts,
  mfa: mfa("POST"),
  reauth: reauth("POST"),
  account: account("POST"),
  password: password("POST"),
}

/**
 * Handles one request to the authentication routes and never throws: every failure becomes
 * a redirect to the sign-in or error page, or a JSON error, and is logged with its cause.
 *
 * @example
 * ```ts
 * import { Auth } from "@portcullis/core"
 * import GitHub from "@portcullis/providers/github"
 *
 * export const handler = (request: Request) => Auth(request, { providers: [GitHub()], secret: process.env.AUTH_SECRET })
 * ```
 */
export async function Auth(request: Request, config: AuthConfig): Promise<Response> {
  let context: RequestContext | undefined
  let action: Action | undefined
  let internal: InternalConfig | undefined
  try {
    internal = await resolveConfig(config)
    const url = new URL(request.url)
    const route = parseRoute(url.pathname, internal.basePath, internal.flowRoutes)
    if (route === undefined) return await (await failures()).notFound(request, url, internal)
    action = route.action
    context = createContext(internal, request, url)
    const table = request.method === "GET" || request.method === "HEAD" ? GET : request.method === "POST" ? POST : undefined
    const handler = table?.[route.action]
    if (handler === undefined) {
      internal.logger.debug(`Method ${request.method} is not allowed on /${route.action}.`)
      return await (await failures()).methodNotAllowed(context, route.action in GET, route.action in POST)
    }
    return (await limitClient(context, route)) ?? (await handler(context, route.providerId, route.flowRoute))
  } catch (thrown) {
    return (await failures()).answerFailure(thrown, { request, config, internal, context, action })
  }
}
