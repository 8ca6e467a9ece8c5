/**
 * `@portcullis/hono`: `@portcullis/core` on Hono, on every runtime Hono runs on. `authHandler()`
 * serves the auth routes where it is mounted; `initAuthConfig()` gives every request
 * `c.var.auth()`, the session, with its renewal forwarded to the response; `verifyAuth()` answers
 * `401` to a signed-out request. The names are `@hono/auth-js`'s. Conversion only: Hono already
 * hands over a web `Request`, and every check lives in core.
 *
 * @module
 */
import { Auth, getAccessToken as coreGetAccessToken, getSessionForResponse, requireRecentAuthForResponse, unlinkAccount as coreUnlinkAccount, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { withClientAddress } from "@portcullis/core/client-address"
import { Configuration } from "@portcullis/core/errors"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { Context, MiddlewareHandler } from "hono"
import type { GetConnInfo } from "hono/conninfo"
import { routePath } from "hono/route"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, AuthConfig, Profile, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session, User } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

/** Core's `AuthConfig`, plus where Hono learns who is asking. Its `basePath` is taken from where `authHandler` is mounted. */
export interface HonoAuthConfig extends AuthConfig {
  /**
   * Your runtime's `getConnInfo` (`@hono/node-server/conninfo`, `hono/bun`, `hono/deno`,
   * `hono/cloudflare-workers`): its `remote.address` is the client core's per-client limits
   * (`rateLimit.perClient`) count. Behind proxies, set core's `clientAddress` instead; it wins.
   */
  getConnInfo?: GetConnInfo
}

/** The configuration, or a function of the request's context (`c.env` on Workers). */
export type ConfigHandler = HonoAuthConfig | ((c: Context) => HonoAuthConfig)

/** What {@link verifyAuth} puts in `c.var.authUser`. */
export interface AuthUser {
  session: Session
}

/** The variables these middleware set, for `new Hono<AuthEnv>()` or your own `Variables`. */
export interface AuthVariables {
  /** The configuration {@link initAuthConfig} resolved for this request. */
  authConfig: HonoAuthConfig
  /** The session of this request (read once, then remembered), or `null` when signed out. */
  auth: () => Promise<Session | null>
  /** Set by {@link verifyAuth}: the signed-in user's session. */
  authUser: AuthUser
}

// What verifyAuth() sets, typed on every Hono app as `@hono/auth-js` types it, without
// `Hono<AuthEnv>`: `c.get("authUser")` compiles in an app moved from it.
declare module "hono" {
  interface ContextVariableMap {
    authUser: AuthUser
  }
}

/** Hono's environment with {@link AuthVariables}. */
export interface AuthEnv {
  Variables: AuthVariables
}

/** The `Set-Cookie`s of session renewals found while a request is served, added to its response at the end. */
const renewals = new WeakMap<Context, string[]>()

/** Each config with `getConnInfo`, without it, as core reads it. */
const withoutConnInfo = new WeakMap<HonoAuthConfig, AuthConfig>()

/** How many mount paths one handler remembers a configuration for. */
const MAX_MOUNTS = 8

function configOf(c: Context, given?: ConfigHandler): HonoAuthConfig {
  if (typeof given === "function") return given(c)
  const config = given ?? (c.get("authConfig") as HonoAuthConfig | undefined)
  if (config === undefined) throw new Configuration("No Portcullis configuration for this request: mount `initAuthConfig(config)` before this middleware, or pass the config to it.")
  return config
}

/** Core's config without the Hono-only option, and the request with the address `getConnInfo` reports. */
function forCore(c: Context, config: HonoAuthConfig, request: Request): [Request, AuthConfig] {
  const { getConnInfo } = config
  if (getConnInfo === undefined) return [request, config]
  // One core config per config object: core keeps what it resolved (and the memory limit store) per object.
  let core = withoutConnInfo.get(config)
  if (core === undefined) {
    const { getConnInfo: _omitted, ...rest } = config
    withoutConnInfo.set(config, (core = rest))
  }
  return [withClientAddress(request, getConnInfo(c).remote.address), core]
}

/**
 * The request as core reads it. When a middleware before this one read the body through Hono
 * (`c.req.parseBody()`, a validator), the raw stream is spent: the body is written again from
 * Hono's copy, a form as a form, so core sees the bytes it would have read and applies its limits.
 */
