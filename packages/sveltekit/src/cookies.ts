/**
 * Core's `Set-Cookie` header values handed to `event.cookies`: the only way a load function or a
 * form action can set a cookie in SvelteKit (`setHeaders` refuses `set-cookie`), and SvelteKit
 * then writes them on whatever response the request ends with.
 */
import { parseSetCookie } from "@portcullis/core/integration"
import type { Cookies } from "@sveltejs/kit"

/** Sets every cookie of `headers` (core's `Set-Cookie` values) on the event's cookies. */
export function setCookies(cookies: Cookies, headers: readonly string[]): void {
  for (const header of headers) {
    const cookie = parseSetCookie(header)
    if (cookie === undefined) continue
    const { secure = false, httpOnly = false, path = "/", ...attributes } = cookie.attributes
    // Core's values are written as they must be sent: SvelteKit would percent-encode them again.
    // SvelteKit forces `Secure` and `HttpOnly` on cookies it sets unless told otherwise: core already decided.
    cookies.set(cookie.name, cookie.value, { ...attributes, path, secure, httpOnly, encode: (value) => value })
  }
}
