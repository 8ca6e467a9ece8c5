/**
 * `@portcullis/fastify`: `@portcullis/core` as a Fastify plugin. `fastify.register(portcullis,
 * config)` serves the auth routes under the base path and gives every request
 * `request.auth()`, the session, with its renewal added to the reply. Conversion only: Fastify's
 * own request (its `trustProxy` decides the host, protocol and client address) becomes a web
 * `Request`, and every check lives in core.
 *
 * @module
 */
import { Auth, getAccessToken as coreGetAccessToken, getSessionForResponse, requireRecentAuthForResponse, unlinkAccount as coreUnlinkAccount, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type ServerUnlinkAccountOptions, type Session } from "@portcullis/core"
import { withClientAddress } from "@portcullis/core/client-address"
import { Configuration } from "@portcullis/core/errors"
import type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify"

export { AuthError, CredentialsSignin, RefreshTokenError } from "@portcullis/core/errors"
export type { AccessToken, Account, Profile, RecentAuth, RecentAuthCheck, ServerUnlinkAccountOptions, Session, User } from "@portcullis/core"
export type { RevokeResult, RevokeTarget, SessionInfo } from "@portcullis/core/sessions"

declare module "fastify" {
  interface FastifyRequest {
    /** The session of this request (read once, then remembered), or `null` when signed out. Set by `@portcullis/fastify`. */
    auth: () => Promise<Session | null>
  }
}

/**
 * Core's `AuthConfig`. `basePath` (default `/api/auth`) is where the routes are served, below the
 * prefix of the scope the plugin is registered in.
 */
export type FastifyAuthConfig = AuthConfig

/** What one request needs to reach core: the reply renewals go to, and the config of the scope. */
interface RequestState {
  reply: FastifyReply
  config: AuthConfig
  session?: Promise<Session | null>
}

const states = new WeakMap<FastifyRequest, RequestState>()

/** Headers Fastify has already applied (or refused) under `trustProxy`: core must not read them again. */
const APPLIED_BY_FASTIFY = new Set(["x-forwarded-host", "x-forwarded-proto", "forwarded"])

/** They described the bytes on the wire; core measures the buffered body itself. */
const WIRE_ONLY = new Set(["content-length", "transfer-encoding"])

/**
 * The absolute URL of the request as Fastify sees it, or `undefined` when its Host (or a trusted
 * `X-Forwarded-Host`) is not a plain `host[:port]`: a URL built from `evil.example/path` or
 * `user@host` would name another origin.
 */
function requestUrl(request: FastifyRequest): URL | undefined {
  const host = request.host
  if (typeof host !== "string" || host === "" || !request.url.startsWith("/")) return undefined
  try {
    const base = new URL(`${request.protocol}://${host}`)
    const url = new URL(`${base.origin}${request.url}`)
    const plainHost = base.pathname === "/" && base.search === "" && base.hash === "" && base.username === "" && base.password === ""
    return plainHost && url.origin === base.origin ? url : undefined
  } catch {
    return undefined
  }
}

/** The request for core; the body is the bytes the plugin's own parser buffered, parsed by nobody yet. */
function webRequest(request: FastifyRequest, withBody: boolean): Request | undefined {
  const url = requestUrl(request)
  if (url === undefined) return undefined
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || APPLIED_BY_FASTIFY.has(name) || (withBody && WIRE_ONLY.has(name))) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const method = request.method.toUpperCase()
  const body = withBody && method !== "GET" && method !== "HEAD" && Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : undefined
  // `request.ip` is the socket's address, or under `trustProxy` the client a trusted proxy names: the per-client limits' key.
  return withClientAddress(new Request(url, { method, headers, body }), request.ip)
}

/** Appends a `Set-Cookie` beside any the app set (Fastify keeps each its own header line), while the reply is unsent. */
function cookieSink(reply: FastifyReply): (setCookie: string) => void {
  return (setCookie) => {
    if (!reply.sent) void reply.header("set-cookie", setCookie)
  }
}

