/**
 * `auth` used as middleware (Next.js 16 `proxy`) and `auth(callback)`, the wrapper that gives a
 * middleware or route handler `request.auth`.
 */
import { envValue, getSessionForResponse, type AuthConfig, type Awaitable, type Session } from "@portcullis/core"
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server.js"
import { authorizedCallback, basePathOf } from "./config.js"
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
 * The origin the browser is on: `url` / `AUTH_URL` when set, else the `Host` it sent. Next.js's
 * own `request.url` may name another (`localhost` for `127.0.0.1`).
 */
function browserOrigin(request: NextRequest, config: AuthConfig): string {
  const configured = config.url ?? envValue("AUTH_URL")
  if (configured !== undefined && URL.canParse(configured)) return new URL(configured).origin
  const host = request.headers.get("host")
  const fromHost = host === null ? undefined : `${request.nextUrl.protocol}//${host}`
  return fromHost !== undefined && URL.canParse(fromHost) && new URL(fromHost).host === host ? new URL(fromHost).origin : request.nextUrl.origin
}

/**
 * The sign-in page with a way back to where the browser was going, as a same-origin path (core
 * accepts those as `callbackUrl`).
 */
function signInRedirect(request: NextRequest, config: AuthConfig): Response | undefined {
  const { pathname, search } = request.nextUrl
  const url = new URL(config.pages?.signIn ?? `${basePathOf(config)}/signin`, browserOrigin(request, config))
  // Already on the sign-in page: sending it there again would loop.
  if (url.pathname === pathname) return undefined
  url.searchParams.set("callbackUrl", `${pathname}${search}`)
  return NextResponse.redirect(url)
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
  const session = await getSessionForResponse(forCore(request), config, (cookie) => renewal.push(cookie))
  const authorized = authorizedCallback(config)
  const ownRoute = request.nextUrl.pathname.startsWith(`${basePathOf(config)}/`)
  const verdict = authorized === undefined || ownRoute ? true : await authorized({ request, auth: session })
  let response: Response | undefined
  if (verdict instanceof Response) response = verdict
  else if (callback !== undefined) {
    const augmented = request as NextAuthRequest
    augmented.auth = session
    response = (await callback(augmented, context)) ?? undefined
  } else if (verdict === false) response = signInRedirect(request, config)
  return withCookies(response ?? NextResponse.next(), renewal)
}
