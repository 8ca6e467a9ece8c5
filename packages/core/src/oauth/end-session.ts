/**
 * RP-initiated logout: a sign-out that also ends the user's session at the OpenID Provider. The
 * ID token of the sign-in is kept, sealed, in a cookie of this browser (the provider's session is
 * this browser's too); signing out sends the browser to the provider's `end_session_endpoint`
 * with it as `id_token_hint`, and the provider sends it back to `/signout/callback/:id`, where
 * `state` is checked against the same cookie, which only the right `state` spends, before the
 * browser goes on.
 *
 * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html
 */
import { clearChunked, readChunked, writeChunked } from "../http/cookies.js"
import { redirect } from "../http/context.js"
import { deriveKeys, randomString, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { AuthError } from "../errors/errors.js"
import { InvalidCheck, OAuthSignInError } from "../errors/flow-errors.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { publicOrigin } from "../http/outbound-urls.js"
import type { InternalOAuthProvider } from "./provider.js"
import { authorizationServer } from "./server.js"

const SALT = "authjs.end-session"

/** Seconds the browser may spend at the provider's sign-out page before coming back. */
const RETURN_MAX_AGE = 15 * 60

/** What the cookie holds: after a sign-in, the ID token; during a sign-out, the `state` and where to go after. */
interface Payload {
  /** The provider's id. */
  p: string
  /** The ID token of the sign-in. */
  t?: string
  /** The sign-out's `state`. */
  s?: string
  /** Where the browser goes after the provider's sign-out. */
  c?: string
  exp: number
}

async function seal(context: RequestContext, payload: Payload, maxAge: number): Promise<void> {
  const [key] = await deriveKeys(context.config.secrets, SALT, "jwe")
  const cookie = context.cookies.endSession
  context.setCookies.push(...writeChunked(cookie, await sealJwe(payload, key as SecretKey), context.jar, { ...cookie.options, maxAge }))
}

async function open(context: RequestContext): Promise<Payload | undefined> {
  const value = readChunked(context.jar, context.cookies.endSession.name)
  if (value === undefined || value.length > 16 * 4096) return undefined
  const opened = await openJwe(value, await deriveKeys(context.config.secrets, SALT, "jwe")).catch(() => undefined)
  const { p, t, s, c, exp } = (typeof opened === "object" && opened !== null ? opened : {}) as Partial<Record<keyof Payload, unknown>>
  if (typeof p !== "string" || typeof exp !== "number" || exp < Date.now() / 1000) return undefined
  const payload: Payload = { p, exp }
  if (typeof t === "string") payload.t = t
  if (typeof s === "string") payload.s = s
  if (typeof c === "string") payload.c = c
  return payload
}

/** Keeps the sign-in's ID token for the sign-out, for a provider with `endSessionOnSignOut`, as long as the session lives. */
export async function rememberIdToken(context: RequestContext, provider: InternalOAuthProvider, idToken: unknown): Promise<void> {
  if (!provider.endSessionOnSignOut || typeof idToken !== "string" || idToken === "") return
  const maxAge = context.config.session.maxAge
  await seal(context, { p: provider.id, t: idToken, exp: Math.floor(Date.now() / 1000) + maxAge }, maxAge)
}

/** The route the provider sends the browser back to after its sign-out: one fixed URI per provider, registered like `redirect_uri`. */
export function postLogoutRedirectUri(context: RequestContext, provider: InternalOAuthProvider): string {
  const origin = publicOrigin(context.config.origins, context.origin, context.url, "An OpenID Connect `post_logout_redirect_uri`")
  return `${origin}${context.config.basePath}/signout/callback/${encodeURIComponent(provider.id)}`
}

/**
 * After the local session ended: the redirect to the provider's `end_session_endpoint`, when
 * this browser signed in with this provider and it has `endSessionOnSignOut`. A provider that
 * cannot be asked (no `end_session_endpoint`, discovery failing) leaves the sign-out local, with
 * a warning: the user is signed out here whatever happens there.
 */
export async function endProviderSession(context: RequestContext, { options: provider }: FlowProvider<InternalOAuthProvider>, callbackUrl: string): Promise<Response | undefined> {
  const kept = await open(context)
  if (kept?.p !== provider.id || kept.t === undefined) return undefined
  context.sensitive.add(kept.t)
  context.setCookies.push(...clearChunked(context.cookies.endSession, context.jar))
  if (!provider.endSessionOnSignOut) return undefined
  let endpoint: string | undefined
  try {
    const metadata = await authorizationServer(provider)
    endpoint = typeof metadata.end_session_endpoint === "string" ? metadata.end_session_endpoint : undefined
  } catch (cause) {
    context.config.logger.error(cause instanceof AuthError ? cause : new OAuthSignInError(`The sign-out at provider "${provider.id}" could not be started: its metadata could not be read.`, { cause }))
    return undefined
  }
  if (endpoint === undefined) {
    context.config.logger.warn("EndSessionUnsupported", `Provider "${provider.id}" has \`endSessionOnSignOut\` but its metadata has no \`end_session_endpoint\`: the user was signed out here only.`)
    return undefined
  }
  const state = randomString(32)
  await seal(context, { p: provider.id, s: state, c: callbackUrl, exp: Math.floor(Date.now() / 1000) + RETURN_MAX_AGE }, RETURN_MAX_AGE)
  const target = new URL(endpoint)
  target.searchParams.set("id_token_hint", kept.t)
  target.searchParams.set("client_id", provider.clientId)
  target.searchParams.set("state", state)
  target.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri(context, provider))
  return redirect(context, target.href)
}

/**
 * `GET /signout/callback/:id`: the provider's sign-out is done; `state` must be the one this
 * browser's cookie holds for this provider, then the cookie is spent and the browser goes where
 * the sign-out asked. Any other request leaves the cookie as it was: anyone can link a browser
 * here, and a cookie spent by such a link would take the signed-in user's ID token with it,
 * leaving their next sign-out local while the provider's session lives on.
 *
 * @throws {InvalidCheck} when the cookie is missing, expired, for another provider, or `state` differs.
 * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html#RedirectionAfterLogout
 */
export async function endSessionCallback(context: RequestContext, { options: provider }: FlowProvider<InternalOAuthProvider>): Promise<Response> {
  const kept = await open(context)
  const states = context.url.searchParams.getAll("state")
  if (kept?.p !== provider.id || kept.s === undefined || kept.c === undefined) {
    throw new InvalidCheck(`The sign-out at provider "${provider.id}" was not started by this browser, or took longer than 15 minutes.`)
  }
  if (states.length !== 1 || states[0] !== kept.s) throw new InvalidCheck(`The sign-out callback of provider "${provider.id}" carries another \`state\` than this browser's sign-out.`)
  context.setCookies.push(...clearChunked(context.cookies.endSession, context.jar))
  return redirect(context, kept.c)
}
