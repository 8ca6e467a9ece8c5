/**
 * A browser on another loopback name than the app's (`127.0.0.1:3000` while `AUTH_URL` says
 * `localhost:3000`), where cookies set on one name are not sent to the other: noticing it, and
 * the refusal that says so. Only a failed CSRF check and the default sign-in page ask, so this
 * module is fetched then: an app's ordinary requests never load it.
 */
import { MissingCSRF } from "../errors/flow-errors.js"
import type { RequestContext } from "../internal.js"
import { isLoopbackOrigin, type OriginPolicy } from "./origins.js"

/**
 * The loopback origin a browser was observed on (`observed`: an `Origin` or `Referer` header, a
 * request URL), when the app's origin is its canonical one (`url` / `AUTH_URL`), on loopback, and
 * another. Reduced to an origin (no path, no query) and only for loopback names, it is for
 * describing the mismatch in a message; it never becomes a link or a redirect.
 */
export function otherLoopbackOrigin(policy: OriginPolicy, appOrigin: string, observed: string | null | undefined): string | undefined {
  if (policy.canonical?.origin !== appOrigin || !isLoopbackOrigin(appOrigin) || observed == null || observed.length > 2048) return undefined
  let origin: string
  try {
    const url = new URL(observed)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    origin = url.origin
  } catch {
    return undefined
  }
  return origin !== appOrigin && isLoopbackOrigin(origin) ? origin : undefined
}

/** Why a CSRF check failed, each with its sentence. */
const CSRF_FAILURES = {
  noToken: "The request has no `csrfToken`: fetch one from GET /csrf and send it with the form.",
  noCookie: "The CSRF cookie is missing or was not set by this server.",
  mismatch: "The submitted `csrfToken` does not match the CSRF cookie.",
} as const

/** Why a CSRF check failed: no token in the form, no valid cookie, or the two differ. */
export type CsrfFailure = keyof typeof CSRF_FAILURES

/**
 * The CSRF refusal, naming the likely cause when the posting page was on another loopback name
 * than the app's: its CSRF cookie stayed with that name. A browser sends `Origin: null` and no
 * `Referer` on such a post from our pages (their referrer policy is `same-origin`), so the page's
 * own word (`claimed`) is read after them.
 */
export function csrfRefusal(context: RequestContext, claimed: string | null | undefined, failure: CsrfFailure): MissingCSRF {
  const reason = CSRF_FAILURES[failure]
  const { headers } = context.request
  const origin = headers.get("origin")
  const observed = (origin === "null" ? null : origin) ?? headers.get("referer") ?? claimed
  const openedAt = otherLoopbackOrigin(context.config.origins, context.origin, observed)
  if (openedAt === undefined) return new MissingCSRF(reason)
  return new MissingCSRF(
    `This app's URL is ${context.origin} (AUTH_URL or \`url\`) but the page was opened at ${openedAt}: open it at ${context.origin} (or set AUTH_URL to the address you use). A cookie set on one name is not sent to the other, so ${reason[0]?.toLowerCase() ?? ""}${reason.slice(1)}`,
    { openedAt },
  )
}
