/**
 * `@portcullis/express`: `@portcullis/core` on Express 4 and 5. `ExpressAuth(config)` serves the auth routes
 * where it is mounted; `getSession(req, config)` reads the session in any route and forwards
 * its renewal to the response. Conversion only: every check lives in core.
 *
 * @module
 */
import { Auth, getAccessToken as coreGetAccessToken, getSessionForResponse, requireRecentAuthForResponse, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type Session } from "@portcullis/core"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import { withClientAddress } from "@portcullis/core/client-address"
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express"
import { toWebRequest } from "./request.js"
import { appendSetCookie, sendResponse } from "./response.js"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, Profile, Session, User } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** The configuration of {@link ExpressAuth} and {@link getSession}: core's `AuthConfig`. Its `basePath` is taken from where `ExpressAuth` is mounted. */
export type ExpressAuthConfig = AuthConfig

/** What {@link getSession} resolves to. */
export type GetSessionResult = Promise<Session | null>

/** How many mount paths one handler remembers a configuration for (case variants of one mount count apart). */
const MAX_MOUNTS = 8

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * The path the handler is mounted on: `req.baseUrl` without what the mount's wildcard matched
 * (`/auth` for `app.use("/auth/*")`, `/auth/{*splat}` or `/auth/*splat` serving `/auth/signin/github`).
 * Express 4 names a wildcard `0` and gives it as decoded text; Express 5 gives an array of
 * decoded segments; the raw segments are matched against it from the end.
 */
function mountPath(req: ExpressRequest): string {
  const params = req.params as Record<string, unknown>
  const wildcards = Object.entries(params).filter(([key, value]) => Array.isArray(value) || /^\d+$/.test(key))
  const last = wildcards.at(-1)?.[1]
  const matched = Array.isArray(last) ? last.join("/") : typeof last === "string" ? last : ""
  const raw = req.baseUrl.split("/")
  for (let taken = 0; taken < raw.length; taken++) {
    if (safeDecode(raw.slice(raw.length - taken).join("/")) === matched) return raw.slice(0, raw.length - taken).join("/")
  }
  return req.baseUrl
}

/**
 * Serves the auth routes (`/signin`, `/callback/:provider`, `/session`, `/signout`, ...) under
 * the path it is mounted on with `app.use`, which becomes `basePath`. Mount it with a wildcard in
 * the syntax of your Express version; body parsers mounted before it are fine. Registered as a
 * route instead (`app.all("/api/auth/*", ...)`), it serves the config's `basePath`.
 *
 * A request whose Host (or trusted `X-Forwarded-Host`) is not a plain `host[:port]` is answered
 * `400`; anything else reaching the handler is answered by `Auth()`, which never throws.
 *
 * Core's per-client limits (`rateLimit.perClient`) count each client by `req.ip`: the socket's
 * address, or with `trust proxy` set the client your proxies name in `X-Forwarded-For`. Set
 * `trust proxy` to the proxies you run (`1`, `"loopback"`), never `true` on a server clients
 * reach directly, or every client picks its own address. A `clientAddress` in the config wins.
 *
 * @example
 * ```ts
 * import express from "express"
 * import { ExpressAuth } from "@portcullis/express"
 * import GitHub from "@portcullis/providers/github"
 *
 * const app = express()
 * app.set("trust proxy", true) // only behind a proxy you control
 * app.use("/auth/*", ExpressAuth({ providers: [GitHub()] })) // Express 5: "/auth/{*splat}"
 * ```
 */
