/**
 * The server side, in Nitro: each function takes the h3 event and calls core with a web `Request`
 * made from it. Nitro imports them on its own (`auth(event)`), or from `#portcullis/server`.
 *
 * @module
 */
import { appendResponseHeader, createError, getRequestIP, getRequestURL, getRequestWebStream } from "#imports"
import config from "#portcullis/config"
import { basePath } from "#portcullis/options"
import { getAccessToken as coreGetAccessToken, getSessionForResponse, requireRecentAuthForResponse, unlinkAccount as coreUnlinkAccount, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { withClientAddress } from "@portcullis/core/client-address"
import { isCrossSiteRequest } from "@portcullis/core/integration"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { H3Event } from "h3"

/** A `Host` header that is only a host name, IPv4 or bracketed IPv6 address, and a port (RFC 9110 §7.2). */
const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The configuration with the module's `basePath`: made once, the app's own object left as it is. */
let resolved: AuthConfig | undefined

/** Core's configuration, with the base path the module serves the routes under. */
export function authConfig(): AuthConfig {
  return (resolved ??= { ...config, basePath })
}

/**
 * The web `Request` of an event: the runtime's own where it has one (workers), else one made
 * from Node's request, its body streamed once when `withBody`. The URL's origin is the socket's
 * (its protocol, the `Host` header); forwarded headers stay for core to trust or not.
 *
 * @returns `undefined` when the `Host` header is not a plain `host[:port]`: a URL built from
 * `evil.example/path` or `user@host` would name another origin.
 */
export function toRequest(event: H3Event, withBody: boolean): Request | undefined {
  const web = (event as { web?: { request?: Request } }).web?.request
  let request: Request
  if (web !== undefined) {
    request = withBody ? web : new Request(web.url, { method: web.method, headers: web.headers })
  } else {
    let url: URL
    try {
      if (!PLAIN_HOST.test(event.node.req.headers.host ?? "")) return undefined
      url = getRequestURL(event, { xForwardedProto: false })
    } catch {
      // A port past 65535.
      return undefined
    }
    const method = event.method.toUpperCase()
    const body = withBody && method !== "GET" && method !== "HEAD" ? getRequestWebStream(event) : undefined
    request = new Request(url, { method, headers: event.headers, body, duplex: "half" } as RequestInit)
  }
  return withClientAddress(request, getRequestIP(event))
}

/** A sink for core's `Set-Cookie`s: onto the event's response while it is unsent. */
function sink(event: H3Event): (setCookie: string) => void {
  return (setCookie) => {
    if (!event.node.res.headersSent) appendResponseHeader(event, "set-cookie", setCookie)
  }
}

/**
 * Refuses a post another site made the browser send (core's {@link isCrossSiteRequest}): Nuxt and
 * Nitro check no origin, and the server functions skip core's CSRF token.
 *
 * @throws `403` (h3's error).
 */
function refuseCrossSite(request: Request): void {
  if (isCrossSiteRequest(request)) throw createError({ statusCode: 403, statusMessage: "Cross-site request refused" })
}

/**
 * The session of the event's request (read once per request), or `null` when signed out (and
 * for a missing, forged or expired cookie, or a `Host` that is no plain `host[:port]`). A renewed cookie goes onto the event's response.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 * @example
 * ```ts
 * // server/api/me.get.ts
 * export default defineEventHandler(async (event) => (await auth(event))?.user ?? null)
 * ```
 */
export function auth(event: H3Event): Promise<Session | null> {
  const context = event.context as { portcullisSession?: Promise<Session | null> }
  return (context.portcullisSession ??= (() => {
    const request = toRequest(event, false)
    return request === undefined ? Promise.resolve(null) : getSessionForResponse(request, authConfig(), sink(event))
  })())
}

/**
 * Guards a sensitive route (core's `requireRecentAuth`): `{ ok: true, session }` when the user
 * authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
 * `{ ok: false, url }` for `sendRedirect(event, url, 303)`: the sign-in page, `{basePath}/mfa/setup`
 * (level 2 without a second factor) or the re-authentication page, back to the route (pass
 * `callbackUrl` when a page calls it with `$fetch`). A renewed cookie goes onto the event's response.
 *
 * @returns `{ ok: false, url }` to the sign-in page for a `Host` that is no plain `host[:port]`.
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 * @example
 * ```ts
 * // server/api/settings/email.post.ts
 * export default defineEventHandler(async (event) => {
 *   const recent = await requireRecentAuth(event, { callbackUrl: "/settings" })
 *   if (!recent.ok) return sendRedirect(event, recent.url, 303)
 * })
 * ```
 */
export function requireRecentAuth(event: H3Event, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  const request = toRequest(event, false)
  if (request === undefined) return Promise.resolve({ ok: false, url: authConfig().pages?.signIn ?? `${basePath}/signin` })
  return requireRecentAuthForResponse(request, authConfig(), sink(event), options)
}

/**
 * The signed-in user's access token at a provider, refreshed first when it expires within 60
 * seconds (core's `getAccessToken`); `null` when signed out or not linked.
 *
 * @throws {RefreshTokenError} when a due refresh fails; the session stays.
 */
export function getAccessToken(event: H3Event, providerId: string): Promise<AccessToken | null> {
  const request = toRequest(event, false)
  return request === undefined ? Promise.resolve(null) : coreGetAccessToken(request, authConfig(), providerId, sink(event))
}

/**
 * The signed-in user's sessions on every device, the current one first; `null` when signed out.
 *
 * @throws {AuthError} `Configuration` when the adapter keeps no session records.
 */
export async function listSessions(event: H3Event): Promise<SessionInfo[] | null> {
  const request = toRequest(event, false)
  return request === undefined ? null : (await import("@portcullis/core/sessions")).listSessions(request, authConfig(), sink(event))
}

/**
 * Ends sessions of the signed-in user: `{ id }`, `{ others: true }` or `{ all: true }` (which also
 * clears this session's cookie). Refuses a cross-site post.
 *
 * @throws `403` for a cross-site post; {@link AuthError} `UnknownAction` for a malformed target.
 */
export async function revokeSessions(event: H3Event, target: RevokeTarget): Promise<RevokeResult | null> {
  const request = toRequest(event, false)
  if (request === undefined) return null
  refuseCrossSite(request)
  return (await import("@portcullis/core/sessions")).revokeSessions(request, authConfig(), target, sink(event))
}

/**
 * Unlinks one of the signed-in user's accounts, answering what `POST {basePath}/accounts/unlink`
 * answers: return the `Response` from the handler, or read its JSON. Refuses a cross-site post.
 *
 * @throws `403` for a cross-site post.
 */
export function unlinkAccount(event: H3Event, options: ServerUnlinkAccountOptions): Promise<Response> {
  const request = toRequest(event, false)
  if (request === undefined) return Promise.resolve(new Response(null, { status: 400 }))
  refuseCrossSite(request)
  return coreUnlinkAccount(request, authConfig(), options)
}
