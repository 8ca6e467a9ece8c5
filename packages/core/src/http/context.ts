/**
 * The `http/` room: what core does with a request and its answer, below every route: the request
 * context (this module), cookies, the CSRF check, origins and loopback, the callback URL, the
 * routes' paths and how a failed request is answered (`failures.ts`). It imports only `errors/`,
 * `crypto/` and the default error page; no flow, route, limit or session code.
 *
 * One request as the routes see it: the resolved origin and cookies, the form body read
 * within limits, and the cookies the response will set.
 */
import { parseCookies, serializeCookie } from "./cookies.js"
import { UnknownAction } from "../errors/errors.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import type { CookiesOptions } from "../model.js"
import { resolveOrigin } from "./origins.js"

/** The largest form body read from a browser or a provider's form_post. */
const MAX_FORM_BYTES = 64 * 1024

/**
 * The salt the session JWT is sealed with: the cookie's name (as Auth.js does) on the app's
 * canonical origin, or when the app shares the cookie across subdomains with a `domain`; the
 * name and the origin on any other admitted origin, so a session minted on a preview deployment
 * that shares the secret does not open on another.
 */
function sessionSalt(config: InternalConfig, cookies: CookiesOptions, origin: string): string {
  const name = cookies.sessionToken.name
  const shared = cookies.sessionToken.options.domain !== undefined
  const { canonical, allowed } = config.origins
  if (shared || origin === canonical?.origin || (canonical === undefined && allowed.length === 0)) return name
  return `${name} ${origin}`
}

/** Builds the context of one request. */
export function createContext(config: InternalConfig, request: Request, url: URL): RequestContext {
  const origin = resolveOrigin(config.origins, request, url)
  const secure = config.useSecureCookies ?? origin.startsWith("https:")
  const cookies = secure ? config.cookies.secure : config.cookies.insecure
  let jar: Map<string, string> | undefined
  return {
    config,
    request,
    url,
    origin,
    authUrl: `${origin}${config.basePath}`,
    cookies,
    get jar() {
      jar ??= parseCookies(request.headers.get("cookie"))
      return jar
    },
    setCookies: [],
    returnTo: undefined,
    sensitive: new Set(),
    sessionSalt: sessionSalt(config, cookies, origin),
  }
}

/** The request's body as text, refusing bodies over the limit. */
async function readBodyText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0")
  if (declared > MAX_FORM_BYTES) throw new UnknownAction("The request body is too large.")
  let text = ""
  if (request.body !== null) {
    const reader = request.body.getReader()
    const decoder = new TextDecoder()
    let size = 0
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch (cause) {
        // The client went away mid-upload (or a framework consumed the stream): its fault, not ours.
        throw new UnknownAction("The request body could not be read to the end.", { cause })
      }
      const { done, value } = chunk
      if (done) break
      size += value.byteLength
      if (size > MAX_FORM_BYTES) {
        await reader.cancel()
        throw new UnknownAction("The request body is too large.")
      }
      text += decoder.decode(value, { stream: true })
    }
    text += decoder.decode()
  }
  return text
}

function parseJsonObject(text: string): Record<string, unknown> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (cause) {
    throw new UnknownAction("The request body is not valid JSON.", { cause })
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new UnknownAction("The request body must be a JSON object.")
  return body as Record<string, unknown>
}

/**
 * Reads an `application/x-www-form-urlencoded` (or JSON object) body, refusing bodies over the
 * limit and other content types.
 *
 * @throws {UnknownAction} for an unreadable, oversized or unsupported body.
 */
export async function readForm(request: Request): Promise<URLSearchParams> {
  return toForm(await readFields(request))
}

/**
 * Reads a JSON object (or form) body within the same limits as {@link readForm}, keeping a JSON
 * body's values as they are (`true`, numbers, objects): a form's fields come as strings.
 *
 * @throws {UnknownAction} for an unreadable, oversized or unsupported body, or JSON that is not an object.
 */
export async function readFields(request: Request): Promise<Record<string, unknown> | URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  const text = await readBodyText(request)
  if (text === "") return new URLSearchParams()
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(text)
  if (type === "application/json") return parseJsonObject(text)
  throw new UnknownAction(`Unsupported request body type "${type}": send a form (application/x-www-form-urlencoded).`)
}

