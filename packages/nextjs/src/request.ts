/**
 * Next.js requests as core wants them: without the route parameters Next.js adds to
 * `request.url`, and, where Next.js gives no request (server components, server actions), one
 * built from `headers()`.
 */

/**
 * Whether a search parameter was added by Next.js rather than sent by the browser: the
 * catch-all segment's value (`nextauth` for `[...nextauth]`, as the edge runtime adds it) and
 * Next.js's internal route-parameter keys (`nxtP<name>`, `nxtI<name>`).
 */
function isRouteParam(name: string): boolean {
  return name === "nextauth" || /^nxt[PI]/.test(name)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The `Cookie` header with values as core wrote them. Next.js's `cookies().set()` (the only way
 * a server action or component code can set a cookie) percent-encodes values, so a cookie core
 * set as `token|mac` comes back as `token%7Cmac`; `undefined` when nothing is encoded.
 */
function decodedCookieHeader(header: string | null): string | undefined {
  if (header === null || !header.includes("%")) return undefined
  return header
    .split(";")
    .map((pair) => {
      const eq = pair.indexOf("=")
      return eq === -1 ? pair : `${pair.slice(0, eq)}=${safeDecode(pair.slice(eq + 1).trim())}`
    })
    .join(";")
}

/**
 * `request` as core expects it: without the parameters Next.js adds for the `[...nextauth]`
 * segment (so they never reach a provider's authorization URL), and with cookie values decoded
 * (see {@link decodedCookieHeader}). The same request when neither applies.
 */
export function forCore(request: Request): Request {
  const url = new URL(request.url)
  const names = [...new Set(url.searchParams.keys())].filter(isRouteParam)
  const cookie = decodedCookieHeader(request.headers.get("cookie"))
  if (names.length === 0 && cookie === undefined) return request
  for (const name of names) url.searchParams.delete(name)
  const headers = new Headers(request.headers)
  if (cookie !== undefined) headers.set("cookie", cookie)
  const hasBody = request.method !== "GET" && request.method !== "HEAD"
  // `duplex` is required by Node's fetch to pass a streamed body on, and unknown to the DOM types.
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, body: hasBody ? request.body : null, signal: request.signal }
  if (hasBody) init.duplex = "half"
  return new Request(url, init)
}

/**
 * A request to `path` on the host the current request came to, carrying its headers (cookies
 * included), for code that has `headers()` but no `Request`. core decides which host to trust.
 */
export function requestFromHeaders(headers: Headers, path: string, init: { method?: string; body?: string } = {}): Request {
  const host = headers.get("host") ?? "localhost"
  const forwardedProto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim()
  const protocol = forwardedProto === "https" ? "https" : "http"
  let origin: string
  try {
    origin = new URL(`${protocol}://${host}`).origin
  } catch {
    // A Host core cannot use: it answers such a request as signed out.
    origin = "http://invalid.invalid"
  }
  const copy = new Headers(headers)
  const cookie = decodedCookieHeader(headers.get("cookie"))
  if (cookie !== undefined) copy.set("cookie", cookie)
  // These describe the browser's request to the page, not this one to the auth routes.
  for (const name of ["content-type", "content-length", "next-action", "next-router-state-tree"]) copy.delete(name)
  if (init.body !== undefined) copy.set("content-type", "application/x-www-form-urlencoded")
  return new Request(`${origin}${path}`, { method: init.method ?? "GET", headers: copy, body: init.body ?? null })
}
