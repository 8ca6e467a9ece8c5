/**
 * Core's `Set-Cookie` header values as Next.js's `cookies().set()` takes them: the only way code
 * without a `Response` (server actions, route handlers calling `auth()`) can set a cookie.
 */
import type { cookies } from "next/headers.js"

/** The cookie store of the current request, as `cookies()` resolves it. */
export type CookieStore = Awaited<ReturnType<typeof cookies>>

type CookieOptions = NonNullable<Parameters<CookieStore["set"]>[2]>

/** One `Set-Cookie` value as name, value and the attributes core writes. */
export function parseSetCookie(header: string): { name: string; value: string; options: CookieOptions } {
  const [pair = "", ...attributes] = header.split(";")
  const eq = pair.indexOf("=")
  const options: CookieOptions = {}
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
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), options }
}

/**
 * Sets each cookie on the store, and tells whether Next.js allowed it: it refuses while a server
 * component renders, where the response has already started.
 */
export function setCookies(store: CookieStore, headers: readonly string[]): boolean {
  try {
    for (const header of headers) {
      const { name, value, options } = parseSetCookie(header)
      store.set(name, value, options)
    }
    return true
  } catch {
    return false
  }
}

/** Every `Set-Cookie` header value of a core response. */
export function setCookieHeaders(response: Response): string[] {
  return response.headers.getSetCookie()
}

/** A cookie no app sets: deleting it is how {@link canSetCookies} asks. */
const PROBE = "authjs.cookie-probe"

/**
 * Whether Next.js lets this code set cookies: yes in route handlers and server actions, no while
 * a server component renders (the response has started), where `set` and `delete` throw. Asked
 * by deleting a cookie nobody sets, which adds at most one harmless expired `Set-Cookie`.
 */
export function canSetCookies(store: CookieStore): boolean {
  try {
    store.delete(PROBE)
    return true
  } catch {
    return false
  }
}
