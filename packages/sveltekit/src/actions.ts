/**
 * What runs inside SvelteKit's own request handling: `event.locals.auth()` in load functions and
 * endpoints, and the `signIn` / `signOut` form actions. Each builds a request to one of core's
 * routes from the event, calls core, and hands core's cookies to `event.cookies`.
 */
import { Auth, getSessionForResponse, type AuthConfig, type Session } from "@portcullis/core"
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { basePathOf } from "./config.js"
import { setCookies } from "./cookies.js"

/** Options of `signIn`, as @auth/sveltekit takes them (a form's fields, or an object). */
export interface SignInOptions {
  /** Where the browser lands after signing in. Default: the page the form was on (`Referer`), else `/`. */
  redirectTo?: string
  /** `false` returns the URL to go to instead of redirecting. Default `true`. */
  redirect?: boolean
  /** Form fields a provider reads: `email` for an email provider, a credentials provider's fields. */
  [field: string]: string | boolean | undefined
}

/** Options of `signOut`. */
export interface SignOutOptions {
  /** Where the browser lands after signing out. Default: the page the form was on, else `/`. */
  redirectTo?: string
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Authorization request parameters a `signIn` adds for the provider (`login_hint`, `prompt`...). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** The prefix of a form field that `signIn` sends to the provider as an authorization parameter, as @auth/sveltekit's `SignIn` writes them. */
const AUTHORIZATION_PARAM = "authorizationParams-"

/** A request to `path` on the event's origin, carrying the browser's headers (its cookies) for core to decide on. */
function requestTo(event: RequestEvent, path: string, init: { method?: string; body?: string; cookie?: string } = {}): Request {
  const headers = new Headers(event.request.headers)
  // These describe the browser's request to the page, not this one to the auth routes.
  for (const name of ["content-type", "content-length", "transfer-encoding"]) headers.delete(name)
  if (init.cookie !== undefined) headers.set("cookie", init.cookie)
  if (init.body !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
  return new Request(new URL(path, event.url.origin), { method: init.method ?? "GET", headers, body: init.body ?? null })
}

/**
 * The session of the event (`event.locals.auth()`), with a renewal handed to `event.cookies`, so
 * SvelteKit writes it on the page's response. `null` when signed out.
 */
export async function sessionOf(event: RequestEvent, config: AuthConfig): Promise<Session | null> {
  const pending: string[] = []
  const session = await getSessionForResponse(requestTo(event, `${basePathOf(config)}/session`), config, (cookie) => pending.push(cookie))
  setCookies(event.cookies, pending)
  return session
}

/** `name=value` of each `Set-Cookie`, appended to a `Cookie` header. */
function withCookies(cookieHeader: string | null, setCookieHeaders: readonly string[]): string {
  const pairs = setCookieHeaders.map((header) => header.split(";", 1)[0] ?? "")
  return [cookieHeader ?? "", ...pairs].filter((part) => part !== "").join("; ")
}

/**
 * POSTs a form to one of core's state-changing routes on the user's behalf: the CSRF token comes
 * from core's own `GET /csrf` (its cookie travels on to the POST and back to the browser), and
 * every cookie core sets goes to `event.cookies`. Answers where core sends the browser.
 */
async function postForm(event: RequestEvent, config: AuthConfig, path: string, form: Record<string, string>): Promise<string> {
  const csrf = await Auth(requestTo(event, `${basePathOf(config)}/csrf`), config)
  const csrfCookies = csrf.headers.getSetCookie()
  const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown }
  const body = new URLSearchParams({ ...form, csrfToken: typeof csrfToken === "string" ? csrfToken : "" }).toString()
  const cookie = withCookies(event.request.headers.get("cookie"), csrfCookies)
  const response = await Auth(requestTo(event, path, { method: "POST", body, cookie }), config)
  setCookies(event.cookies, [...csrfCookies, ...response.headers.getSetCookie()])
  return response.headers.get("location") ?? form.callbackUrl ?? "/"
}

/** Whether `id` names a credentials provider, asked of core's own `GET /providers`. */
async function isCredentials(event: RequestEvent, config: AuthConfig, id: string): Promise<boolean> {
  const response = await Auth(requestTo(event, `${basePathOf(config)}/providers`), config)
  if (!response.ok) return false
  const providers = (await response.json()) as Record<string, { type?: unknown } | undefined>
  return providers[id]?.type === "credentials"
}

function defaultCallbackUrl(event: RequestEvent): string {
  return event.request.headers.get("referer") ?? "/"
}

function shouldRedirect(value: string | boolean | undefined): boolean {
  return value !== false && value !== "false"
}

/**
 * Signs in with `provider` (the sign-in page when none is given): posts to core's sign-in route
 * (a credentials provider's callback), then redirects there, or with `redirect: false` returns
 * that URL.
 *
 * @throws SvelteKit's redirect when redirecting: call it outside `try`, as `redirect()`.
 */
export async function signIn(
  event: RequestEvent,
  config: AuthConfig,
  provider: string | undefined,
  options: SignInOptions = {},
  authorizationParams?: AuthorizationParams,
): Promise<string> {
  const { redirect: redirectOption, redirectTo, callbackUrl: legacyCallbackUrl, ...rest } = options
  const requested = typeof redirectTo === "string" && redirectTo !== "" ? redirectTo : legacyCallbackUrl
  const callbackUrl = typeof requested === "string" && requested !== "" ? requested : defaultCallbackUrl(event)
  const basePath = basePathOf(config)
  let target: string
  if (provider === undefined || provider === "") {
    target = `${basePath}/signin?${new URLSearchParams({ callbackUrl }).toString()}`
  } else {
    const fields: Record<string, string> = {}
    for (const [name, value] of Object.entries(rest)) if (typeof value === "string") fields[name] = value
    const id = encodeURIComponent(provider)
    const query = new URLSearchParams(authorizationParams).toString()
    const path = (await isCredentials(event, config, provider)) ? `${basePath}/callback/${id}` : `${basePath}/signin/${id}${query === "" ? "" : `?${query}`}`
    target = await postForm(event, config, path, { ...fields, callbackUrl })
  }
  if (shouldRedirect(redirectOption)) redirect(303, target)
  return target
}

/**
 * Signs out (ending the session in core), then redirects to `redirectTo`, or with
 * `redirect: false` returns that URL.
 *
 * @throws SvelteKit's redirect when redirecting.
 */
export async function signOut(event: RequestEvent, config: AuthConfig, options: SignOutOptions | Record<string, string | boolean | undefined> = {}): Promise<string> {
  const requested = options.redirectTo
  const callbackUrl = typeof requested === "string" && requested !== "" ? requested : defaultCallbackUrl(event)
  const target = await postForm(event, config, `${basePathOf(config)}/signout`, { callbackUrl })
  if (shouldRedirect(options.redirect)) redirect(303, target)
  return target
}

/**
 * The form a `signIn` / `signOut` action was posted with.
 *
 * @throws SvelteKit's `400` error when the body is not a readable form (a malformed multipart body), rather than a 500.
 */
export async function readForm(event: RequestEvent): Promise<FormData> {
  try {
    return await event.request.formData()
  } catch {
    error(400, "The sign-in or sign-out form could not be read.")
  }
}

/** A form action's fields as `signIn` takes them: the provider id, its options and its authorization parameters. */
export function signInFields(form: FormData): { provider: string | undefined; options: SignInOptions; authorizationParams: Record<string, string> } {
  const options: SignInOptions = {}
  const authorizationParams: Record<string, string> = {}
  let provider: string | undefined
  for (const [name, value] of form) {
    if (typeof value !== "string") continue
    if (name === "providerId") provider = value
    else if (name.startsWith(AUTHORIZATION_PARAM)) authorizationParams[name.slice(AUTHORIZATION_PARAM.length)] = value
    else options[name] = value
  }
  return { provider, options, authorizationParams }
}

/** A form action's fields as `signOut` takes them. */
export function signOutFields(form: FormData): SignOutOptions {
  const redirectTo = form.get("redirectTo")
  const redirectField = form.get("redirect")
  return {
    ...(typeof redirectTo === "string" ? { redirectTo } : {}),
    ...(redirectField === "false" ? { redirect: false } : {}),
  }
}
