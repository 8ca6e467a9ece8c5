/**
 * Core's `Set-Cookie` header values as Next.js's `cookies().set()` takes them: the only way code
 * without a `Response` (server actions, route handlers calling `auth()`) can set a cookie.
 */
import { parseSetCookie } from "@portcullis/core/integration"
import type { cookies } from "next/headers.js"

/** The cookie store of the current request, as `cookies()` resolves it. */
export type CookieStore = Awaited<ReturnType<typeof cookies>>

/**
 * Sets each cookie on the store, and tells whether Next.js allowed it: it refuses while a server
 * component renders, where the response has already started.
 */
export function setCookies(store: CookieStore, headers: readonly string[]): boolean {
  try {
    for (const header of headers) {
      const cookie = parseSetCookie(header)
      if (cookie !== undefined) store.set(cookie.name, cookie.value, cookie.attributes)
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
