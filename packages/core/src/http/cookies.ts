/**
 * Cookies: their names and attributes, parsing the `Cookie` header, writing `Set-Cookie`, and
 * splitting values too large for one cookie into numbered chunks.
 */
import type { CookieOption, CookiesOptions } from "../model.js"

/** The largest value put in one cookie; browsers cap a cookie at about 4096 bytes with its name and attributes. */
export const CHUNK_SIZE = 3936

const PREFIX = "authjs"

/**
 * The name prefix a cookie with these attributes gets on a secure origin: `__Host-` (the browser
 * refuses such a cookie from any other host, so a sibling subdomain cannot plant one) unless the
 * app shares it with a `domain` or narrows its `path`, which `__Host-` forbids; then `__Secure-`.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-cookie-name-prefixes
 */
function prefixFor(secure: boolean, options: CookieOption["options"]): string {
  if (!secure) return ""
  return options.domain === undefined && (options.path ?? "/") === "/" ? "__Host-" : "__Secure-"
}

/** The default cookies for a secure (https) or plain origin, with the user's overrides laid over them. */
export function defaultCookies(
  secure: boolean,
  overrides: Partial<{ [K in keyof CookiesOptions]: Partial<CookiesOptions[K]> }> | undefined,
): CookiesOptions {
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure }
  const checkMaxAge = 15 * 60
  const defaults: Record<keyof CookiesOptions, { name: string; options: CookieOption["options"] }> = {
    sessionToken: { name: "session-token", options: base },
    callbackUrl: { name: "callback-url", options: base },
    csrfToken: { name: "csrf-token", options: base },
    pkceCodeVerifier: { name: "pkce.code_verifier", options: { ...base, maxAge: checkMaxAge } },
    state: { name: "state", options: { ...base, maxAge: checkMaxAge } },
    nonce: { name: "nonce", options: { ...base, maxAge: checkMaxAge } },
    oauth1RequestToken: { name: "oauth1", options: { ...base, maxAge: checkMaxAge } },
    credentialsInput: { name: "credentials-input", options: { ...base, maxAge: 5 * 60 } },
    endSession: { name: "end-session", options: base },
  }
  const out = {} as CookiesOptions
  for (const key of Object.keys(defaults) as (keyof CookiesOptions)[]) {
    const override = overrides?.[key]
    const options = { ...defaults[key].options, ...override?.options }
    out[key] = { name: override?.name ?? `${prefixFor(secure, options)}${PREFIX}.${defaults[key].name}`, options }
  }
  return out
}

/** Parses a `Cookie` header into a map; the first occurrence of a name wins, as browsers send the most specific first. */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>()
  if (header === null || header === "") return cookies
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq === -1) continue
    const name = pair.slice(0, eq).trim()
    if (name === "" || cookies.has(name)) continue
    let value = pair.slice(eq + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    cookies.set(name, value)
  }
  return cookies
}

/** A cookie to set (or, with `maxAge: 0`, to clear). */
export interface SetCookie {
  name: string
  value: string
  options: CookieOption["options"] & { expires?: Date }
}

/** Serializes a cookie for the `Set-Cookie` header. */
export function serializeCookie({ name, value, options }: SetCookie): string {
  let out = `${name}=${value}`
  if (options.maxAge !== undefined) out += `; Max-Age=${Math.max(0, Math.floor(options.maxAge))}`
  if (options.expires !== undefined) out += `; Expires=${options.expires.toUTCString()}`
  if (options.domain !== undefined) out += `; Domain=${options.domain}`
  out += `; Path=${options.path ?? "/"}`
  if (options.httpOnly === true) out += "; HttpOnly"
  if (options.secure === true) out += "; Secure"
  if (options.sameSite !== undefined) {
    out += `; SameSite=${options.sameSite.charAt(0).toUpperCase()}${options.sameSite.slice(1)}`
  }
  return out
}

/** A cookie that clears `name`. */
export function clearCookie(cookie: CookieOption, name = cookie.name): SetCookie {
  return { name, value: "", options: { ...cookie.options, maxAge: 0 } }
}

/** Reads a value that may have been split into `name.0`, `name.1`, ... chunks. */
export function readChunked(cookies: Map<string, string>, name: string): string | undefined {
  const whole = cookies.get(name)
  if (whole !== undefined) return whole
  let value = ""
  for (let i = 0; ; i++) {
    const chunk = cookies.get(`${name}.${i}`)
    if (chunk === undefined) break
    value += chunk
    // A session is at most a few chunks; a header claiming hundreds is hostile.
    if (i > 16) return undefined
  }
  return value === "" ? undefined : value
}

/**
 * Writes `value` as one cookie or as chunks, clearing whatever chunks or whole cookie a
 * previous, differently sized value left behind.
 */
export function writeChunked(
  cookie: CookieOption,
  value: string,
  existing: Map<string, string>,
  options: CookieOption["options"] & { expires?: Date } = cookie.options,
): SetCookie[] {
  const out: SetCookie[] = []
  const written = new Set<string>()
  if (value.length <= CHUNK_SIZE) {
    out.push({ name: cookie.name, value, options })
    written.add(cookie.name)
  } else {
    for (let i = 0; i * CHUNK_SIZE < value.length; i++) {
      const name = `${cookie.name}.${i}`
      out.push({ name, value: value.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE), options })
      written.add(name)
    }
  }
  for (const name of staleNames(cookie.name, existing)) if (!written.has(name)) out.push(clearCookie(cookie, name))
  return out
}

/** Clears a possibly chunked cookie. */
export function clearChunked(cookie: CookieOption, existing: Map<string, string>): SetCookie[] {
  const names = staleNames(cookie.name, existing)
  if (names.length === 0) names.push(cookie.name)
  return names.map((name) => clearCookie(cookie, name))
}

function staleNames(name: string, existing: Map<string, string>): string[] {
  const names: string[] = []
  if (existing.has(name)) names.push(name)
  for (let i = 0; existing.has(`${name}.${i}`); i++) names.push(`${name}.${i}`)
  return names
}
