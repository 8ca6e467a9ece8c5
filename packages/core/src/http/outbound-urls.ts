/**
 * The URLs that leave the server to come back to it: the callback route on an origin the app
 * configured (an OAuth `redirect_uri`, an emailed link), and the `callbackUrl` remembered across
 * the provider round trip. Only a sign-in's code uses them, so they load with it, apart from the
 * routes and origins every request reads.
 */
import { Configuration } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"
import { isLoopbackHost } from "./loopback.js"
import { isAllowedOrigin, type OriginPolicy } from "./origins.js"

/**
 * Whether `origin` is a loopback origin on the request URL's own host: a development server,
 * which gets outbound URLs without configuration. A loopback host named only by
 * `X-Forwarded-Host` (or any header) is not one: anyone can send `X-Forwarded-Host: localhost`.
 */
export function isLocalOrigin(origin: string, requestUrl: URL): boolean {
  const { hostname, host } = new URL(origin)
  return host === requestUrl.host && isLoopbackHost(hostname)
}

/**
 * The origin a URL that leaves the server may be built from: the request's origin when the app
 * configured it (or it is a loopback address on the request URL's own host, see
 * {@link isLocalOrigin}), never one taken from headers alone.
 *
 * @throws {Configuration} when the app configured no origin at all and this one is not local.
 */
export function publicOrigin(policy: OriginPolicy, origin: string, requestUrl: URL, purpose: string): string {
  if (isAllowedOrigin(policy, origin) || isLocalOrigin(origin, requestUrl)) return origin
  throw new Configuration(
    `${purpose} needs the app's origin: set AUTH_URL (or \`url\`) to the app's URL, or list the origins it is served on in \`allowedOrigins\` (AUTH_ALLOWED_ORIGINS). A URL built from the request's Host header could point anywhere.`,
  )
}

/**
 * The callback route on an origin the app configured, for URLs that leave the server: an OAuth
 * `redirect_uri` (or the redirect proxy's, when one is used) and an emailed sign-in link; with
 * `route` `"reauth"`, an emailed re-authentication link (`{basePath}/reauth/:id`).
 *
 * @throws {Configuration} when the app configured no origin and the request URL is not on loopback.
 */
export function outboundCallbackUrl(context: RequestContext, providerId: string, purpose: string, proxy?: URL, route: "callback" | "reauth" = "callback"): string {
  const base = proxy === undefined ? `${publicOrigin(context.config.origins, context.origin, context.url, purpose)}${context.config.basePath}` : proxy.href.replace(/\/+$/, "")
  return `${base}/${route}/${encodeURIComponent(providerId)}`
}

/** The `callbackUrl` remembered in its cookie across the provider round trip. */
export function rememberedCallbackUrl(context: RequestContext): string | undefined {
  const value = context.jar.get(context.cookies.callbackUrl.name)
  if (value === undefined) return undefined
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

/** Remembers a resolved `callbackUrl` for the callback. */
export function rememberCallbackUrl(context: RequestContext, url: string): void {
  const cookie = context.cookies.callbackUrl
  context.setCookies.push({ name: cookie.name, value: encodeURIComponent(url), options: cookie.options })
}