/** A body's fields as a form: a JSON body's string values only. */
function toForm(fields: Record<string, unknown> | URLSearchParams): URLSearchParams {
  if (fields instanceof URLSearchParams) return fields
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) if (typeof value === "string") params.append(key, value)
  return params
}

/**
 * Response headers shared by every answer: nothing here may be cached by a proxy, an HTTP/1.0
 * one included (`Expires`, `Pragma`), as Auth.js answers `/session` and `/csrf`.
 */
function baseHeaders(context: RequestContext | undefined, contentType?: string): Headers {
  const headers = new Headers({ "cache-control": "private, no-cache, no-store", expires: "0", pragma: "no-cache" })
  if (contentType !== undefined) headers.set("content-type", contentType)
  if (context !== undefined) for (const cookie of context.setCookies) headers.append("set-cookie", serializeCookie(cookie))
  return headers
}

/** A JSON answer. */
export function json(context: RequestContext | undefined, body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: baseHeaders(context, "application/json") })
}

/**
 * An HTML page, with a policy that allows no script at all (a flow that adds a control to the
 * sign-in page, such as passkeys, admits its own script: see `SignInFlow.page`).
 */
export function html(context: RequestContext | undefined, body: string, status = 200): Response {
  const headers = baseHeaders(context, "text/html; charset=utf-8")
  headers.set(
    "content-security-policy",
    `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'; base-uri 'none'`,
  )
  headers.set("x-frame-options", "DENY")
  // Not `no-referrer`: under it browsers send `Origin: null` on the page's own form posts, which
  // a framework's CSRF guard in front of us (SvelteKit's) refuses as cross-site. `same-origin`
  // still keeps the URL (an email link's token) from every other origin.
  headers.set("referrer-policy", "same-origin")
  return new Response(body, { status, headers })
}

/** The client asked with `X-Auth-Return-Redirect: 1` (the fetch-based client): it navigates itself to a `url` it is given. */
function wantsUrl(request: Request): boolean {
  return request.headers.get("x-auth-return-redirect") === "1"
}

/**
 * A redirect; or, when the client asked with `X-Auth-Return-Redirect: 1` (the fetch-based
 * client), the same target as JSON `{ url }` so it can navigate itself.
 */
export function redirect(context: RequestContext, location: string, status: 302 | 303 = 302): Response {
  if (wantsUrl(context.request)) return json(context, { url: location })
  const headers = baseHeaders(context)
  headers.set("location", location)
  return new Response(null, { status, headers })
}

/**
 * What a route that answers by the shared conventions ends with: where the browser goes next,
 * and for a refusal its error code (a public code such as `"invalidCode"`, never a detail) and
 * HTTP status (default 400).
 */
export type RouteOutcome = { url: string; error?: undefined } | { url: string; error: string; status?: number }

/**
 * The answer of a route by the conventions every route since the second factors follows, so a
 * form, the fetch-based client and a script each get what they can use:
 * - `X-Auth-Return-Redirect: 1`: `200 { url }`, or `200 { url, error }` for a refusal;
 * - `Accept: application/json` (without `text/html`): `200 { url }`, or the status with `{ error }`;
 * - otherwise (a form post): `303 See Other` to `url`, which for a refusal carries `?error=`.
 *
 * A refusal's `url` is the page to show it on (the challenge page after a wrong code); the
 * `error` query parameter is added to it for the two answers a browser navigates with.
 *
 * @see RFC 9110 §15.4.4 (303 See Other: a GET of the page after a POST)
 * @example
 * ```ts
 * return answerRoute(context, ok ? { url: callbackUrl } : { url: `${context.authUrl}/mfa`, error: "invalidCode" })
 * ```
 */
export function answerRoute(context: RequestContext, outcome: RouteOutcome): Response {
  const { request } = context
  const accept = request.headers.get("accept") ?? ""
  if (!wantsUrl(request) && accept.includes("application/json") && !accept.includes("text/html")) {
    return outcome.error === undefined ? json(context, { url: outcome.url }) : json(context, { error: outcome.error }, outcome.status ?? 400)
  }
  if (outcome.error === undefined) return redirect(context, outcome.url, 303)
  const target = new URL(outcome.url, context.origin)
  target.searchParams.set("error", outcome.error)
  return wantsUrl(request) ? json(context, { url: target.href, error: outcome.error }) : redirect(context, target.href, 303)
}