export function ExpressAuth(config: ExpressAuthConfig): (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => Promise<void> {
  const mounted = new Map<string, AuthConfig>()
  const configFor = (basePath: string): AuthConfig => {
    let found = mounted.get(basePath)
    if (found === undefined) {
      found = { ...config, basePath }
      if (mounted.size < MAX_MOUNTS) mounted.set(basePath, found)
    }
    return found
  }
  return async (req, res, next) => {
    try {
      const request = toWebRequest(req, { body: true })
      if (request === undefined) {
        res.status(400).end()
        return
      }
      // Used as a route (`app.all(...)`) rather than mounted, there is no mount path: the config's basePath stands.
      const basePath = mountPath(req)
      // `req.ip` is the socket's address, or under `trust proxy` the client a trusted proxy names: the per-client limits' key.
      await sendResponse(await Auth(withClientAddress(request, req.ip), basePath === "" ? config : configFor(basePath)), res)
    } catch (error) {
      next(error)
    }
  }
}

/**
 * Reads the session of an Express request, in any route or middleware, and appends the
 * `Set-Cookie` of a renewal (a slid expiry) to `req.res`, so sessions keep rolling on
 * server-rendered pages. Call it before the response is sent; a renewal found after that is
 * dropped. `null` when signed out, and for a missing, forged or expired cookie or a request
 * without a usable host.
 *
 * @throws {AuthError} for the server's own faults only: an invalid configuration, a failing
 * adapter, a throwing `jwt` or `session` callback.
 * @example
 * ```ts
 * import { getSession } from "@portcullis/express"
 *
 * app.use(async (req, res, next) => {
 *   res.locals.session = await getSession(req, authConfig)
 *   next()
 * })
 * ```
 */
export async function getSession(req: ExpressRequest, config: ExpressAuthConfig): GetSessionResult {
  const request = toWebRequest(req, { body: false })
  if (request === undefined) return null
  const res = req.res
  return getSessionForResponse(request, config, (setCookie) => {
    if (res !== undefined && !res.headersSent) appendSetCookie(res, setCookie)
  })
}

/**
 * Guards a sensitive route of the app (core's `requireRecentAuth`): `{ ok: true, session }` when
 * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
 * `{ ok: false, url }`, where to send the browser: the sign-in page, `{basePath}/mfa/setup` (level 2
 * without a second factor) or the re-authentication page, back to this page. A renewal's
 * `Set-Cookie` goes to `req.res`, as `getSession` does. A request without a usable host gets
 * `{ ok: false, url: "/" }`.
 *
 * @throws {AuthError} for the server's own faults only, as `getSession`.
 * @example
 * ```ts
 * import { requireRecentAuth } from "@portcullis/express"
 *
 * app.post("/settings/email", async (req, res) => {
 *   const recent = await requireRecentAuth(req, authConfig)
 *   if (!recent.ok) return res.redirect(303, recent.url)
 *   // ... change the email of recent.session.user
 * })
 * ```
 */
export async function requireRecentAuth(req: ExpressRequest, config: ExpressAuthConfig, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  const request = toWebRequest(req, { body: false })
  if (request === undefined) return { ok: false, url: "/" }
  const res = req.res
  return requireRecentAuthForResponse(
    request,
    config,
    (setCookie) => {
      if (res !== undefined && !res.headersSent) appendSetCookie(res, setCookie)
    },
    options,
  )
}

/**
 * The signed-in user's access token at a provider, refreshed first when it expires within 60
 * seconds: core's `getAccessToken` for an Express request (see its documentation). Cookies it
 * sets (tokens kept in the session cookie with `tokensInCookie`, a session renewal) are appended
 * to `req.res`, as `getSession` does: call it before the response is sent. `null` when
 * signed out, when the user has no account at the provider, and for a request without a usable
 * host.
 *
 * @throws {RefreshTokenError} when a due refresh fails; the session stays.
 * @throws {AuthError} for the server's own faults: an invalid configuration, no `adapter` or one
 * without `updateAccount`, a failing adapter.
 * @example
 * ```ts
 * import { getAccessToken } from "@portcullis/express"
 *
 * app.get("/repos", async (req, res) => {
 *   const token = await getAccessToken(req, authConfig, "github")
 *   if (token === null) return res.redirect("/auth/signin")
 *   res.json(await (await fetch("https://api.github.com/user/repos", { headers: { authorization: `Bearer ${token.accessToken}` } })).json())
 * })
 * ```
 */
export async function getAccessToken(req: ExpressRequest, config: ExpressAuthConfig, providerId: string): Promise<AccessToken | null> {
  const request = toWebRequest(req, { body: false })
  if (request === undefined) return null
  const res = req.res
  return coreGetAccessToken(request, config, providerId, (setCookie) => {
    if (res !== undefined && !res.headersSent) appendSetCookie(res, setCookie)
  })
}

/** A cookie sink writing to `req.res` while the response is not sent yet. */
function responseCookies(req: ExpressRequest): (setCookie: string) => void {
  const res = req.res
  return (setCookie) => {
    if (res !== undefined && !res.headersSent) appendSetCookie(res, setCookie)
  }
}

/**
 * The signed-in user's sessions on every device, the current one first: core's `listSessions`
 * (`@portcullis/core/sessions`) for an Express request; a renewal is appended to `req.res`.
 * `null` when signed out. The same list is served at `GET {mount}/sessions`.
 *
 * @throws {AuthError} `Configuration` when the adapter keeps no session records; the server's own faults.
 */
export async function listSessions(req: ExpressRequest, config: ExpressAuthConfig): Promise<SessionInfo[] | null> {
  const request = toWebRequest(req, { body: false })
  if (request === undefined) return null
  return (await import("@portcullis/core/sessions")).listSessions(request, config, responseCookies(req))
}

/**
 * Ends sessions of the signed-in user: core's `revokeSessions` for an Express request, `{ id }`,
 * `{ others: true }` or `{ all: true }` (sign out everywhere: this session's cookie is cleared on
 * `req.res`, and the answer's `url` is where to send the browser). The CSRF token is not checked:
 * call it only behind your own CSRF protection, or post to `{mount}/sessions/revoke`, which checks it.
 *
 * @throws {AuthError} `UnknownAction` for a malformed target, `Configuration` when the adapter keeps no session records.
 */
export async function revokeSessions(req: ExpressRequest, config: ExpressAuthConfig, target: RevokeTarget, options: { redirectTo?: string } = {}): Promise<RevokeResult | null> {
  const request = toWebRequest(req, { body: false })
  if (request === undefined) return null
  return (await import("@portcullis/core/sessions")).revokeSessions(request, config, target, responseCookies(req), options)
}
