/**
 * Auth.js's and next-auth v4's session cookie names, read for a while after an app moves to us
 * (`legacySessionCookies`) so its users stay signed in. Loaded only when a request carries no
 * session cookie of ours and the app set the option, so apps that never moved bundle none of it.
 */
import type { RequestContext } from "../internal.js"
import type { CookieOption } from "../model.js"

/** Where a session is read from: our cookie, or a legacy one that the read then moves to ours. */
export interface SessionSource {
  /** The cookie's name, without a chunk suffix. */
  name: string
  /** The JWT key-derivation salt its sessions were sealed with. */
  salt: string
  /** The name and attributes that clear it. */
  cookie: CookieOption
  /** Whether it is one of the names below, to be moved to ours and expired. */
  legacy: boolean
}

/**
 * The names Auth.js wrote, in the order they are tried: `__Secure-` on https, none on http
 * (where Auth.js's name is already ours). Auth.js seals a JWT with the cookie's name as the
 * salt, so it opens here with the same. next-auth v4's names count only for database sessions:
 * a v4 session JWT is sealed with another key derivation (`A256GCM`, HKDF without a salt),
 * which this package does not implement, so those users sign in once more.
 */
function legacyNames(secure: boolean, strategy: "jwt" | "database"): string[] {
  const prefix = secure ? "__Secure-" : ""
  const names = [`${prefix}authjs.session-token`]
  if (strategy === "database") names.push(`${prefix}next-auth.session-token`)
  return names
}

function present(jar: Map<string, string>, name: string): boolean {
  return jar.has(name) || jar.has(`${name}.0`)
}

/** The attributes a legacy cookie was written with, as far as they matter to expire it: `__Secure-` needs `Secure`. */
function legacyCookie(context: RequestContext, name: string, secure: boolean): CookieOption {
  return { name, options: { ...context.cookies.sessionToken.options, secure } }
}

function isSecure(context: RequestContext): boolean {
  return context.cookies === context.config.cookies.secure
}

/**
 * The legacy session cookie this request carries, when it may be read: the app set
 * `legacySessionCookies`, `until` has not passed, and the request carries no session cookie
 * of ours (a planted legacy cookie never outranks ours). The caller has checked the last.
 */
export function findLegacySession(context: RequestContext): SessionSource | undefined {
  const option = context.config.legacySessionCookies
  if (option === undefined || Date.now() >= option.until.getTime()) return undefined
  const secure = isSecure(context)
  const current = context.cookies.sessionToken.name
  for (const name of legacyNames(secure, context.config.session.strategy)) {
    if (name === current || !present(context.jar, name)) continue
    context.config.logger.debug(`Reading the session under the legacy cookie name ${name}, to move it to ${current}.`)
    return { name, salt: name, cookie: legacyCookie(context, name, secure), legacy: true }
  }
  return undefined
}

/** Every legacy session cookie the request carries, at any date: signing out clears them all. */
export function presentLegacyCookies(context: RequestContext): CookieOption[] {
  const secure = isSecure(context)
  const current = context.cookies.sessionToken.name
  return legacyNames(secure, "database")
    .filter((name) => name !== current && present(context.jar, name))
    .map((name) => legacyCookie(context, name, secure))
}
