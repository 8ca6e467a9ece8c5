/** A cookie as the jar holds it. */
export interface BrowserCookie {
  name: string
  value: string
  /** The host it was set by (host-only) or its `Domain` attribute, lower case, no leading dot. */
  domain: string
  /** `true` when set without `Domain`: sent to exactly that host, not its subdomains. */
  hostOnly: boolean
  path: string
  /** Epoch milliseconds; `undefined` for a session cookie. */
  expires: number | undefined
  secure: boolean
  httpOnly: boolean
  /** `undefined` when the attribute was absent; such cookies are treated as `"lax"`. */
  sameSite: "strict" | "lax" | "none" | undefined
}

interface StoredCookie extends BrowserCookie {
  created: number
  /** Breaks ties between cookies created in the same millisecond. */
  order: number
}

/** How the request that would carry cookies relates to the page that started it. */
export interface CookieRequestContext {
  /** Same-site with the initiator along the whole redirect chain, or initiated by the user. */
  sameSite: boolean
  /** A top-level navigation with a safe method (GET or HEAD): what `SameSite=Lax` lets through. */
  safeTopLevelNavigation: boolean
}

/**
 * Whether the origin counts as secure for cookies: https, or loopback / `localhost`, which
 * browsers treat as potentially trustworthy (so `Secure` and `__Host-` cookies work in tests).
 *
 * @see https://w3c.github.io/webappsec-secure-contexts/#is-origin-trustworthy
 */
export function isTrustworthy(url: URL): boolean {
  if (url.protocol === "https:" || url.protocol === "wss:") return true
  const host = url.hostname
  return host === "localhost" || host.endsWith(".localhost") || /^127(?:\.\d{1,3}){3}$/u.test(host) || host === "[::1]"
}

function isIpAddress(host: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/u.test(host) || host.startsWith("[")
}

/**
 * The site of a URL (scheme and registrable domain), as SameSite compares them.
 *
 * Without the Public Suffix List the registrable domain is approximated by the last two labels,
 * which is right for the `localhost`, IP and `example.com` style hosts tests use (not for
 * `example.co.uk`).
 *
 * @see https://html.spec.whatwg.org/multipage/browsers.html#sites
 */
export function siteOf(url: URL): string {
  const host = url.hostname
  if (isIpAddress(host) || !host.includes(".")) return `${url.protocol}//${host}`
  return `${url.protocol}//${host.split(".").slice(-2).join(".")}`
}

/** @see https://www.rfc-editor.org/rfc/rfc6265#section-5.1.3 */
function domainMatches(host: string, domain: string): boolean {
  return host === domain || (!isIpAddress(host) && host.endsWith(`.${domain}`))
}

/** @see https://www.rfc-editor.org/rfc/rfc6265#section-5.1.4 */
function defaultPath(url: URL): string {
  const path = url.pathname
  const slash = path.lastIndexOf("/")
  return slash <= 0 ? "/" : path.slice(0, slash)
}

/** @see https://www.rfc-editor.org/rfc/rfc6265#section-5.1.4 */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/"
}

/**
 * A browser-like cookie store: parses `Set-Cookie`, keys cookies by host (ports are ignored, as
 * in browsers), and picks the cookies a request carries by domain, path, `Secure`, expiry and
 * `SameSite`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265 HTTP State Management Mechanism
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpbis-rfc6265bis/ (SameSite, prefixes)
 */
