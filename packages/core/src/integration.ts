/**
 * `@portcullis/core/integration`: what every framework integration needs from core beyond
 * `Auth()` and the server functions, written once. A framework whose cookie API takes a name,
 * a value and options (Next.js's `cookies().set()`, SvelteKit's `event.cookies.set()`) reads
 * core's `Set-Cookie` values with {@link parseSetCookie}; server and form actions read their
 * options with {@link actionFields} and {@link shouldRedirect}, and refuse a cross-site post with
 * {@link isCrossSiteRequest}. An entry of its own, so an app that never loads an integration
 * bundles none of it, and free of core's other modules.
 *
 * @module integration
 */

/** The attributes of one `Set-Cookie` value, as cookie APIs take them (each absent when not set or not understood). */
export interface SetCookieAttributes {
  /** Seconds until the cookie expires; `0` or less deletes it. */
  maxAge?: number
  expires?: Date
  /** The domain, lower-cased and without a leading dot. */
  domain?: string
  path?: string
  httpOnly?: boolean
  secure?: boolean
  sameSite?: "lax" | "strict" | "none"
  /** CHIPS: the cookie is kept apart per top-level site. */
  partitioned?: boolean
  priority?: "low" | "medium" | "high"
}

/** One `Set-Cookie` value read into its parts. */
export interface ParsedSetCookie {
  name: string
  value: string
  attributes: SetCookieAttributes
}

const SAME_SITE = new Set(["lax", "strict", "none"])
const PRIORITY = new Set(["low", "medium", "high"])

/** Reads one attribute into `attributes`; a value it cannot use leaves the attribute out, as a browser ignores it. */
function readAttribute(attributes: SetCookieAttributes, key: string, value: string): void {
  switch (key) {
    case "max-age":
      // RFC 6265 §5.2.2: an optional "-" then digits only, else the attribute is ignored.
      if (/^-?\d+$/.test(value)) attributes.maxAge = Number(value)
      break
    case "expires": {
      const date = new Date(value)
      if (value !== "" && !Number.isNaN(date.getTime())) attributes.expires = date
      break
    }
    case "domain": {
      const domain = value.replace(/^\./, "").toLowerCase()
      if (domain !== "") attributes.domain = domain
      break
    }
    case "path":
      // RFC 6265 §5.2.4: a path not starting with "/" means the default path.
      if (value.startsWith("/")) attributes.path = value
      break
    case "httponly":
      attributes.httpOnly = true
      break
    case "secure":
      attributes.secure = true
      break
    case "partitioned":
      attributes.partitioned = true
      break
    case "samesite": {
      const sameSite = value.toLowerCase()
      if (SAME_SITE.has(sameSite)) attributes.sameSite = sameSite as "lax" | "strict" | "none"
      break
    }
    case "priority": {
      const priority = value.toLowerCase()
      if (PRIORITY.has(priority)) attributes.priority = priority as "low" | "medium" | "high"
      break
    }
  }
}

/**
 * Reads one `Set-Cookie` header value (as core writes them, or any other): its name, value and
 * every attribute core writes plus the standard ones (`Max-Age`, `Expires`, `Domain`, `Path`,
 * `Secure`, `HttpOnly`, `SameSite`, `Partitioned`, `Priority`). Attribute names are matched
 * without regard to case; an attribute with a value a browser would ignore is left out. The
 * value is kept as written (core's values need no decoding). Never throws.
 *
 * @returns the cookie, or `undefined` for a value a browser ignores: no `=` in the name-value pair, or an empty name.
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.2 (the parsing algorithm)
 * @see https://datatracker.ietf.org/doc/html/draft-cutler-httpbis-partitioned-cookies (`Partitioned`)
 * @example
 * ```ts
 * for (const header of response.headers.getSetCookie()) {
 *   const cookie = parseSetCookie(header)
 *   if (cookie !== undefined) store.set(cookie.name, cookie.value, cookie.attributes)
 * }
 * ```
 */
export function parseSetCookie(header: string): ParsedSetCookie | undefined {
  const [pair = "", ...parts] = header.split(";")
  const eq = pair.indexOf("=")
  if (eq === -1) return undefined
  const name = pair.slice(0, eq).trim()
  if (name === "") return undefined
  const attributes: SetCookieAttributes = {}
  for (const part of parts) {
    const at = part.indexOf("=")
    const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase()
    readAttribute(attributes, key, at === -1 ? "" : part.slice(at + 1).trim())
  }
  return { name, value: pair.slice(eq + 1).trim(), attributes }
}

/** Options of a `signIn` server or form action, as next-auth v5 and @auth/sveltekit take them. */
export interface SignInOptions {
  /** Where the browser lands after signing in. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false` returns the URL to go to instead of redirecting. Default `true`. */
  redirect?: boolean
  /** Form fields a provider reads: `email` for an email provider, a credentials provider's fields. */
  [field: string]: string | boolean | undefined
}

/** Options of a `signOut` server or form action. */
export interface SignOutOptions {
  /** Where the browser lands after signing out. Default: the page the action was called from, else `/`. */
  redirectTo?: string
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Authorization request parameters a `signIn` adds for the provider (`login_hint`, `prompt`...). */
export type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/**
 * Whether an action's `redirect` option asks for a redirect: anything but `false`, including a
 * form's `"false"` read as text.
 */
export function shouldRedirect(value: string | boolean | undefined): boolean {
  return value !== false && value !== "false"
}

/** The text fields of an action's options, as core's `signIn` takes them for a provider; other values are dropped. */
export function actionFields(options: Readonly<Record<string, string | boolean | undefined>>): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(options)) if (typeof value === "string") fields[name] = value
  return fields
}

/**
 * Whether `request` is one another site made the browser send, for the posts of a framework that
 * checks no origin of its own (React Router's actions, Start's server functions, Nitro's handlers)
 * where core's server functions skip its CSRF token. The browser's `Sec-Fetch-Site` decides when
 * sent: anything but `same-origin` or `none` (typed, bookmarked) is refused, a sibling subdomain's
 * `same-site` too. An older browser sends only `Origin`: another host than the request URL's, or
 * no URL at all (`null` from a sandboxed frame), is refused. A request with neither is not a
 * browser's and carries no cookie a site could use. Never throws.
 *
 * @returns `true` when the integration must refuse the request (a `403`).
 * @see https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 * @see https://www.rfc-editor.org/rfc/rfc6454#section-7 (the `Origin` header)
 * @example
 * ```ts
 * if (isCrossSiteRequest(request)) throw new Response("Cross-site request refused.", { status: 403 })
 * ```
 */
export function isCrossSiteRequest(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site")
  if (site !== null) return site !== "same-origin" && site !== "none"
  const origin = request.headers.get("origin")
  if (origin === null) return false
  try {
    return new URL(origin).host !== new URL(request.url).host
  } catch {
    return true
  }
}
