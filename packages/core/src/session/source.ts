/**
 * What both session strategies share: where the request's session cookie is (ours, or a legacy
 * one moved to ours), clearing it, and what a session shows of its user. A leaf below the
 * strategies, so the database strategy (`./database.ts`), loaded on first use, imports no
 * module that loads it.
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../internal.js"
import { clearChunked } from "../http/cookies.js"
import type { Account, Profile, SessionAssurance, User } from "../model.js"
import type { JWT, Session } from "../types.js"
import type { SessionSource } from "./legacy.js"

/** A session as read from the request. */
export interface CurrentSession {
  session: Session
  /** The user id the session belongs to. */
  userId: string | undefined
  token?: JWT
  user?: AdapterUser
  /** A database session's token (the row it names). */
  sessionToken?: string
  /** The session's assurance as core keeps it: what every check reads, never what a callback returned. */
  assurance: SessionAssurance
}

/** An update the client asked for (`POST /session`): what the `jwt` / `session` callbacks get as `session` / `newSession`. */
export interface SessionUpdate {
  data: unknown
}

/** Clears the request's session cookie, whole or chunked. */
export function clearSessionCookie(context: RequestContext): void {
  context.setCookies.push(...clearChunked(context.cookies.sessionToken, context.jar))
}

/**
 * The cookie the request's session is in: ours when the request carries it (whole or chunked),
 * else, while the app reads them (`legacySessionCookies`), one under Auth.js's name.
 */
export async function sessionSource(context: RequestContext): Promise<SessionSource | undefined> {
  const cookie = context.cookies.sessionToken
  const { jar } = context
  if (jar.has(cookie.name) || jar.has(`${cookie.name}.0`)) return { name: cookie.name, salt: context.sessionSalt, cookie, legacy: false }
  if (context.config.legacySessionCookies === undefined) return undefined
  const { findLegacySession } = await import("./legacy.js")
  return findLegacySession(context)
}

/**
 * Clears the cookie a read found no session in: ours (a legacy one is expired at once, see
 * {@link expireLegacy}).
 */
export function clearUnopened(context: RequestContext, source: SessionSource): void {
  if (!source.legacy) clearSessionCookie(context)
}

/** A legacy cookie is expired whatever its read gives: its session moves to ours, or it holds none. */
export function expireLegacy(context: RequestContext, source: SessionSource): void {
  if (source.legacy) context.setCookies.push(...clearChunked(source.cookie, context.jar))
}

/** The `user` of a session, from a JWT's claims or a stored user. */
export function sessionUser(source: { id?: unknown; sub?: unknown; name?: unknown; email?: unknown; image?: unknown; picture?: unknown }): NonNullable<Session["user"]> {
  const text = (value: unknown): string | null => (typeof value === "string" ? value : null)
  const id = source.id ?? source.sub
  const user: NonNullable<Session["user"]> = { name: text(source.name), email: text(source.email), image: text(source.image ?? source.picture) }
  if (typeof id === "string") user.id = id
  return user
}

/** What a finished sign-in hands to the session. */
export interface SignedIn {
  user: User & { id: string }
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  /**
   * How the user authenticated on the way in (see `SessionAssurance.methods`): each flow passes
   * its own (`["fed"]`, `["email"]`, `["pwd"]`, `["hwk", "user"]` or `["hwk"]`), and a second
   * factor adds to them.
   */
  methods: string[]
  /** The id of the passkey that was the first factor, so that a second factor can be another one. */
  credentialId?: string
  /**
   * The assurance of the signed-in session this one replaces, kept as it is: set where the way
   * through was no authentication (adding a passkey to the signed-in user), so neither its level
   * nor its times move.
   */
  continues?: SessionAssurance
}

/** The claim of a JWT session that names its session record (see `session/records.ts`). */
export const SESSION_ID_CLAIM = "sessionId"

/** The session a sign-out ended: whose it was, and a JWT session's claims. */
export interface EndedSession {
  userId: string | undefined
  token: JWT | null
}

/**
 * Why a session's lifetime is over at `now` (epoch seconds): `"expired"` once
 * `session.absoluteMaxAge` has passed since its sign-in (`signedInAt`, `0` when unknown), `"idle"`
 * once `session.idleTimeout` has passed since its last recorded activity (`lastActivity`, `0` when
 * unknown); `undefined` while it lives.
 *
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.3.1 (inactivity timeout), 7.3.2 (absolute lifetime)
 */
export function lifetimeOver(
  session: { absoluteMaxAge: number; idleTimeout: number | undefined },
  times: { signedInAt: number; lastActivity: number },
  now: number,
): "expired" | "idle" | undefined {
  if (times.signedInAt > 0 && now - times.signedInAt >= session.absoluteMaxAge) return "expired"
  if (session.idleTimeout !== undefined && times.lastActivity > 0 && now - times.lastActivity >= session.idleTimeout) return "idle"
  return undefined
}

/**
 * How long a session goes between two renewals of its cookie (or row): `session.updateAge`, or
 * half the idle timeout when shorter, so a session read within the timeout always moves its last
 * activity before it runs out.
 */
export function renewalAge(session: { updateAge: number; idleTimeout: number | undefined }): number {
  return session.idleTimeout === undefined ? session.updateAge : Math.min(session.updateAge, Math.floor(session.idleTimeout / 2))
}
