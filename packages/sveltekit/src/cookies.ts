/**
 * Core's `Set-Cookie` header values handed to `event.cookies`: the only way a load function or a
 * form action can set a cookie in SvelteKit (`setHeaders` refuses `set-cookie`), and SvelteKit
 * then writes them on whatever response the request ends with.
 */
import type { Cookies } from "@sveltejs/kit"

type CookieOptions = Parameters<Cookies["set"]>[2]

/** One `Set-Cookie` value as name, value and the attributes core writes. */
export function parseSetCookie(header: string): { name: string; value: string; options: CookieOptions } {
  const [pair = "", ...attributes] = header.split(";")
  const eq = pair.indexOf("=")
  // Core's values are written as they must be sent: SvelteKit would percent-encode them again.
  const options: CookieOptions = { path: "/", encode: (value) => value }
  for (const attribute of attributes) {
    const [rawKey = "", ...rest] = attribute.split("=")
    const key = rawKey.trim().toLowerCase()
    const value = rest.join("=").trim()
    if (key === "max-age") options.maxAge = Number(value)
    else if (key === "expires") options.expires = new Date(value)
    else if (key === "domain") options.domain = value
    else if (key === "path") options.path = value
    else if (key === "httponly") options.httpOnly = true
    else if (key === "secure") options.secure = true
    else if (key === "samesite") options.sameSite = value.toLowerCase() as "lax" | "strict" | "none"
    else if (key === "partitioned") options.partitioned = true
  }
  // SvelteKit forces `Secure` on cookies it sets unless told otherwise: core already decided.
  options.secure ??= false
  options.httpOnly ??= false
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), options }
}

/** Sets every cookie of `headers` (core's `Set-Cookie` values) on the event's cookies. */
export function setCookies(cookies: Cookies, headers: readonly string[]): void {
  for (const header of headers) {
    const { name, value, options } = parseSetCookie(header)
    cookies.set(name, value, options)
  }
}
