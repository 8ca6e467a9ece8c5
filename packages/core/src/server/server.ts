/**
 * The `server/` room: the functions an app's server code calls, exported by the package's entry:
 * sign-in, sign-out, the session update, unlinking, the email change and account deletion (this module), the session read (`get-
 * session.ts`) and `getAccessToken` (`access-token.ts`). It sits on top, beside the routes
 * (`actions/`) it calls: only the entry points import it.
 *
 * Core for server code that has a request but is not answering one of core's routes: a Next.js
 * server action, a SvelteKit form action, a middleware. Sign-in, sign-out, the session update
 * and unlinking an account in one call each, answered as `Auth()` answers the route, and where the routes live, so a
 * framework integration only converts between the framework and `Request` / `Response`.
 *
 * Each call runs core's own route handler on a request built here, flagged as a server call
 * (`RequestContext.serverCall`): the CSRF token check is skipped, because the caller is server
 * code that the framework already protects against cross-site posts, and no request can set the
 * flag.
 */
import { callback } from "../actions/callback.js"
import { updateSession as updateSessionRoute } from "../actions/session.js"
import { signIn as signInRoute } from "../actions/signin.js"
import { signOut as signOutRoute } from "../actions/signout.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { recordedClientAddress, withClientAddress } from "../limits/client-address-tag.js"
import { limitClient } from "../limits/client-limit-gate.js"
import { resolveConfig } from "../config/config.js"
import { createContext, redirect } from "../http/context.js"
import { ensureCsrfCookie } from "../http/csrf.js"
import type { InternalConfig, RequestContext, SetCookieSink } from "../internal.js"
import { resolveOrigin } from "../http/origins.js"
import { parseRoute, signInPageUrl, type Action } from "../http/routes.js"
import type { AuthConfig } from "../types.js"

/** Options of the server-side {@link signIn}. */
export interface ServerSignInOptions {
  /**
   * Where the browser lands after signing in: the form's `callbackUrl`, checked as
   * `POST /signin/:id` checks it (the `redirect` callback, same origin or `allowedOrigins`).
   * Default: the app's origin.
   */
  redirectTo?: string
  /**
   * The form fields the provider reads (`email` for an email provider, a credentials provider's
   * fields), as a server action or form action receives them; only string values are sent.
   */
  fields?: Record<string, string> | URLSearchParams | FormData
  /** Parameters added to the provider's authorization URL (`login_hint`, `prompt`...). */
  authorizationParams?: Record<string, string> | URLSearchParams
}

/** Options of the server-side {@link signOut}. */
export interface ServerSignOutOptions {
  /** Where the browser lands after signing out, checked as `POST /signout` checks it. Default: the app's origin. */
  redirectTo?: string
}

/** What the server-side {@link unlinkAccount} unlinks. */
export interface ServerUnlinkAccountOptions {
  /** The provider's id, e.g. `"github"`. */
  provider: string
  /** Which of the user's accounts at the provider: needed only when they linked several there. */
  providerAccountId?: string
  /**
   * The app knows the user can sign in another way that core cannot see (a password its
   * credentials provider checks): the last-way-in check is skipped. Default: `false`.
   */
  otherSignInMethod?: boolean
}

/** Where core serves its routes for a request: see {@link authBase}. */
export interface AuthBase {
  /** The app's origin for this request, e.g. `https://example.com`. */
  origin: string
  /** The path the routes live under, without a trailing slash, e.g. `/api/auth`. */
  basePath: string
  /** `{origin}{basePath}`. */
  url: string
}

/** One route run for server code: what to build and how to answer it. */
interface ServerCall {
  action: Action
  /** The route's path and query, on the caller's request origin. */
  path: string
  body?: { type: string; text: string }
  handle: (context: RequestContext) => Promise<Response>
}

/** Headers that describe the caller's own request body, not the one built here. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "transfer-encoding"]

/** The caller's request (its cookies and host headers) turned into a request to one of core's routes. */
function routeRequest(request: Request, call: ServerCall): Request {
  const headers = new Headers(request.headers)
  for (const name of BODY_HEADERS) headers.delete(name)
  // The answer is the redirect itself, even when the caller's request asked for JSON.
  headers.delete("x-auth-return-redirect")
  const url = new URL(call.path, request.url)
  if (call.body !== undefined) headers.set("content-type", call.body.type)
  const built = call.body === undefined ? new Request(url, { method: "GET", headers }) : new Request(url, { method: "POST", headers, body: call.body.text })
  // The client address an integration recorded on the caller's request counts for the route's request too.
  return withClientAddress(built, recordedClientAddress(request))
}

