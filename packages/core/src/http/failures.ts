/**
 * How a failed request is answered: logged with its cause (this request's secrets redacted),
 * sent to the audit trail as the failure of the operation under way (with the reason its code
 * maps to), then a redirect to the sign-in or error page, a JSON error for the routes scripts
 * call, or a page in place when there is no origin to redirect to. `Auth()` and the server-side
 * calls (`signIn`, `signOut`, `updateSession`) answer every failure here, so they answer alike.
 * It is fetched with the first failure: an app's ordinary requests never load it.
 */
import { auditFailure, taggedAuditReason } from "../audit/trail.js"
import { html, json, redirect } from "./context.js"
import { AuthError, Configuration, UnknownAction, type AuthErrorCode } from "../errors/errors.js"
import { MissingCSRF } from "../errors/flow-errors.js"
import { httpStatus } from "../errors/errors.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import { loggedOnce } from "../errors/log-once.js"
import { createLogger, sanitizeError } from "../errors/logger.js"
import { errorPageUrl, signInPageUrl, type Action } from "./routes.js"
import type { AuditReason, AuthConfig } from "../types.js"

/**
 * The audit reason of each failure, by its code: the one table, so that no throw names a reason
 * (a throw whose code is too coarse tags a finer one with `withAuditReason`).
 */
const AUDIT_REASONS: Record<AuthErrorCode, AuditReason> = {
  Configuration: "configuration",
  MissingSecret: "configuration",
  UntrustedHost: "configuration",
  SessionTokenError: "configuration",
  CallbackRouteError: "configuration",
  EventError: "configuration",
  AdapterError: "storeError",
  UnknownAction: "invalidRequest",
  InvalidProvider: "invalidRequest",
  MissingCSRF: "invalidRequest",
  InvalidCheck: "invalidRequest",
  InvalidCallbackUrl: "invalidRequest",
  EmailSignInError: "invalidRequest",
  InvalidLogoutToken: "invalidRequest",
  UnknownAccount: "invalidRequest",
  OAuthSignInError: "providerError",
  OAuthCallbackError: "providerError",
  RefreshTokenError: "providerError",
  OAuthAccountNotLinked: "accountNotLinked",
  CredentialsSignin: "invalidCredentials",
  WebAuthnVerificationError: "invalidCredentials",
  AccessDenied: "denied",
  Verification: "invalidCode",
  SignInRequired: "signInRequired",
  LastSignInMethod: "lastSignInMethod",
}

/** Why `error` failed an operation, as the audit trail says it. */
export function auditReasonOf(error: AuthError): AuditReason {
  return taggedAuditReason(error) ?? AUDIT_REASONS[error.code]
}

/** Routes whose answer is data for scripts: failures answer JSON, not a page. */
const JSON_ACTIONS = new Set<Action>(["providers", "csrf", "session", "sessions", "flow", "accounts"])

function fallbackLogger(config: AuthConfig): InternalConfig["logger"] {
  const logger = (config as { logger?: unknown } | undefined)?.logger
  return createLogger(typeof logger === "object" && logger !== null ? (logger) : undefined, false)
}

/** Whether the request is a browser's navigation, which wants a page rather than JSON. */
export function acceptsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html")
}

/** A JSON error answer: the code and its message for people (the sentences load with the first one). */
export async function jsonError(context: RequestContext | undefined, code: AuthErrorCode, status: number): Promise<Response> {
  const { errorMessages } = await import("../errors/error-messages.js")
  return json(context, { error: code, message: errorMessages[code] }, status)
}

/** The default pages, fetched when one is served: an app on its own pages never loads them. */
const pages = () => import("../pages/index.js")

async function failure(error: AuthError, request: Request, context: RequestContext | undefined, action: Action | undefined): Promise<Response> {
  if (context === undefined || action === undefined) {
    // No origin to redirect to (an unusable configuration or an untrusted host): answer in place.
    if (acceptsHtml(request)) {
      const page = (await pages()).renderError({ theme: {}, code: error.code, homeUrl: "/", signinUrl: "/", logged: true })
      return html(undefined, page, httpStatus(error.code))
    }
    return jsonError(undefined, error.code, httpStatus(error.code))
  }
  if (JSON_ACTIONS.has(action) || error instanceof UnknownAction || (action === "account" && (context.serverCall === true || !acceptsHtml(request)))) {
    // The account settings answer a script (the client, server code) in JSON, a form with a page.
    return jsonError(context, error.code, httpStatus(error.code))
  }
  if (error.page === "signin") {
    const openedAt = error instanceof MissingCSRF ? error.openedAt : undefined
    return redirect(context, signInPageUrl(context, { error: error.code, code: error.publicCode, callbackUrl: context.returnTo, openedAt }))
  }
  return redirect(context, errorPageUrl(context, error.code))
}

/** `405` for a method a route does not take, with the `Allow` header of the methods it does. */
export async function methodNotAllowed(context: RequestContext, get: boolean, post: boolean): Promise<Response> {
  const response = await jsonError(context, "UnknownAction", 405)
  response.headers.set("allow", [get && "GET, HEAD", post && "POST"].filter(Boolean).join(", "))
  return response
}

/** `404` for a path no route serves: a person who followed a stale link gets a page with a way on; scripts keep their JSON. */
export async function notFound(request: Request, url: URL, config: InternalConfig): Promise<Response> {
  config.logger.debug(`Nothing is served at ${url.pathname}.`)
  if (acceptsHtml(request)) return html(undefined, (await pages()).renderNotFound({ theme: config.theme, homeUrl: "/", signinUrl: `${config.basePath}/signin` }), 404)
  return jsonError(undefined, "UnknownAction", 404)
}

/** Where a request failed: as far as it got before the failure. */
export interface FailedRequest {
  request: Request
  config: AuthConfig
  /** The resolved configuration, once it was read. */
  internal: InternalConfig | undefined
  /** The request's context, once its origin was resolved. */
  context: RequestContext | undefined
  /** The route, once the path named one. */
  action: Action | undefined
}

/**
 * Logs `thrown` (an unexpected value as a `Configuration` error) and answers it; never throws.
 * An error already logged once for the process (an incomplete provider's) is logged at debug level only.
 * A failure to build the answer itself is logged too and answered `503` JSON.
 */
export async function answerFailure(thrown: unknown, at: FailedRequest): Promise<Response> {
  const { request, config, internal, context, action } = at
  const error = thrown instanceof AuthError ? thrown : new Configuration("An unexpected error occurred while handling the request.", { cause: thrown })
  const logger = internal?.logger ?? fallbackLogger(config)
  if (loggedOnce(error)) logger.debug(`${error.code}: ${error.message}`)
  else logger.error(context === undefined ? error : sanitizeError(error, context.sensitive))
  if (context?.audit !== undefined) await auditFailure(context, auditReasonOf(error))
  try {
    return await failure(error, request, context, action)
  } catch (cause) {
    logger.error(new Configuration("The error response could not be built.", { cause }))
    return await jsonError(undefined, "Configuration", 503)
  }
}
