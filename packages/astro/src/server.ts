/**
 * `@portcullis/astro/server`: the session and the other server functions for a page's
 * frontmatter or an endpoint, each given Astro's context (`Astro`, or an endpoint's `context`):
 * its request, its cookies (where core's renewals go) and the client's address. `getSession`
 * also takes a bare `Astro.request`, as auth-astro's does.
 *
 * @module server
 */
import { getAccessToken as coreGetAccessToken, getSessionForResponse, requireRecentAuthForResponse, unlinkAccount as coreUnlinkAccount, type AccessToken, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { withClientAddress } from "@portcullis/core/client-address"
import { parseSetCookie } from "@portcullis/core/integration"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { AstroCookies } from "astro"
import { config } from "./config.js"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** What the functions read of Astro's context: `Astro` in a page, `context` in an endpoint or middleware. */
export interface AstroContext {
  request: Request
  cookies: AstroCookies
  /** Astro's getter, which throws where the adapter cannot tell (a prerendered page). */
  readonly clientAddress?: string
}

/** The request, tagged with the client's address for core's per-client limits when Astro knows it. */
export function addressed(context: { request: Request; readonly clientAddress?: string }): Request {
  let address: string | undefined
  try {
    address = context.clientAddress
  } catch {
    // Astro throws here for a prerendered page or an adapter without addresses: core then counts no client.
  }
  return withClientAddress(context.request, address)
}

/** Where core's `Set-Cookie`s go: Astro's cookies, written on the response; the value exactly as core wrote it. */
function cookieSink(cookies: AstroCookies): (setCookie: string) => void {
  return (setCookie) => {
    const cookie = parseSetCookie(setCookie)
    if (cookie === undefined) return
    // Astro's cookie options have no `priority`; core sets none on its cookies.
    const { priority: _priority, ...attributes } = cookie.attributes
    cookies.set(cookie.name, cookie.value, { ...attributes, encode: (value) => value })
  }
}

/**
 * The session of the request, or `null` when signed out (and for a missing, forged or expired
 * cookie). Given the context, a renewed session cookie (a slid expiry) is written with its
 * cookies; given only `Astro.request`, the renewal waits for the next read that can write it.
 * `Astro.locals.auth()` is this, read once per request.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 * @example
 * ```astro
 * ---
 * import { getSession } from "@portcullis/astro/server"
 * const session = await getSession(Astro)
 * ---
 * ```
 */
export function getSession(from: Request | AstroContext): Promise<Session | null> {
  if (from instanceof Request) return getSessionForResponse(from, config, () => undefined)
  return getSessionForResponse(addressed(from), config, cookieSink(from.cookies))
}

/**
 * Guards a sensitive page or endpoint (core's `requireRecentAuth`): `{ ok: true, session }` when
 * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
 * `{ ok: false, url }` for `Astro.redirect(url, 303)`: the sign-in page, `{basePath}/mfa/setup`
 * (level 2 without a second factor) or the re-authentication page, back to this page. A renewal is
 * written with the context's cookies, as `getSession`'s.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 * @example
 * ```astro
 * ---
 * import { requireRecentAuth } from "@portcullis/astro/server"
 * const recent = await requireRecentAuth(Astro)
 * if (!recent.ok) return Astro.redirect(recent.url, 303)
 * ---
 * ```
 */
export function requireRecentAuth(context: AstroContext, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  return requireRecentAuthForResponse(addressed(context), config, cookieSink(context.cookies), options)
}

/**
 * The signed-in user's access token at a provider, refreshed first when it expires within 60
 * seconds; `null` when signed out or not linked. Renewed cookies are written with the context's.
 *
 * @throws {RefreshTokenError} when a due refresh fails; the session stays.
 */
export function getAccessToken(context: AstroContext, providerId: string): Promise<AccessToken | null> {
  return coreGetAccessToken(addressed(context), config, providerId, cookieSink(context.cookies))
}

/**
 * The signed-in user's sessions on every device, the current one first; `null` when signed out.
 *
 * @throws {AuthError} `Configuration` when the adapter keeps no session records.
 */
export async function listSessions(context: AstroContext): Promise<SessionInfo[] | null> {
  return (await import("@portcullis/core/sessions")).listSessions(addressed(context), config, cookieSink(context.cookies))
}

/**
 * Ends sessions of the signed-in user: `{ id }`, `{ others: true }` or `{ all: true }` (which also
 * clears this session's cookie). Core's CSRF token is not checked: call it from a `POST` that
 * Astro's `security.checkOrigin` guards (on by default), never from a `GET`.
 *
 * @throws {AuthError} `UnknownAction` for a malformed target, `Configuration` when the adapter keeps no session records.
 */
export async function revokeSessions(context: AstroContext, target: RevokeTarget): Promise<RevokeResult | null> {
  return (await import("@portcullis/core/sessions")).revokeSessions(addressed(context), config, target, cookieSink(context.cookies))
}

/**
 * Unlinks one of the signed-in user's accounts, answering what `POST {basePath}/accounts/unlink`
 * answers: return the `Response` from an endpoint, or read its JSON. As for
 * {@link revokeSessions}, call it from a `POST` Astro's origin check guards.
 */
export function unlinkAccount(context: AstroContext, options: ServerUnlinkAccountOptions): Promise<Response> {
  return coreUnlinkAccount(addressed(context), config, options)
}