export class CookieJar {
  readonly #now: () => number
  #cookies: StoredCookie[] = []
  #order = 0

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  /**
   * Stores (or, when expired, deletes) the cookie of one `Set-Cookie` header received from `url`.
   *
   * @returns `undefined` when accepted, else why a browser would ignore the header.
   */
  store(header: string, url: URL): string | undefined {
    const [pair = "", ...attributes] = header.split(";")
    const equals = pair.indexOf("=")
    if (equals < 0) return "no name=value pair"
    const name = pair.slice(0, equals).trim()
    const value = pair.slice(equals + 1).trim()
    if (name === "") return "empty cookie name"

    let expires: number | undefined
    let maxAge: number | undefined
    let domain: string | undefined
    let path: string | undefined
    let secure = false
    let httpOnly = false
    let sameSite: BrowserCookie["sameSite"]
    for (const attribute of attributes) {
      const separator = attribute.indexOf("=")
      const key = (separator < 0 ? attribute : attribute.slice(0, separator)).trim().toLowerCase()
      const argument = separator < 0 ? "" : attribute.slice(separator + 1).trim()
      switch (key) {
        case "expires": {
          const time = Date.parse(argument)
          if (!Number.isNaN(time)) expires = time
          break
        }
        case "max-age":
          if (/^-?\d+$/u.test(argument)) maxAge = Number(argument)
          break
        case "domain":
          if (argument !== "") domain = argument.replace(/^\./u, "").toLowerCase()
          break
        case "path":
          path = argument.startsWith("/") ? argument : undefined
          break
        case "secure":
          secure = true
          break
        case "httponly":
          httpOnly = true
          break
        case "samesite": {
          const mode = argument.toLowerCase()
          sameSite = mode === "strict" || mode === "lax" || mode === "none" ? mode : undefined
          break
        }
      }
    }
    // Max-Age wins over Expires whatever their order.
    if (maxAge !== undefined) expires = maxAge <= 0 ? -Infinity : this.#now() + maxAge * 1000

    const host = url.hostname.toLowerCase()
    if (secure && !isTrustworthy(url)) return "Secure cookie from an insecure origin"
    if (domain !== undefined && !domainMatches(host, domain)) return `Domain=${domain} does not match ${host}`
    if (sameSite === "none" && !secure) return "SameSite=None without Secure"
    const lowerName = name.toLowerCase()
    if (lowerName.startsWith("__secure-") && !secure) return "__Secure- prefix without Secure"
    if (lowerName.startsWith("__host-") && (!secure || domain !== undefined || path !== "/")) {
      return "__Host- prefix needs Secure, Path=/ and no Domain"
    }

    const cookie: StoredCookie = {
      name,
      value,
      domain: domain ?? host,
      hostOnly: domain === undefined,
      path: path ?? defaultPath(url),
      expires,
      secure,
      httpOnly,
      sameSite,
      created: this.#now(),
      order: this.#order++,
    }
    const index = this.#cookies.findIndex(
      (existing) => existing.name === name && existing.domain === cookie.domain && existing.path === cookie.path,
    )
    if (index >= 0) {
      const [previous] = this.#cookies.splice(index, 1)
      if (previous !== undefined) {
        cookie.created = previous.created
        cookie.order = previous.order
      }
    }
    if (expires === undefined || expires > this.#now()) this.#cookies.push(cookie)
    return undefined
  }

  /**
   * The `Cookie` header value for a request to `url`, or `""` when none applies.
   *
   * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
   */
  header(url: URL, context: CookieRequestContext): string {
    const host = url.hostname.toLowerCase()
    const secureOrigin = isTrustworthy(url)
    return this.#live()
      .filter((cookie) => (cookie.hostOnly ? host === cookie.domain : domainMatches(host, cookie.domain)))
      .filter((cookie) => pathMatches(url.pathname, cookie.path))
      .filter((cookie) => !cookie.secure || secureOrigin)
      .filter((cookie) => {
        const mode = cookie.sameSite ?? "lax"
        if (mode === "none" || context.sameSite) return true
        return mode === "lax" && context.safeTopLevelNavigation
      })
      .sort((a, b) => b.path.length - a.path.length || a.created - b.created || a.order - b.order)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ")
  }

  /** Every live cookie the host of `url` would receive on some path, in creation order. */
  list(url: URL): BrowserCookie[] {
    const host = url.hostname.toLowerCase()
    return this.#live()
      .filter((cookie) => (cookie.hostOnly ? host === cookie.domain : domainMatches(host, cookie.domain)))
      .map(({ created: _created, order: _order, ...cookie }) => cookie)
  }

  /** Removes the cookies named `name` visible to the host of `url` (on `path` only, if given). */
  delete(url: URL, name: string, path?: string): number {
    const host = url.hostname.toLowerCase()
    const before = this.#cookies.length
    this.#cookies = this.#cookies.filter(
      (cookie) =>
        !(
          cookie.name === name &&
          (cookie.hostOnly ? host === cookie.domain : domainMatches(host, cookie.domain)) &&
          (path === undefined || cookie.path === path)
        ),
    )
    return before - this.#cookies.length
  }

  /** Forgets every cookie. */
  clear(): void {
    this.#cookies = []
  }

  #live(): StoredCookie[] {
    const now = this.#now()
    this.#cookies = this.#cookies.filter((cookie) => cookie.expires === undefined || cookie.expires > now)
    return [...this.#cookies].sort((a, b) => a.order - b.order)
  }
}