async function webRequest(c: Context): Promise<Request> {
  const raw = c.req.raw
  if (!raw.bodyUsed) return raw
  const cached = c.req.bodyCache
  let body: string
  if (cached.json !== undefined) body = JSON.stringify(await c.req.json())
  else if (cached.formData !== undefined) {
    const form = new URLSearchParams()
    for (const [name, value] of await c.req.formData()) if (typeof value === "string") form.append(name, value)
    body = form.toString()
  } else body = await c.req.text()
  const headers = new Headers(raw.headers)
  // They described the bytes on the wire, not the body as written again.
  for (const name of ["content-length", "transfer-encoding", "content-encoding"]) headers.delete(name)
  return new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal })
}

/** Where `authHandler` is mounted: the request path's segments that the route's segments before its `*` matched. */
function mountBase(c: Context): string | undefined {
  const pattern = routePath(c)
  if (!pattern.endsWith("/*") || pattern === "/*") return undefined
  const depth = pattern.slice(0, -2).split("/").length
  return c.req.path.split("/").slice(0, depth).join("/")
}

/** A cookie sink for core: the renewal waits for the response when `initAuthConfig` runs, else goes on Hono's headers. */
function cookieSink(c: Context): (setCookie: string) => void {
  return (setCookie) => {
    const pending = renewals.get(c)
    if (pending !== undefined) pending.push(setCookie)
    else c.header("set-cookie", setCookie, { append: true })
  }
}

/**
 * Resolves the configuration for each request and sets `c.var.authConfig` and `c.var.auth()`,
 * the session read on first call. A function of the context is called once per request (read
 * secrets from `c.env` there): return the same object each time, since core keeps what it
 * resolved, and the in-memory limits, per config object. A renewed session cookie (a slid
 * expiry) found while the request is served is added to the response, whichever way the handler
 * built it.
 *
 * @example
 * ```ts
 * let config: HonoAuthConfig | undefined
 * app.use(initAuthConfig((c) => (config ??= { secret: c.env.AUTH_SECRET, providers: [GitHub()] })))
 * app.get("/", async (c) => c.text((await c.var.auth())?.user?.name ?? "Signed out"))
 * ```
 */
export function initAuthConfig(config: ConfigHandler): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const resolved = configOf(c, config)
    const pending: string[] = []
    renewals.set(c, pending)
    let session: Promise<Session | null> | undefined
    c.set("authConfig", resolved)
    c.set("auth", () => (session ??= getSessionForResponse(...forCore(c, resolved, c.req.raw), cookieSink(c))))
    await next()
    renewals.delete(c)
    if (pending.length === 0) return
    const present = new Set(c.res.headers.getSetCookie())
    for (const setCookie of pending) if (!present.has(setCookie)) c.header("set-cookie", setCookie, { append: true })
  }
}

/**
 * Serves the auth routes (`/signin`, `/callback/:provider`, `/session`, `/signout`, ...) under the
 * path it is mounted on (`app.use("/api/auth/*", authHandler())`, or `app.on(["GET", "POST"], ...)`),
 * which becomes `basePath`; it answers every request that reaches it. Takes the config
 * `initAuthConfig` set, or its own.
 *
 * Mount it before Hono's `csrf()` middleware: a provider's `response_mode=form_post` callback and
 * its back-channel logout are cross-site form posts (the second without `Origin`), which `csrf()`
 * refuses with `403`; core checks its own routes (a CSRF token, the callback's state and PKCE, a
 * signed logout token).
 *
 * @throws {Configuration} when no configuration is given or set by `initAuthConfig`. Anything
 * else reaching core is answered by `Auth()`, which never throws.
 * @example
 * ```ts
 * app.use("/api/auth/*", authHandler(authConfig))
 * ```
 */
export function authHandler(config?: ConfigHandler): MiddlewareHandler {
  const mounted = new WeakMap<HonoAuthConfig, Map<string, HonoAuthConfig>>()
  const configFor = (base: HonoAuthConfig, basePath: string): HonoAuthConfig => {
    let byPath = mounted.get(base)
    if (byPath === undefined) mounted.set(base, (byPath = new Map<string, HonoAuthConfig>()))
    let found = byPath.get(basePath)
    if (found === undefined) {
      found = { ...base, basePath }
      if (byPath.size < MAX_MOUNTS) byPath.set(basePath, found)
    }
    return found
  }
  return async (c) => {
    const base = configOf(c, config)
    const mount = mountBase(c)
    // Registered on a path without a trailing `/*`, there is no mount to read: the config's basePath stands.
    const resolved = mount === undefined ? base : configFor(base, mount)
    return Auth(...forCore(c, resolved, await webRequest(c)))
  }
}

/**
 * Answers `401` (JSON `{ error: "SignInRequired" }`) to a signed-out request and sets
 * `c.var.authUser` for the handlers after it. Needs `initAuthConfig` before it.
 *
 * @example
 * ```ts
 * app.use("/api/*", verifyAuth())
 * app.get("/api/me", (c) => c.json(c.var.authUser.session))
 * ```
 */
