/**
 * What runs where Next.js gives no `Request`: `auth()` in server components, route handlers and
 * server actions, and the `signIn` / `signOut` / `unstable_update` server actions. Each builds the
 * request from `headers()`, makes one call to core, and hands core's cookies to `cookies()`.
 */
import { getAccessToken, getSessionForResponse, requireRecentAuthForResponse, signIn, signOut, updateSession, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type Session } from "@portcullis/core"
import * as nextCache from "next/cache.js"
import { cookies, headers } from "next/headers.js"
import { redirect } from "next/navigation"
import { actionFields, shouldRedirect, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "@portcullis/core/integration"
import { canSetCookies, setCookieHeaders, setCookies, type CookieStore } from "./cookies.js"
import { requestFromHeaders } from "./request.js"

export type { AuthorizationParams, SignInOptions, SignOutOptions } from "@portcullis/core/integration"

/**
 * Waits until Next.js renders for the request itself. Reading a session reads the clock (the
 * token's expiry) and, on a renewal, random bytes; under Cache Components with partial
 * prefetching Next.js logs an error for either before that point, and `headers()` / `cookies()`
 * resolve earlier (in the stage it prefetches), so they are not enough: the read waits for `io()`
 * first. `io()` resolves at once without Cache Components and inside `'use cache: private'`
 * (where `connection()` would throw); inside a plain `'use cache'` the `headers()` read after it
 * throws Next.js's own error, so one visitor's session is never cached for everyone.
 */
async function requestTime(): Promise<void> {
  // Looked up, not imported by name: Next.js 16.0 to 16.2 have no `io()`, and need no wait.
  const io = (nextCache as { io?: () => Promise<void> }).io
  if (io !== undefined) await io()
}

/**
 * The session of the request being rendered, with a renewal forwarded where Next.js allows
 * setting cookies (route handlers, server actions); while a server component renders it
 * cannot, and the session then rolls on the browser's next visit to a route that can.
 */
export async function sessionFromContext(config: AuthConfig): Promise<Session | null> {
  // The read depends only on the host and cookies, not on the page's path, which `headers()` does not give.
  return readInContext((request, sink) => getSessionForResponse(request, config, sink))
}

/**
 * Core's `requireRecentAuth` for the request being rendered, its renewal forwarded as
 * {@link sessionFromContext} forwards it. Without `callbackUrl`, the browser comes back to the
 * page the request came from (`Referer`, checked by core as every callback URL), else the app's root.
 */
export async function recentAuthFromContext(config: AuthConfig, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  return readInContext((request, sink) => requireRecentAuthForResponse(request, config, sink, { ...options, callbackUrl: options.callbackUrl ?? request.headers.get("referer") ?? undefined }))
}

/** Runs a read of core's for the request being rendered, handing its cookies to `cookies()` where Next.js allows. */
async function readInContext<T>(read: (request: Request, sink: (cookie: string) => void) => Promise<T>): Promise<T> {
  await requestTime()
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const pending: string[] = []
  const answer = await read(requestFromHeaders(incoming, "/"), (cookie) => pending.push(cookie))
  if (pending.length > 0) setCookies(store, pending)
  return answer
}

/**
 * The signed-in user's access token at a provider, for the request being rendered (core's
 * `getAccessToken`), refreshed when due. Where Next.js lets code set cookies (route handlers,
 * server actions) renewed cookies are set; while a server component renders they cannot be, so
 * tokens kept in the session cookie (`tokensInCookie`) are answered while valid and otherwise
 * refused with `RefreshTokenError` before the refresh token is spent. Tokens an adapter stores
 * are refreshed anywhere.
 *
 * @throws {RefreshTokenError} when a due refresh fails or cannot be stored here.
 */
export async function accessTokenFromContext(config: AuthConfig, providerId: string): Promise<AccessToken | null> {
  await requestTime()
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const pending: string[] = []
  const sink = canSetCookies(store) ? (cookie: string) => pending.push(cookie) : undefined
  const token = await getAccessToken(requestFromHeaders(incoming, "/"), config, providerId, sink)
  if (pending.length > 0) setCookies(store, pending)
  return token
}

/** The string fields of a form or options object, without the ones Next.js adds to server-action forms. */
function fieldsOf(options: FormData | SignInOptions | undefined): Record<string, string | boolean | undefined> {
  if (!(options instanceof FormData)) return { ...options }
  const fields: Record<string, string> = {}
  for (const [name, value] of options) if (typeof value === "string" && !name.startsWith("$ACTION")) fields[name] = value
  return fields
}

/** The request a server action runs for, as core takes it (the browser's host and cookies), with its cookie store and `Referer`. */
async function actionRequest(): Promise<{ request: Request; store: CookieStore; referer: string | null }> {
  const [incoming, store] = await Promise.all([headers(), cookies()])
  return { request: requestFromHeaders(incoming, "/"), store, referer: incoming.get("referer") }
}

/** Hands core's cookies to `cookies()` and answers where core sends the browser (`fallback` when core answered in place). */
function follow(response: Response, store: CookieStore, fallback: string): string {
  setCookies(store, setCookieHeaders(response))
  return response.headers.get("location") ?? fallback
}

/**
 * The `unstable_update` server action: core's session update with `data`, which reaches the
 * `jwt` and `session` callbacks as `trigger: "update"`; the re-sealed cookie goes to `cookies()`.
 * Answers the updated session, or `null` when signed out or refused.
 */
export async function updateAction(config: AuthConfig, data: unknown): Promise<Session | null> {
  const { request, store } = await actionRequest()
  const response = await updateSession(request, config, data)
  setCookies(store, setCookieHeaders(response))
  return response.ok ? ((await response.json()) as Session | null) : null
}

/** The `signIn` server action: see `NextAuthResult.signIn`. One call to core, whatever the provider. */
export async function signInAction(
  config: AuthConfig,
  provider: string | undefined,
  options: FormData | SignInOptions | undefined,
  authorizationParams: AuthorizationParams | undefined,
): Promise<string> {
  const { redirect: redirectOption, redirectTo, ...rest } = fieldsOf(options)
  const { request, store, referer } = await actionRequest()
  const callbackUrl = typeof redirectTo === "string" ? redirectTo : (referer ?? "/")
  const response = await signIn(request, config, provider, { fields: actionFields(rest), redirectTo: callbackUrl, authorizationParams: new URLSearchParams(authorizationParams) })
  const target = follow(response, store, callbackUrl)
  if (shouldRedirect(redirectOption)) redirect(target)
  return target
}

/** The `signOut` server action: see `NextAuthResult.signOut`. One call to core. */
export async function signOutAction(config: AuthConfig, options: SignOutOptions | undefined): Promise<string> {
  const { request, store, referer } = await actionRequest()
  const callbackUrl = options?.redirectTo ?? referer ?? "/"
  const target = follow(await signOut(request, config, { redirectTo: callbackUrl }), store, callbackUrl)
  if (shouldRedirect(options?.redirect)) redirect(target)
  return target
}