/** Runs one route for server code, answering failures as `Auth()` does; never throws. */
async function runServerCall(request: Request, config: AuthConfig, plan: (config: InternalConfig) => ServerCall): Promise<Response> {
  let internal: InternalConfig | undefined
  let context: RequestContext | undefined
  let action: Action | undefined
  try {
    internal = await resolveConfig(config)
    const call = plan(internal)
    action = call.action
    const built = routeRequest(request, call)
    context = createContext(internal, built, new URL(built.url))
    context.serverCall = true
    const route = parseRoute(context.url.pathname, internal.basePath, internal.flowRoutes) ?? { action: call.action, providerId: undefined }
    return (await limitClient(context, route)) ?? (await call.handle(context))
  } catch (thrown) {
    // Fetched with the first failure, as `Auth()` fetches it.
    return (await import("../http/failures.js")).answerFailure(thrown, { request, config, internal, context, action })
  }
}

/** A form body: the string fields (no `csrfToken`: a server call has none), and `callbackUrl` when given. */
function formBody(fields: ServerSignInOptions["fields"], callbackUrl: string | undefined): { type: string; text: string } {
  const form = new URLSearchParams()
  const entries: Iterable<[string, unknown]> = fields instanceof URLSearchParams || fields instanceof FormData ? fields : Object.entries(fields ?? {})
  for (const [name, value] of entries) if (typeof value === "string" && name !== "csrfToken") form.append(name, value)
  if (callbackUrl !== undefined) form.set("callbackUrl", callbackUrl)
  return { type: "application/x-www-form-urlencoded", text: form.toString() }
}

/**
 * The `callbackUrl` for a link to the sign-in page, which resolves it again when it is used: as
 * written when the rules accept it unchanged (a same-origin path stays a path), else as resolved.
 */
async function pageCallbackUrl(context: RequestContext, requested: string | undefined): Promise<string | undefined> {
  if (requested === undefined) return undefined
  const resolved = await resolveCallbackUrl(context, requested)
  return URL.canParse(requested, context.origin) && new URL(requested, context.origin).href === resolved ? requested : resolved
}

/**
 * Signs in from server code in one call, answering exactly what `Auth()` answers the sign-in
 * form's POST: a redirect (`302`, its `Location` and `Set-Cookie`s) to the OAuth provider, to the
 * "check your email" page, to `redirectTo` with the session for credentials, or to the sign-in
 * or error page with the error code. Without `providerId`, a redirect to the sign-in page with
 * `redirectTo` as its `callbackUrl`.
 *
 * The CSRF token is not checked: call it only from code the framework protects against
 * cross-site posts (a Next.js server action, a SvelteKit form action), never from a `GET`
 * handler, where a link on another site could sign a visitor in. Hand every `Set-Cookie` of the
 * answer to the browser.
 *
 * Never throws: every failure is logged and answered as `Auth()` answers it (an untrusted host
 * or an invalid configuration is answered in place, without a `Location`).
 *
 * @example
 * ```ts
 * // A form action: the provider's form fields, and where to go after
 * const response = await signIn(request, config, "credentials", { fields: await request.formData(), redirectTo: "/dashboard" })
 * const location = response.headers.get("location") // then set response.headers.getSetCookie() and redirect
 * ```
 */
export function signIn(request: Request, config: AuthConfig, providerId?: string, options: ServerSignInOptions = {}): Promise<Response> {
  if (providerId === undefined || providerId === "") {
    return runServerCall(request, config, (internal) => ({
      action: "signin",
      path: `${internal.basePath}/signin`,
      handle: async (context) => redirect(context, signInPageUrl(context, { callbackUrl: await pageCallbackUrl(context, options.redirectTo) })),
    }))
  }
  return runServerCall(request, config, (internal) => {
    const provider = internal.providersById.get(providerId)
    // The route the provider's own form posts to; an unknown id goes to `/signin/:id`, which refuses it.
    const route = provider?.flow.postsTo ?? "signin"
    const query = route === "signin" ? new URLSearchParams(options.authorizationParams).toString() : ""
    return {
      action: route,
      path: `${internal.basePath}/${route}/${encodeURIComponent(providerId)}${query === "" ? "" : `?${query}`}`,
      body: formBody(options.fields, options.redirectTo),
      handle: async (context) => {
        if (route === "callback") return callback(context, providerId)
        // A flow started here binds its checks to the browser's CSRF cookie, as from the sign-in page.
        if (provider !== undefined) await ensureCsrfCookie(context)
        return signInRoute(context, providerId)
      },
    }
  })
}

