/**
 * Where things live: the route of each action under `basePath`, and the pages a browser is
 * sent to (the app's own `pages` when configured).
 */
import type { RequestContext } from "../internal.js"
import { isPublicCode, type AuthErrorCode } from "../errors/errors.js"

/**
 * The actions `Auth()` serves; `flow` is a route a provider's flow adds (see `SignInFlow.routes`).
 * `accounts` is `/accounts` and `/accounts/unlink` (the segment after it is read as the route's id).
 * `mfa` is the second factor's routes (`/mfa`, `/mfa/verify`, `/mfa/totp/setup`: the rest of the
 * path, up to two segments, is read as the route's id); `reauth` the re-authentication page;
 * `account` the account settings (`/account/email`, `/account/email/confirm`, `/account/delete`).
 * `password` is `Password()`'s sign-up, reset and change routes (`/password/signup`...), served
 * only when such a provider is configured.
 */
export type Action = "providers" | "csrf" | "signin" | "callback" | "session" | "sessions" | "signout" | "signout-callback" | "error" | "verify-request" | "flow" | "accounts" | "mfa" | "reauth" | "account" | "password"

const ACTIONS = new Set<string>(["providers", "csrf", "signin", "callback", "session", "sessions", "signout", "error", "verify-request", "accounts", "mfa", "reauth", "account", "password"])
/** The actions whose id may have two segments (`/mfa/totp/setup`, `/account/email/confirm`). */
const NESTED = new Set<string>(["mfa", "account"])
const NO_FLOW_ROUTES: ReadonlySet<string> = new Set()

/** What a path under `basePath` names: an action, the provider id after it, and for `flow` the route's name. */
export interface Route {
  action: Action
  providerId: string | undefined
  flowRoute?: string
}

/** The route a path names, or `undefined` when it names none. `flowRoutes` are the names the configured flows add. */
export function parseRoute(pathname: string, basePath: string, flowRoutes: ReadonlySet<string> = NO_FLOW_ROUTES): Route | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined
  let rest = pathname.slice(basePath.length + 1).replace(/\/$/, "")
  // `/signout/callback/:id`: where a provider's own sign-out sends the browser back.
  let signOutCallback = false
  if (rest.startsWith("signout/callback/")) {
    rest = rest.slice("signout/".length)
    signOutCallback = true
  }
  const slash = rest.indexOf("/")
  const action = slash === -1 ? rest : rest.slice(0, slash)
  const flow = !ACTIONS.has(action) && flowRoutes.has(action)
  if (!ACTIONS.has(action) && !flow) return undefined
  if (slash === -1) return flow ? undefined : { action: action as Action, providerId: undefined }
  const providerId = rest.slice(slash + 1)
  const segments = providerId.split("/")
  if (segments.includes("") || segments.length > (NESTED.has(action) ? 2 : 1)) return undefined
  let decoded: string
  try {
    decoded = decodeURIComponent(providerId)
  } catch {
    return undefined
  }
  if (signOutCallback) return { action: "signout-callback", providerId: decoded }
  return flow ? { action: "flow", providerId: decoded, flowRoute: action } : { action: action as Action, providerId: decoded }
}

function withQuery(base: string, origin: string, query: Record<string, string | undefined>): string {
  const url = new URL(base, origin)
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

/**
 * The sign-in page, with an error code to show (and, for a refused credentials sign-in, its
 * public `code`), the page to return to, and for a `MissingCSRF` the other loopback origin the
 * form was opened at (`openedAt`, described by the page, never linked to).
 */
export function signInPageUrl(
  context: RequestContext,
  query: { error?: AuthErrorCode; code?: string; callbackUrl?: string; openedAt?: string } = {},
): string {
  // The public reason may come from an app's CredentialsSignin subclass: only a safe one is shown.
  const code = isPublicCode(query.code) ? query.code : undefined
  return withQuery(context.config.pages.signIn ?? `${context.config.basePath}/signin`, context.origin, { ...query, code })
}

/** The "check your email" page shown after a sign-in link was sent. */
export function verifyRequestUrl(context: RequestContext, providerId: string): string {
  const page = context.config.pages.verifyRequest ?? `${context.config.basePath}/verify-request`
  return withQuery(page, context.origin, { provider: providerId, type: "email" })
}

/** The error page for a code. */
export function errorPageUrl(context: RequestContext, code: AuthErrorCode): string {
  return withQuery(context.config.pages.error ?? `${context.config.basePath}/error`, context.origin, { error: code })
}

/** The route a provider's sign-in form posts to. */
export function signInUrl(context: RequestContext, providerId: string): string {
  return `${context.authUrl}/signin/${encodeURIComponent(providerId)}`
}

/** The callback route of a provider on the request's origin: where a credentials form posts. */
export function callbackUrl(context: RequestContext, providerId: string): string {
  return `${context.authUrl}/callback/${encodeURIComponent(providerId)}`
}