export function verifyAuth(): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const session = await auth(c)
    if (session === null) return c.json({ error: "SignInRequired" }, 401)
    c.set("authUser", { session })
    await next()
  }
}

/**
 * The session of the request: `c.var.auth()` where `initAuthConfig` runs, else read with the
 * config given. `null` when signed out, and for a missing, forged or expired cookie.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 */
export function auth(c: Context, config?: ConfigHandler): Promise<Session | null> {
  const read = c.get("auth") as (() => Promise<Session | null>) | undefined
  if (read !== undefined && config === undefined) return read()
  return getSessionForResponse(...forCore(c, configOf(c, config), c.req.raw), cookieSink(c))
}

/**
 * Guards a sensitive route of the app (core's `requireRecentAuth`): `{ ok: true, session }` when
 * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
 * `{ ok: false, url }`: the sign-in page, `{basePath}/mfa/setup` (level 2 without a second factor)
 * or the re-authentication page, back to this route. A renewal reaches the response as
 * `c.var.auth()`'s does.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 * @example
 * ```ts
 * app.post("/settings/email", async (c) => {
 *   const recent = await requireRecentAuth(c)
 *   if (!recent.ok) return c.redirect(recent.url, 303)
 *   // ...
 * })
 * ```
 */
export function requireRecentAuth(c: Context, options: RecentAuthCheck = {}, config?: ConfigHandler): Promise<RecentAuth> {
  const [request, core] = forCore(c, configOf(c, config), c.req.raw)
  return requireRecentAuthForResponse(request, core, cookieSink(c), options)
}

/**
 * `{ session }` of a signed-in request, `null` when signed out: what `verifyAuth()` puts in
 * `c.var.authUser`, under `@hono/auth-js`'s name. No `token` or `user` beside the session.
 *
 * @throws {AuthError} for the server's own faults: an invalid configuration, a failing adapter.
 */
export async function getAuthUser(c: Context, config?: ConfigHandler): Promise<AuthUser | null> {
  const session = await auth(c, config)
  return session === null ? null : { session }
}

/**
 * The signed-in user's access token at a provider, refreshed first when it expires within 60
 * seconds: core's `getAccessToken` for a Hono request. `null` when signed out or without an
 * account there. Cookies it sets reach the response as `c.var.auth()`'s do.
 *
 * @throws {RefreshTokenError} when a due refresh fails; the session stays.
 * @throws {AuthError} for the server's own faults: no `adapter` or one without `updateAccount`.
 */
export function getAccessToken(c: Context, providerId: string, config?: ConfigHandler): Promise<AccessToken | null> {
  const [request, core] = forCore(c, configOf(c, config), c.req.raw)
  return coreGetAccessToken(request, core, providerId, cookieSink(c))
}

/**
 * The signed-in user's sessions on every device, the current one first (core's `listSessions`);
 * `null` when signed out. Also served at `GET {basePath}/sessions`.
 *
 * @throws {AuthError} `Configuration` when the adapter keeps no session records.
 */
export async function listSessions(c: Context, config?: ConfigHandler): Promise<SessionInfo[] | null> {
  const [request, core] = forCore(c, configOf(c, config), c.req.raw)
  return (await import("@portcullis/core/sessions")).listSessions(request, core, cookieSink(c))
}

/**
 * Ends sessions of the signed-in user (core's `revokeSessions`): `{ id }`, `{ others: true }` or
 * `{ all: true }`, which also clears this session's cookie. Core's CSRF token is not checked: call
 * it behind Hono's `csrf()`, or post to `{basePath}/sessions/revoke`, which checks it.
 *
 * @throws {AuthError} `UnknownAction` for a malformed target, `Configuration` when the adapter keeps no session records.
 */
export async function revokeSessions(c: Context, target: RevokeTarget, options: { redirectTo?: string; config?: ConfigHandler } = {}): Promise<RevokeResult | null> {
  const { config, ...rest } = options
  const [request, core] = forCore(c, configOf(c, config), c.req.raw)
  return (await import("@portcullis/core/sessions")).revokeSessions(request, core, target, cookieSink(c), rest)
}

/**
 * Unlinks one of the signed-in user's accounts (core's `unlinkAccount`), answering what
 * `POST {basePath}/accounts/unlink` answers: return the `Response`, or read its JSON. Core's CSRF
 * token is not checked: call it behind Hono's `csrf()`.
 */
export function unlinkAccount(c: Context, options: ServerUnlinkAccountOptions, config?: ConfigHandler): Promise<Response> {
  return coreUnlinkAccount(...forCore(c, configOf(c, config), c.req.raw), options)
}