/**
 * Signs out from server code in one call, answering what `Auth()` answers `POST /signout`: the
 * session ended (its cookies cleared, a database session deleted, the `signOut` event sent) and
 * a redirect to `redirectTo`, checked as a `callbackUrl` is. The CSRF token is not checked: call
 * it only from code the framework protects against cross-site posts. Never throws.
 *
 * @example
 * ```ts
 * const response = await signOut(request, config, { redirectTo: "/" })
 * ```
 */
export function signOut(request: Request, config: AuthConfig, options: ServerSignOutOptions = {}): Promise<Response> {
  return runServerCall(request, config, (internal) => ({
    action: "signout",
    path: `${internal.basePath}/signout`,
    body: formBody(undefined, options.redirectTo),
    handle: (context) => signOutRoute(context),
  }))
}

/**
 * Updates the session from server code in one call (next-auth's `unstable_update`), answering
 * what `Auth()` answers `POST /session`: the updated session as JSON (`null` when signed out),
 * its re-sealed cookie in `Set-Cookie`, or a JSON error. `data` reaches the `jwt` callback as
 * `session` and the `session` callback as `newSession`, with `trigger: "update"`. The CSRF token
 * is not checked: call it only from code the framework protects against cross-site posts.
 * Never throws.
 */
export function updateSession(request: Request, config: AuthConfig, data: unknown): Promise<Response> {
  return runServerCall(request, config, (internal) => ({
    action: "session",
    path: `${internal.basePath}/session`,
    body: { type: "application/json", text: JSON.stringify({ data }) },
    handle: (context) => updateSessionRoute(context),
  }))
}

/**
 * Unlinks one of the signed-in user's accounts from server code in one call, answering what
 * `Auth()` answers `POST /accounts/unlink`: `200` JSON `{ unlinked: { provider,
 * providerAccountId } }`, or a JSON error: `401` `SignInRequired`, `400` `UnknownAccount` (no
 * such account of this user, whoever else has one), `400` `LastSignInMethod` (it is the user's
 * last way to sign in; see the core README), `503` `Configuration` when the adapter lacks
 * `listAccountsByUserId`, `unlinkAccount`, `linkAccount` or `getUser`. With
 * `revokeTokensOnSignOut`, the provider's tokens are revoked (a failure is logged and undoes
 * nothing). The CSRF token is not checked: call it only from code the framework protects
 * against cross-site posts. Never throws.
 *
 * @example
 * ```ts
 * const response = await unlinkAccount(request, config, { provider: "github" })
 * if (!response.ok) console.log(((await response.json()) as { error: string }).error) // "LastSignInMethod"
 * ```
 */
export function unlinkAccount(request: Request, config: AuthConfig, options: ServerUnlinkAccountOptions): Promise<Response> {
  return runServerCall(request, config, (internal) => ({
    action: "accounts",
    path: `${internal.basePath}/accounts/unlink`,
    body: { type: "application/json", text: "{}" },
    handle: async (context) =>
      (await import("../actions/accounts.js")).unlinkAccount(context, {
        provider: typeof options.provider === "string" ? options.provider : null,
        providerAccountId: typeof options.providerAccountId === "string" ? options.providerAccountId : null,
        otherSignInMethod: options.otherSignInMethod === true,
      }),
  }))
}

/** What the server's {@link changeEmail} is asked to do. */
export interface ServerChangeEmailOptions {
  /** The new address (trimmed and lower-cased, then checked to be one plain address). */
  email: string
  /** Receives each `Set-Cookie` the call sets (a slid session), one header value per call. */
  setCookie?: SetCookieSink
}

/** Options of the server's {@link deleteAccount}. */
export interface ServerDeleteAccountOptions {
  /** Receives each `Set-Cookie` the call sets (the session cookie cleared): hand them to the browser. */
  setCookie?: SetCookieSink
}

/**
 * What {@link changeEmail} and {@link deleteAccount} answer: done, or why not. `ReauthRequired`
 * (the user last authenticated longer ago than `session.reauthAge`, or owes a second factor) and
 * `SessionRequired` (nobody is signed in) come with `url`, the page to send the browser to (the
 * re-authentication page, or the sign-in page); the others are error codes: `EmailSignInError`
 * (not one plain address), `Configuration` (the adapter lacks a method: the log names it),
 * `AdapterError`, `TooManyRequests`...
 */
