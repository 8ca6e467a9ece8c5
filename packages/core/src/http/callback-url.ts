/**
 * Where a browser may be sent after signing in or out: a relative path or the app's own
 * origin; the app's `redirect` callback may choose among the origins the app admits, never
 * another.
 */
import type { RequestContext } from "../internal.js"
import { InvalidCallbackUrl } from "../errors/errors.js"
import { verifyCsrf } from "./csrf.js"
import { isAllowedOrigin } from "./origins.js"

/** The default `redirect` rule: same origin or a relative path; anything else becomes the origin. */
export function sameOriginOnly(url: string, baseUrl: string): string {
  const resolved = parseHttpUrl(url, baseUrl)
  return resolved !== undefined && resolved.origin === new URL(baseUrl).origin ? resolved.href : baseUrl
}

function parseHttpUrl(url: string, base: string): URL | undefined {
  // Control characters and backslashes are how `/\evil.com`-style payloads slip past parsers.
  // eslint-disable-next-line no-control-regex
  if (url.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(url)) return undefined
  try {
    const parsed = new URL(url, base)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * Resolves a requested `callbackUrl` to a safe absolute URL.
 *
 * A `redirect` callback's answer must be an http(s) URL on the request's origin or one the app
 * admits (`url`, `allowedOrigins`); any other answer sends the browser to the request's origin,
 * with a warning once per foreign origin.
 */
export async function resolveCallbackUrl(context: RequestContext, requested: string | null | undefined): Promise<string> {
  const baseUrl = context.origin
  const url = requested ?? baseUrl
  const redirect = context.config.callbacks.redirect
  if (redirect === undefined) return sameOriginOnly(url, baseUrl)
  const answer = await redirect({ url, baseUrl })
  const resolved = typeof answer === "string" ? parseHttpUrl(answer, baseUrl) : undefined
  if (resolved === undefined) {
    context.config.logger.error(new InvalidCallbackUrl(`The \`redirect\` callback returned a value that is not an http(s) URL; using ${baseUrl}.`))
    return baseUrl
  }
  if (resolved.origin !== baseUrl && !isAllowedOrigin(context.config.origins, resolved.origin)) {
    // Rare (a careless callback), so the warning's code is fetched only then.
    const { warnForeignOrigin } = await import("./redirect-warning.js")
    warnForeignOrigin(context, resolved.origin)
    return baseUrl
  }
  return resolved.href
}

/**
 * Checks a posted sign-in form's CSRF token and resolves the page it asks to go on to
 * (`requested`, its `callbackUrl`), which becomes the request's `returnTo`; a refused form still
 * keeps the requested page (a safe same-app URL only) for the page the refusal sends the browser back to.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {InvalidCallbackUrl} when `requested` is not the app's.
 */
export async function verifyFormTarget(context: RequestContext, form: URLSearchParams, requested: string | null): Promise<string> {
  try {
    await verifyCsrf(context, form.get("csrfToken"), form.get("openedAt"))
  } catch (error) {
    if (requested !== null) context.returnTo = await resolveCallbackUrl(context, requested)
    throw error
  }
  const target = await resolveCallbackUrl(context, requested)
  if (requested !== null) context.returnTo = target
  return target
}
