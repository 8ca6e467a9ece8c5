/**
 * The `reauth/` room: proving it is still the signed-in user (issue 38): the page at
 * `{basePath}/reauth` that offers this user's ways (`ways.ts`, `page.ts`), the routes that start
 * each way (`{basePath}/reauth/:id`), and the one ending (`ending.ts`) that raises the same
 * session's assurance instead of starting a new one. Loaded by `import()` from `Auth()`'s route
 * table on first use; the flows reach the ending only by `import()`, when the marker this room
 * sets (`RequestContext.reauth`) or their sealed state says a re-authentication is under way.
 *
 * Routes: `GET /reauth?callbackUrl=` (the page; JSON `{ methods }` for `Accept: application/json`);
 * `POST /reauth/:id` (a password form, an OpenID provider's redirect, an email link sent);
 * `GET /reauth/:id` (a passkey's options; an email link's confirmation page) and `POST /reauth/totp`
 * (an authenticator app's code, when `mfa.factors` lists `"totp"` and no provider has the id `totp`).
 */
import { auditAs } from "../audit/audit.js"
import { auditFailure } from "../audit/trail.js"
import { AuthError } from "../errors/errors.js"
import { sanitizeError } from "../errors/logger.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { answerRoute, json, readForm, redirect } from "../http/context.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { auditReasonOf, methodNotAllowed, notFound } from "../http/failures.js"
import { signInPageUrl } from "../http/routes.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { readSession } from "../session/index.js"
import { reauthUrl } from "../session/recent.js"
import { reauthPage } from "./page.js"
import { TOTP_WAY, reauthWayOf, reauthWays, type ReauthWay } from "./ways.js"

// An authenticator app's code is a way only where the app configures second factors: loaded then.
const totp = () => import("./totp.js")

/** Whether the request is a script's, which wants JSON rather than a page. */
function wantsJson(request: Request): boolean {
  const accept = request.headers.get("accept") ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}

/** What the JSON answer says of a way. */
function described(way: ReauthWay): { type: string; provider?: string; name?: string } {
  return way.provider === undefined ? { type: way.kind } : { type: way.kind, provider: way.provider.id, name: way.provider.name }
}

/** `GET /reauth`: the page, or `{ methods }` for a script; with none, the page says so and links to a fresh sign-in. */
async function showPage(context: RequestContext, userId: string, callbackUrl: string): Promise<Response> {
  const ways = await reauthWays(context, userId, context.config.mfa === undefined ? [] : await (await totp()).totpWays(context, userId))
  const signInUrl = signInPageUrl(context, { callbackUrl })
  if (wantsJson(context.request)) return json(context, { methods: ways.map(described), ...(ways.length === 0 ? { url: signInUrl } : {}) })
  const { adapter } = context.config
  const user = adapter === undefined || !ways.some((way) => way.kind === "email") ? undefined : storedUser(await callAdapter(adapter, "getUser", userId))
  return reauthPage(context, { ways, csrfToken: await csrfToken(context), callbackUrl, signInUrl, email: user?.email ?? undefined, error: context.url.searchParams.get("error") })
}

/**
 * Starts a way that leaves the page (an OpenID provider's login, an email link): the form's CSRF
 * token checked, then the provider's flow asked to start with the marker set.
 */
async function start(context: RequestContext, provider: FlowProvider, form: URLSearchParams): Promise<Response> {
  await verifyCsrf(context, form.get("csrfToken"))
  const callbackUrl = await resolveCallbackUrl(context, form.get("callbackUrl"))
  context.returnTo = callbackUrl
  return provider.flow.signIn(context, provider, { form, callbackUrl })
}

/** Hands the request to the way's flow, the marker set; `undefined` for a method the way does not take. */
async function runWay(context: RequestContext, way: ReauthWay & { provider: FlowProvider }, method: "GET" | "POST"): Promise<Response | undefined> {
  const { provider } = way
  switch (way.kind) {
    case "passkey": {
      const options = provider.flow.routes?.["webauthn-options"]?.GET
      return method === "GET" && options !== undefined ? options(context, provider) : undefined
    }
    case "credentials":
      if (method !== "POST") return undefined
      auditAs(context, "reauth", provider.id)
      return provider.flow.callback(context, provider)
    case "oidc":
      if (method !== "POST") return undefined
      auditAs(context, "reauth", provider.id)
      return start(context, provider, await readForm(context.request))
    case "email": {
      // The link itself (its confirmation page, then its form) carries a token; the page's form does not.
      if (method === "GET") return context.url.searchParams.has("token") ? provider.flow.callback(context, provider) : undefined
      const form = await readForm(context.request.clone())
      if (form.has("token")) {
        auditAs(context, "reauth", provider.id)
        return provider.flow.callback(context, provider)
      }
      auditAs(context, "emailLinkRequest", provider.id)
      return start(context, provider, form)
    }
    default:
      return undefined
  }
}

/** A way that failed: logged and audited as any failure, and the browser back on the page with the failure's code. */
async function refused(context: RequestContext, error: AuthError, callbackUrl: string): Promise<Response> {
  context.config.logger.error(sanitizeError(error, context.sensitive))
  if (context.audit !== undefined) await auditFailure(context, auditReasonOf(error))
  return answerRoute(context, { url: reauthUrl(context, callbackUrl), error: error.code, status: 403 })
}

/**
 * Answers a request to `{basePath}/reauth` and `{basePath}/reauth/:id`. Without a session the
 * page sends the browser to sign in (a script gets `401 { error: "SessionRequired", url }`).
 *
 * @throws {AdapterError} when the store fails.
 * @throws {SessionTokenError} when a session callback throws.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1, 7.5.3 (re-authentication before sensitive changes)
 */
export async function reauthRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  const requested = context.url.searchParams.get("callbackUrl")
  const callbackUrl = await resolveCallbackUrl(context, requested)
  const current = await readSession(context)
  if (current?.userId === undefined) {
    const url = signInPageUrl(context, { callbackUrl })
    if (sub === "" && method === "GET" && !wantsJson(context.request)) return redirect(context, url)
    return answerRoute(context, { url, error: "SessionRequired", status: 401 })
  }
  try {
    return await answerWay(context, current.userId, method, sub, callbackUrl)
  } catch (thrown) {
    if (!(thrown instanceof AuthError)) throw thrown
    return refused(context, thrown, context.returnTo ?? callbackUrl)
  }
}

/** The page, or the way `sub` names (an authenticator app's code, or a provider's flow with the marker set). */
async function answerWay(context: RequestContext, userId: string, method: "GET" | "POST", sub: string, callbackUrl: string): Promise<Response> {
  if (sub === "") return method === "GET" ? showPage(context, userId, callbackUrl) : methodNotAllowed(context, true, false)
  // Served only where `mfa.factors` lists the authenticator app: a factor the app left out proves nothing.
  if (sub === TOTP_WAY && context.config.mfa?.factors.includes("totp") === true && !context.config.providersById.has(sub)) {
    return method === "POST" ? (await totp()).reauthWithTotp(context, userId) : methodNotAllowed(context, false, true)
  }
  const way = await reauthWayOf(context, userId, sub)
  if (way?.provider === undefined) return notFound(context.request, context.url, context.config)
  context.reauth = { userId, at: Math.floor(Date.now() / 1000) }
  return (await runWay(context, { ...way, provider: way.provider }, method)) ?? methodNotAllowed(context, way.kind === "passkey" || way.kind === "email", way.kind !== "passkey")
}
