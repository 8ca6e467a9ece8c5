/**
 * What runs inside SvelteKit's own request handling: `event.locals.auth()` in load functions and
 * endpoints, and the `signIn` / `signOut` form actions. Each makes one call to core with the
 * event's request and hands core's cookies to `event.cookies`.
 */
import { getAccessToken, getSessionForResponse, requireRecentAuthForResponse, signIn as coreSignIn, signOut as coreSignOut, type AccessToken, type AuthConfig, type RecentAuth, type RecentAuthCheck, type Session } from "@portcullis/core"
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { addressedRequest } from "./client-address.js"
import { setCookies } from "./cookies.js"
import { actionFields, shouldRedirect, type AuthorizationParams, type SignInOptions, type SignOutOptions } from "@portcullis/core/integration"

export type { AuthorizationParams, SignInOptions, SignOutOptions } from "@portcullis/core/integration"

/** The prefix of a form field that `signIn` sends to the provider as an authorization parameter, as @auth/sveltekit's `SignIn` writes them. */
const AUTHORIZATION_PARAM = "authorizationParams-"

/**
 * The session of the event (`event.locals.auth()`), with a renewal handed to `event.cookies`, so
 * SvelteKit writes it on the page's response. `null` when signed out.
 */
export async function sessionOf(event: RequestEvent, config: AuthConfig): Promise<Session | null> {
  const pending: string[] = []
  const session = await getSessionForResponse(event.request, config, (cookie) => pending.push(cookie))
  setCookies(event.cookies, pending)
  return session
}

/**
 * Core's `requireRecentAuth` for the event (`event.locals.requireRecentAuth()`), with a renewal
 * handed to `event.cookies` as {@link sessionOf} hands it.
 */
export async function recentAuthOf(event: RequestEvent, config: AuthConfig, options: RecentAuthCheck | undefined): Promise<RecentAuth> {
  const pending: string[] = []
  const answer = await requireRecentAuthForResponse(event.request, config, (cookie) => pending.push(cookie), options)
  setCookies(event.cookies, pending)
  return answer
}

/**
 * The signed-in user's access token at `providerId` for the event (`event.locals.getAccessToken()`),
 * refreshed when due, with renewed cookies handed to `event.cookies`. `null` when signed out or
 * not linked.
 *
 * @throws {RefreshTokenError} when a due refresh fails.
 */
export async function accessTokenOf(event: RequestEvent, config: AuthConfig, providerId: string): Promise<AccessToken | null> {
  const pending: string[] = []
  const token = await getAccessToken(event.request, config, providerId, (cookie) => pending.push(cookie))
  setCookies(event.cookies, pending)
  return token
}

/**
 * Hands core's cookies to `event.cookies` and answers where core sends the browser (`fallback`
 * when core answered in place).
 *
 * @throws SvelteKit's `429` error, with core's `Retry-After`, when the client is over a per-client limit.
 */
function follow(event: RequestEvent, response: Response, fallback: string): string {
  if (response.status === 429) {
    try {
      event.setHeaders({ "retry-after": response.headers.get("retry-after") ?? "60" })
    } catch {
      // The page already set it; SvelteKit's error answer still carries the status.
    }
    error(429, "Too many sign-in requests from this client: try again later.")
  }
  setCookies(event.cookies, response.headers.getSetCookie())
  return response.headers.get("location") ?? fallback
}

function defaultCallbackUrl(event: RequestEvent): string {
  return event.request.headers.get("referer") ?? "/"
}

/**
 * Signs in with `provider` (the sign-in page when none is given) in one call to core, then
 * redirects where core sends the browser (the provider, or a page of the app), or with
 * `redirect: false` returns that URL.
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
  const response = await coreSignIn(addressedRequest(event), config, provider, { fields: actionFields(rest), redirectTo: callbackUrl, authorizationParams: new URLSearchParams(authorizationParams) })
  const target = follow(event, response, callbackUrl)
  if (shouldRedirect(redirectOption)) redirect(303, target)
  return target
}

/**
 * Signs out in one call to core (ending the session), then redirects to `redirectTo`, or with
 * `redirect: false` returns that URL.
 *
 * @throws SvelteKit's redirect when redirecting.
 */
export async function signOut(event: RequestEvent, config: AuthConfig, options: SignOutOptions | Record<string, string | boolean | undefined> = {}): Promise<string> {
  const requested = options.redirectTo
  const callbackUrl = typeof requested === "string" && requested !== "" ? requested : defaultCallbackUrl(event)
  const target = follow(event, await coreSignOut(event.request, config, { redirectTo: callbackUrl }), callbackUrl)
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