export type AccountActionResult = { ok: true } | { ok: false; error: "ReauthRequired" | "SessionRequired"; url: string } | { ok: false; error: string; url?: undefined }

/** The typed result of an account route's JSON answer, its cookies handed to `setCookie`. */
async function accountResult(response: Response, setCookie: SetCookieSink | undefined): Promise<AccountActionResult> {
  if (setCookie !== undefined) for (const cookie of response.headers.getSetCookie()) setCookie(cookie)
  const body = (await response.json().catch(() => ({}))) as { ok?: unknown; error?: unknown; url?: unknown }
  if (response.ok && body.ok === true) return { ok: true }
  const error = typeof body.error === "string" ? body.error : `HTTP ${String(response.status)}`
  if ((error === "ReauthRequired" || error === "SessionRequired") && typeof body.url === "string") return { ok: false, error, url: body.url }
  return { ok: false, error }
}

/**
 * Asks from server code, in one call, to change the signed-in user's email address, as `POST
 * {basePath}/account/email` does: a link goes to the new address (or, when another account has
 * it, a mail saying so), and the change applies only when that link's page is confirmed. Answers
 * `{ ok: true }` whatever the address is. The CSRF token is not checked: call it only from code
 * the framework protects against cross-site posts. Never throws.
 *
 * @example
 * ```ts
 * const result = await changeEmail(request, config, { email: form.get("email") as string })
 * if (!result.ok && result.error === "ReauthRequired") return Response.redirect(result.url, 303)
 * ```
 */
export async function changeEmail(request: Request, config: AuthConfig, options: ServerChangeEmailOptions): Promise<AccountActionResult> {
  const response = await runServerCall(request, config, (internal) => ({
    action: "account",
    path: `${internal.basePath}/account/email`,
    body: { type: "application/json", text: JSON.stringify({ email: typeof options.email === "string" ? options.email : "" }) },
    handle: async (context) => (await import("../account/routes.js")).accountRoute(context, "POST", "email"),
  }))
  return accountResult(response, options.setCookie)
}

/**
 * Deletes the signed-in user's account from server code in one call, as `POST
 * {basePath}/account/delete` does: the user, their accounts (provider tokens revoked under
 * `revokeTokensOnSignOut`), every session, passkeys, second factors, a pending email change and
 * the address's sign-in links. Hand the cleared session cookie (`setCookie`) to the browser. The
 * CSRF token is not checked: call it only from code the framework protects against cross-site
 * posts. Never throws.
 *
 * @example
 * ```ts
 * const result = await deleteAccount(request, config, { setCookie: (cookie) => headers.append("set-cookie", cookie) })
 * if (!result.ok && result.error === "ReauthRequired") return Response.redirect(result.url, 303)
 * ```
 */
export async function deleteAccount(request: Request, config: AuthConfig, options: ServerDeleteAccountOptions = {}): Promise<AccountActionResult> {
  const response = await runServerCall(request, config, (internal) => ({
    action: "account",
    path: `${internal.basePath}/account/delete`,
    body: { type: "application/json", text: "{}" },
    handle: async (context) => (await import("../account/routes.js")).accountRoute(context, "POST", "delete"),
  }))
  return accountResult(response, options.setCookie)
}

/**
 * Where core serves its routes for this request: the app's origin under core's rules (`url` /
 * `AUTH_URL`, `trustHost`, `allowedOrigins`) and the base path (`basePath`, else `AUTH_URL`'s
 * path, else `/api/auth`), so an integration never derives them itself.
 *
 * @throws {UntrustedHost} when the request's host is not one the app trusts (or is malformed).
 * @throws {Configuration} when the configuration is invalid.
 * @throws {MissingSecret} when neither `secret` nor `AUTH_SECRET` is set.
 * @example
 * ```ts
 * const { basePath } = await authBase(request, config)
 * if (new URL(request.url).pathname.startsWith(`${basePath}/`)) return Auth(request, config)
 * ```
 */
export async function authBase(request: Request, config: AuthConfig): Promise<AuthBase> {
  const { basePath, origins } = await resolveConfig(config)
  const origin = resolveOrigin(origins, request, new URL(request.url))
  return { origin, basePath, url: `${origin}${basePath}` }
}