function stateOf(request: FastifyRequest): RequestState {
  const state = states.get(request)
  if (state === undefined) throw new Configuration("No Portcullis configuration for this request: register `portcullis` in this scope (or a parent) before its routes.")
  return state
}

/** Writes core's answer through Fastify: status, headers, each `Set-Cookie` on its own line, the body. */
async function send(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  void reply.code(response.status)
  for (const [name, value] of response.headers) if (name !== "set-cookie") void reply.header(name, value)
  for (const setCookie of response.headers.getSetCookie()) void reply.header("set-cookie", setCookie)
  return reply.send(Buffer.from(await response.arrayBuffer()))
}

/**
 * Registers the auth routes (`/signin`, `/callback/:provider`, `/session`, `/signout`, ...) at
 * `{prefix}{basePath}/*` (default `/api/auth`), and decorates every request of the scope it is
 * registered in with `request.auth()`. Register it before the routes that read the session: it
 * is not encapsulated, so the decorator reaches the whole scope.
 *
 * The routes live in a scope of their own with a single parser that buffers every body as it
 * came, within Fastify's `bodyLimit`: a `@fastify/formbody` or other parser the app registers
 * keeps serving the app's routes, and core parses the form once. The host, protocol and client
 * address are Fastify's (`request.host`, `request.protocol`, `request.ip`): forwarded headers
 * count only as far as Fastify's `trustProxy` trusts them. A request whose Host is not a plain
 * `host[:port]` is answered `400`; anything else is answered by `Auth()`, which never throws.
 *
 * @throws {Configuration} at registration, when `basePath` is not an absolute path.
 * @example
 * ```ts
 * const app = Fastify({ trustProxy: 1 }) // only behind the proxy you run
 * await app.register(portcullis, { providers: [GitHub()] })
 * app.get("/", async (request) => (await request.auth())?.user?.name ?? "Signed out")
 * ```
 */
export const portcullis: FastifyPluginAsync<FastifyAuthConfig> = async (fastify: FastifyInstance, options: FastifyAuthConfig) => {
  const { prefix: _prefix, logLevel: _logLevel, logSerializers: _logSerializers, ...config } = options as FastifyAuthConfig & Record<"prefix" | "logLevel" | "logSerializers", unknown>
  const path = (config.basePath ?? "/api/auth").replace(/\/+$/, "")
  if (!path.startsWith("/")) throw new Configuration("`basePath` must be an absolute path such as `/api/auth`.")
  // Fastify prefixes the route itself; core builds its URLs from the whole path.
  const core: AuthConfig = { ...config, basePath: `${fastify.prefix}${path}` }

  fastify.decorateRequest("auth", function (this: FastifyRequest): Promise<Session | null> {
    const state = stateOf(this)
    return (state.session ??= readSession(this, state))
  })
  fastify.addHook("onRequest", (request, reply, done) => {
    states.set(request, { reply, config: core })
    done()
  })
  await fastify.register((routes, _options, done) => {
    routes.removeAllContentTypeParsers()
    routes.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body)
    })
    routes.route({
      method: ["GET", "POST"],
      url: `${path}/*`,
      handler: async (request, reply) => {
        const web = webRequest(request, true)
        if (web === undefined) return reply.code(400).send()
        return send(reply, await Auth(web, core))
      },
    })
    done()
  })
}

// What `fastify-plugin` marks: the decorator and hook reach the scope `register` was called on.
Object.assign(portcullis, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: "@portcullis/fastify" })

export default portcullis

/** The web request of a Fastify request for the server functions (no body), or `null` when its host is unusable. */
function forCore(request: FastifyRequest): [Request, AuthConfig, (setCookie: string) => void] | null {
  const state = stateOf(request)
  const web = webRequest(request, false)
  return web === undefined ? null : [web, state.config, cookieSink(state.reply)]
}

