/**
 * What runs where Next.js gives no `Request`: `auth()` in server components, route handlers and
 * server actions, and the `signIn` / `signOut` server actions. Each builds the request from
 * `headers()`, calls core, and hands core's cookies to `cookies()`.
 */
import { Auth, getSessionForResponse, type AuthConfig, type Session } from "@portcullis/core"
import * as nextCache from "next/cache.js"
import { cookies, headers } from "next/headers.js"
import { redirect } from "next/navigation"
import { basePathOf } from "./config.js"
import { setCookieHeaders, setCookies } from "./cookies.js"
import { requestFromHeaders } from "./request.js"

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
  await requestTime()
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const pending: string[] = []
  const session = await getSessionForResponse(requestFromHeaders(incoming, `${basePathOf(config)}/session`), config, (cookie) => pending.push(cookie))
  if (pending.length > 0) setCookies(store, pending)
  return session
}

/** Options of the `signIn` server action, as next-auth v5 takes them. */
export interface SignInOptions {
  /** Where the browser lands after signing in. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false` returns the URL to go to instead of redirecting. Default `true`. */
  redirect?: boolean
  /** Form fields a provider reads: `email` for an email provider, a credentials provider's fields. */
  [field: string]: string | boolean | undefined
}

/** Options of the `signOut` server action. */
export interface SignOutOptions {
  /** Where the browser lands after signing out. Default: the page the action was called from, else `/`. */
  redirectTo?: string
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Authorization request parameters a `signIn` adds for the provider (`login_hint`, `prompt`...). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** The string fields of a form or options object, without the ones Next.js adds to server-action forms. */
function fieldsOf(options: FormData | SignInOptions | undefined): Record<string, string | boolean | undefined> {
  if (!(options instanceof FormData)) return { ...options }
  const fields: Record<string, string> = {}
  for (const [name, value] of options) if (typeof value === "string" && !name.startsWith("$ACTION")) fields[name] = value
  return fields
}

/** `name=value` of each `Set-Cookie`, appended to a `Cookie` header. */
function withCookies(cookieHeader: string | null, setCookies: readonly string[]): string {
  const pairs = setCookies.map((header) => header.split(";", 1)[0] ?? "")
  return [cookieHeader ?? "", ...pairs].filter((part) => part !== "").join("; ")
}

/**
 * POSTs a form to one of core's state-changing routes on the user's behalf: the CSRF token comes
 * from core's own `GET /csrf` (its cookie travels on to the POST and back to the browser), and
 * every cookie core sets is handed to `cookies()`. Answers core's response.
 */
async function postToCore(config: AuthConfig, path: string, form: Record<string, string>): Promise<Response> {
  const [incoming, store] = await Promise.all([headers(), cookies()])
  const basePath = basePathOf(config)
  const csrf = await Auth(requestFromHeaders(incoming, `${basePath}/csrf`), config)
  const csrfCookies = setCookieHeaders(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown }
  const postHeaders = new Headers(incoming)
  postHeaders.set("cookie", withCookies(incoming.get("cookie"), csrfCookies))
  const body = new URLSearchParams({ ...form, csrfToken: typeof csrfToken === "string" ? csrfToken : "" }).toString()
  const response = await Auth(requestFromHeaders(postHeaders, path, { method: "POST", body }), config)
  setCookies(store, [...csrfCookies, ...setCookieHeaders(response)])
  return response
}

/** {@link postToCore} for a route that answers a redirect: where it sends the browser. */
async function postForm(config: AuthConfig, path: string, form: Record<string, string>): Promise<string> {
  const response = await postToCore(config, path, form)
  return response.headers.get("location") ?? form.callbackUrl ?? "/"
}

/**
 * The `unstable_update` server action: core's `POST /session` with `data`, which reaches the
 * `jwt` and `session` callbacks as `trigger: "update"`; the re-sealed cookie goes to `cookies()`.
 * Answers the updated session, or `null` when signed out or refused.
 */
export async function updateAction(config: AuthConfig, data: unknown): Promise<Session | null> {
  const response = await postToCore(config, `${basePathOf(config)}/session`, { data: JSON.stringify(data) })
  return response.ok ? ((await response.json()) as Session | null) : null
}

/** Where a sign-in or sign-out goes back to when the caller does not say. */
async function defaultCallbackUrl(): Promise<string> {
  return (await headers()).get("referer") ?? "/"
}

/** Whether `id` names a credentials provider, asked of core's own `GET /providers`. */
async function isCredentials(config: AuthConfig, id: string): Promise<boolean> {
  const incoming = await headers()
  const response = await Auth(requestFromHeaders(incoming, `${basePathOf(config)}/providers`), config)
  if (!response.ok) return false
  const providers = (await response.json()) as Record<string, { type?: unknown } | undefined>
  return providers[id]?.type === "credentials"
}

/** The `signIn` server action: see `NextAuthResult.signIn`. */
export async function signInAction(
  config: AuthConfig,
  provider: string | undefined,
  options: FormData | SignInOptions | undefined,
  authorizationParams: AuthorizationParams | undefined,
): Promise<string> {
  const { redirect: shouldRedirect, redirectTo, ...rest } = fieldsOf(options)
  const callbackUrl = typeof redirectTo === "string" ? redirectTo : await defaultCallbackUrl()
  const basePath = basePathOf(config)
  let target: string
  if (provider === undefined || provider === "") {
    target = `${basePath}/signin?${new URLSearchParams({ callbackUrl }).toString()}`
  } else {
    const fields: Record<string, string> = {}
    for (const [name, value] of Object.entries(rest)) if (typeof value === "string") fields[name] = value
    const id = encodeURIComponent(provider)
    const query = new URLSearchParams(authorizationParams).toString()
    const path = (await isCredentials(config, provider)) ? `${basePath}/callback/${id}` : `${basePath}/signin/${id}${query === "" ? "" : `?${query}`}`
    target = await postForm(config, path, { ...fields, callbackUrl })
  }
  if (shouldRedirect !== false && shouldRedirect !== "false") redirect(target)
  return target
}

/** The `signOut` server action: see `NextAuthResult.signOut`. */
export async function signOutAction(config: AuthConfig, options: SignOutOptions | undefined): Promise<string> {
  const callbackUrl = options?.redirectTo ?? (await defaultCallbackUrl())
  const target = await postForm(config, `${basePathOf(config)}/signout`, { callbackUrl })
  if (options?.redirect !== false) redirect(target)
  return target
}
