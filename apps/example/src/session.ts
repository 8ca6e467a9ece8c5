/**
 * Reading the session (and what else core lists for the signed-in user) on the server, for the
 * app's own pages: the same `GET`s a browser would make, handed to `Auth()` in process.
 */
import { Auth, type AuthConfig, type Session } from "@portcullis/core"

import { AUTH_BASE_PATH } from "./auth.js"

/** The session of a request, and the cookies `Auth()` wants set while reading it. */
export interface SessionRead {
  session: Session | null
  /** `Set-Cookie` values (an extended expiry, a cleared unreadable cookie) for the page's response. */
  setCookies: string[]
}

// The headers that decide who the user is and which origin the app is on; nothing else is passed.
const FORWARDED_HEADERS = ["cookie", "x-forwarded-host", "x-forwarded-proto"] as const

/**
 * What `GET {basePath}<path>` answers for `request`'s user, as JSON: the same call a browser
 * would make, handed to `Auth()` in process with only the headers that say who and where.
 *
 * @throws Error when `Auth()` answers with an error (core has logged why), so the page fails
 * visibly instead of looking signed out.
 */
export async function readAuthJson(request: Request, config: AuthConfig, path: string): Promise<{ body: unknown; setCookies: string[] }> {
  const url = new URL(`${AUTH_BASE_PATH}${path}`, request.url)
  const headers = new Headers({ accept: "application/json" })
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  const response = await Auth(new Request(url, { headers }), config)
  if (!response.ok) {
    const body = await response.text()
    throw new Error(`Reading ${path === "/session" ? "the session" : path} failed: GET ${url.pathname} answered ${response.status} ${body}`)
  }
  return { body: await response.json(), setCookies: response.headers.getSetCookie() }
}

/**
 * The session of `request`, or `null` when there is none.
 *
 * @throws Error when `Auth()` answers with an error (see {@link readAuthJson}).
 */
export async function readSession(request: Request, config: AuthConfig): Promise<SessionRead> {
  const { body, setCookies } = await readAuthJson(request, config, "/session")
  return { session: body as Session | null, setCookies }
}