function readSession(request: FastifyRequest, state: RequestState): Promise<Session | null> {
  const web = webRequest(request, false)
  return web === undefined ? Promise.resolve(null) : getSessionForResponse(web, state.config, cookieSink(state.reply))
}

/**
 * Guards a sensitive route of the app (core's `requireRecentAuth`): `{ ok: true, session }` when
 * the user authenticated within `maxAge` seconds (default `session.reauthAge`) at `level`; else
 * `{ ok: false, url }`: the sign-in page, `{basePath}/mfa/setup` (level 2 without a second factor)
 * or the re-authentication page, back to this route (`{ ok: false, url: "/" }` for a request
 * without a usable host). Cookies it sets reach the reply, as `request.auth()`'s do.
 *
 * @throws {AuthError} for the server's own faults: `Configuration` outside the plugin's scope, a failing adapter.
 * @example
 * ```ts
 * app.post("/settings/email", async (request, reply) => {
 *   const recent = await requireRecentAuth(request)
 *   if (!recent.ok) return reply.redirect(recent.url, 303)
 * })
 * ```
 */
export function requireRecentAuth(request: FastifyRequest, options: RecentAuthCheck = {}): Promise<RecentAuth> {
  const args = forCore(request)
  return args === null ? Promise.resolve({ ok: false, url: "/" }) : requireRecentAuthForResponse(args[0], args[1], args[2], options)
}

/**
 * The signed-in user's access token at a provider, refreshed first when it expires within 60
 * seconds: core's `getAccessToken` for a Fastify request. `null` when signed out or without an
 * account there. Cookies it sets reach the reply, as `request.auth()`'s do: call it before sending.
 *
 * @throws {RefreshTokenError} when a due refresh fails; the session stays.
 * @throws {AuthError} for the server's own faults: `Configuration` outside the plugin's scope, no `adapter` or one without `updateAccount`.
 */
export function getAccessToken(request: FastifyRequest, providerId: string): Promise<AccessToken | null> {
  const args = forCore(request)
  return args === null ? Promise.resolve(null) : coreGetAccessToken(args[0], args[1], providerId, args[2])
}

/**
 * The signed-in user's sessions on every device, the current one first (core's `listSessions`);
 * `null` when signed out. Also served at `GET {basePath}/sessions`.
 *
 * @throws {AuthError} `Configuration` when the adapter keeps no session records.
 */
export async function listSessions(request: FastifyRequest): Promise<SessionInfo[] | null> {
  const args = forCore(request)
  return args === null ? null : (await import("@portcullis/core/sessions")).listSessions(...args)
}

/**
 * Ends sessions of the signed-in user (core's `revokeSessions`): `{ id }`, `{ others: true }` or
 * `{ all: true }`, which also clears this session's cookie. Core's CSRF token is not checked: call
 * it from a route behind `@fastify/csrf-protection`, or post to `{basePath}/sessions/revoke`, which checks it.
 *
 * @throws {AuthError} `UnknownAction` for a malformed target, `Configuration` when the adapter keeps no session records.
 */
export async function revokeSessions(request: FastifyRequest, target: RevokeTarget, options: { redirectTo?: string } = {}): Promise<RevokeResult | null> {
  const args = forCore(request)
  return args === null ? null : (await import("@portcullis/core/sessions")).revokeSessions(args[0], args[1], target, args[2], options)
}

/**
 * Unlinks one of the signed-in user's accounts (core's `unlinkAccount`), answering what
 * `POST {basePath}/accounts/unlink` answers: send the `Response` with `reply.send()`, or read its
 * JSON. Core's CSRF token is not checked: call it from a route behind `@fastify/csrf-protection`.
 *
 * @throws {AuthError} `Configuration` outside the plugin's scope.
 */
export function unlinkAccount(request: FastifyRequest, options: ServerUnlinkAccountOptions): Promise<Response> {
  const args = forCore(request)
  return args === null ? Promise.resolve(new Response(null, { status: 400 })) : coreUnlinkAccount(args[0], args[1], options)
}
