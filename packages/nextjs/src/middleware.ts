/**
 * `auth` used as middleware (Next.js 16 `proxy`) and `auth(callback)`, the wrapper that gives a
 * middleware or route handler `request.auth`.
 */
import { authBase, getSessionForResponse, signIn, type AuthConfig, type Awaitable, type Session } from "@portcullis/core"
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server.js"
import { authorizedCallback } from "./config.js"
import { forCore } from "./request.js"

/** A request with its session, as `auth(callback)` hands it to the callback. */
export interface NextAuthRequest extends NextRequest {
  /** The session, or `null` when signed out. */
  auth: Session | null
}

/** The second argument Next.js passes: the fetch event in middleware, `{ params }` in route handlers. */
export type MiddlewareOrRouteContext = NextFetchEvent | { params: Promise<Record<string, string | string[] | undefined>> }

/** What `auth(callback)` wraps: a middleware or a route handler that reads `request.auth`. */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a middleware may return nothing, as in Next.js's own type
export type AuthCallback = (request: NextAuthRequest, context: MiddlewareOrRouteContext) => Awaitable<Response | undefined | null | void>

/** A middleware / route handler as Next.js calls it. */
export type AuthHandler = (request: NextRequest, context: MiddlewareOrRouteContext) => Promise<Response>

/** A response whose headers accept the renewal's cookies (a `Response.redirect` has immutable ones). */
function withCookies(response: Response, cookies: readonly string[]): Response {
  if (cookies.length === 0) return response
  let out = response
  try {
    for (const cookie of cookies) out.headers.append("set-cookie", cookie)
  } catch {
    out = new Response(response.body, response)
    for (const cookie of cookies) out.headers.append("set-cookie", cookie)
  }
  return out
}

/**
 * Whether the request is for one of core's own routes (under its base path), which middleware
 * lets through. On a host the app does not trust (which the session read has already logged)
 * core serves no route, so nothing is let through unchecked.
 */
async function isAuthRoute(request: Request, pathname: string, config: AuthConfig): Promise<boolean> {
  try {
    return pathname.startsWith(`${(await authBase(request, config)).basePath}/`)
  } catch {
    return false
  }
}

/**
 * Core's redirect to the sign-in page, with the path the browser was going to as `callbackUrl`;
 * `undefined` on the sign-in page itself, where it would loop. A host the app does not trust gets
 * core's own answer, which says so.
 */
async function signInRedirect(request: NextRequest, core: Request, config: AuthConfig): Promise<Response | undefined> {
  const { pathname, search } = request.nextUrl
  const answer = await signIn(core, config, undefined, { redirectTo: `${pathname}${search}` })
  const location = answer.headers.get("location")
  if (location === null) return answer
  if (new URL(location).pathname === pathname) return undefined
  return NextResponse.redirect(location)
}

/**
 * Runs for one request in middleware or a wrapped route handler: reads the session (its renewal
 * goes onto the response), asks the `authorized` callback, then calls `callback` when given.
 * `authorized` returning `false` redirects to sign-in only without a callback, which then
 * decides itself from `request.auth`, as in next-auth.
 */
export async function handleWithSession(
  config: AuthConfig,
  request: NextRequest,
  context: MiddlewareOrRouteContext,
  callback: AuthCallback | undefined,
): Promise<Response> {
  const renewal: string[] = []
  const core = forCore(request)
  const session = await getSessionForResponse(core, config, (cookie) => renewal.push(cookie))
  const authorized = authorizedCallback(config)
  const ownRoute = authorized !== undefined && (await isAuthRoute(core, request.nextUrl.pathname, config))
  const verdict = authorized === undefined || ownRoute ? true : await authorized({ request, auth: session })
  let response: Response | undefined
  if (verdict instanceof Response) response = verdict
  else if (callback !== undefined) {
    const augmented = request as NextAuthRequest
    augmented.auth = session
    response = (await callback(augmented, context)) ?? undefined
  } else if (verdict === false) response = await signInRedirect(request, core, config)
  return withCookies(response ?? NextResponse.next(), renewal)
}
