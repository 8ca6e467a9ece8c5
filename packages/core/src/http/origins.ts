/**
 * Which origin a request is served on, and which origins may appear in a URL that leaves the
 * server (an emailed sign-in link, a `redirect_uri`, a redirect-proxy target). Request headers
 * only ever pick among origins the app configured: `url` / `AUTH_URL`, `allowedOrigins` /
 * `AUTH_ALLOWED_ORIGINS`, or a loopback address during development.
 */
import { UntrustedHost } from "../errors/errors.js"
import { isLoopbackHost } from "./loopback.js"

/** One entry of `allowedOrigins`, compiled: an exact origin or a pattern with `*` in its first label. */
export interface OriginPattern {
  /** The entry as configured, for messages. */
  source: string
  test: (origin: string) => boolean
}

/** The origin rules of one configuration. */
export interface OriginPolicy {
  /** `url` / `AUTH_URL`: the canonical origin. */
  canonical: URL | undefined
  /** Whether `Host` / `X-Forwarded-Host` / `X-Forwarded-Proto` describe the request (a proxy sets them). */
  trustHost: boolean
  allowed: readonly OriginPattern[]
}

/** Whether an origin is on this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  return isLoopbackHost(new URL(origin).hostname)
}

/** Whether the app admits `origin` besides its canonical one. */
export function isAllowedOrigin(policy: OriginPolicy, origin: string): boolean {
  return policy.canonical?.origin === origin || policy.allowed.some((pattern) => pattern.test(origin))
}

function firstHeaderValue(value: string | null): string | undefined {
  const first = value?.split(",")[0]?.trim()
  return first === "" ? undefined : first
}

/** `host[:port]` as the Host header carries it: a name (`_` allowed, as container names have it), IPv4, or bracketed IPv6. */
const HOST = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * The origin the request's own headers describe.
 *
 * @throws {UntrustedHost} when the forwarded host or protocol is malformed.
 */
function headerOrigin(request: Request, url: URL): string {
  const host = firstHeaderValue(request.headers.get("x-forwarded-host")) ?? url.host
  const proto = firstHeaderValue(request.headers.get("x-forwarded-proto"))?.replace(/:$/, "") ?? url.protocol.slice(0, -1)
  if (proto !== "http" && proto !== "https") throw new UntrustedHost(`The forwarded protocol "${proto}" is not http or https.`)
  // Only a name or an address with an optional port: a URL parser would read `evil.example/path`
  // or `@evil.example` as some other origin.
  if (!HOST.test(host)) throw new UntrustedHost(`The forwarded host "${host}" is not a valid host.`)
  try {
    return new URL(`${proto}://${host}`).origin
  } catch (cause) {
    throw new UntrustedHost(`The forwarded host "${host}" is not a valid host.`, { cause })
  }
}

/**
 * The origin the app answers this request on.
 *
 * - With `url` / `AUTH_URL`: that origin, or, with `trustHost`, another origin the request names
 *   if `allowedOrigins` admits it (a preview deployment).
 * - Without it: the request's origin, if `trustHost` is set; when `allowedOrigins` is set, only
 *   an origin it admits.
 *
 * @throws {UntrustedHost} when the host is not trusted, malformed, or not admitted.
 */
export function resolveOrigin(policy: OriginPolicy, request: Request, url: URL): string {
  if (!policy.trustHost) {
    if (policy.canonical !== undefined) return policy.canonical.origin
    throw new UntrustedHost(
      `Host ${url.host} is not trusted: set AUTH_URL (or \`url\`) to the app's URL, or \`trustHost: true\` (AUTH_TRUST_HOST=true) when a proxy you control sets the Host header.`,
    )
  }
  const origin = headerOrigin(request, url)
  if (policy.canonical !== undefined) return isAllowedOrigin(policy, origin) ? origin : policy.canonical.origin
  if (policy.allowed.length > 0 && !policy.allowed.some((pattern) => pattern.test(origin))) {
    throw new UntrustedHost(`The origin ${origin} is not one of \`allowedOrigins\`.`)
  }
  return origin
}
