/**
 * Sessions for both strategies: reading one on `GET /session` (the hot path), starting one
 * after a sign-in (`./start.ts`, loaded with the sign-in ending), and ending one on sign-out.
 * JWT sessions live here; database sessions in `./database.ts`, loaded on first use.
 */
import type { RequestContext } from "../internal.js"
import { clearChunked, readChunked, writeChunked } from "../http/cookies.js"
import { AuthError, SessionTokenError } from "../errors/errors.js"
import { emit } from "../sign-in/events.js"
import type { CallbacksOptions, JWT, Session } from "../types.js"
import { decode, encode } from "./jwt.js"
import { clearSessionCookie, clearUnopened, expireLegacy, lifetimeOver, renewalAge, SESSION_ID_CLAIM, sessionSource, sessionUser, type CurrentSession, type EndedSession, type SessionUpdate } from "./source.js"
import { keepsSessionRecords } from "../adapters.js"
import { ASSURANCE_CLAIM, assuranceClaim, copyAssurance, openAssuranceClaim, preUpgradeAssurance, withAssurance, withReservedClaims } from "./assurance.js"

let loadedRecords: typeof import("./records.js") | undefined

/**
 * Session records, fetched only for an adapter that keeps them (an app without one loads none of
 * it), and once: a JWT read looks at them, and an `import()` per read costs more than the read.
 */
export async function sessionRecords(): Promise<typeof import("./records.js")> {
  loadedRecords ??= await import("./records.js")
  return loadedRecords
}


export type { CurrentSession, EndedSession, SessionUpdate, SignedIn } from "./source.js"

type SessionCallbackParams = Parameters<NonNullable<CallbacksOptions["session"]>>[0]
type JwtCallbackParams = Parameters<NonNullable<CallbacksOptions["jwt"]>>[0]

type DatabaseSessions = typeof import("./database.js")

/** The database strategy once loaded: later reads call it without awaiting the import again. */
let databaseSessions: DatabaseSessions | undefined

export async function loadDatabaseSessions(): Promise<DatabaseSessions> {
  databaseSessions ??= await import("./database.js")
  return databaseSessions
}

/** Seals `token` with the configured (or Auth.js's) `jwt.encode`. */
export async function sealToken(context: RequestContext, token: JWT): Promise<string> {
  const { config } = context
  const params = { token, secret: config.secrets, salt: context.sessionSalt, maxAge: config.jwt.maxAge }
  const sealed = config.jwt.encode !== undefined ? await config.jwt.encode(params) : await encode(params)
  if (typeof sealed !== "string" || sealed === "") throw new SessionTokenError("`jwt.encode` returned no string.")
  return sealed
}

/**
 * The claims of a session cookie, or `null` when it has none, has expired or does not open; a
 * cookie that does not open is logged as a warning with the reason, never with the cookie.
 */
async function openToken(context: RequestContext, raw: string, salt: string): Promise<JWT | null> {
  const { config } = context
  const params = { token: raw, secret: config.secrets, salt }
  try {
    const token: unknown = config.jwt.decode === undefined ? await decode(params) : await config.jwt.decode(params)
    return typeof token === "object" && token !== null && !Array.isArray(token) ? (token as JWT) : null
  } catch (error) {
    // An app's own decode may put anything in its message, the token included.
    const reason =
      config.jwt.decode === undefined && error instanceof AuthError
        ? error.message
        : `\`jwt.decode\` threw ${error instanceof Error ? error.name : "a non-error"}.`
    config.logger.warn("SessionTokenError", `The session cookie was cleared: ${reason}`)
    return null
  }
}

/** Queues the session cookie holding `sealed`, whole or chunked. */
export function writeTokenCookie(context: RequestContext, sealed: string, maxAge: number): void {
  const cookie = context.cookies.sessionToken
  const options = { ...cookie.options, maxAge }
  context.setCookies.push(...writeChunked(cookie, sealed, context.jar, options))
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

async function readJwtSession(context: RequestContext, update: SessionUpdate | undefined): Promise<CurrentSession | null> {
  const { config } = context
  const source = await sessionSource(context)
  if (source === undefined) return null
  expireLegacy(context, source)
  const raw = readChunked(context.jar, source.name)
  if (raw === undefined) return null
  let token = await openToken(context, raw, source.salt)
  let recorded = false
  // A session revoked elsewhere (a back-channel logout), or that names no record, is refused like one that does not open.
  if (token !== null && keepsSessionRecords(config.adapter)) ({ token, recorded } = await (await sessionRecords()).liveJwtSession(context, token, raw))
  if (token === null) {
    clearUnopened(context, source)
    return null
  }
  const now = Math.floor(Date.now() / 1000)
  // A session sealed before the assurance existed gets the lowest one, its sign-in time now, sealed at once.
  const opened = openAssuranceClaim(config.secrets, token[ASSURANCE_CLAIM])
  const kept = opened instanceof Promise ? await opened : opened
  const assurance = kept ?? (await assuranceClaim(config.secrets, preUpgradeAssurance(now)))
  // Every seal sets `iat`, and a read that can set a cookie re-seals within half the idle timeout: it is the last activity.
  const issuedAt = typeof token.iat === "number" ? token.iat : 0
  const over = lifetimeOver(config.session, { signedInAt: assurance.signedInAt, lastActivity: issuedAt }, now)
  if (over !== undefined) {
    if (keepsSessionRecords(config.adapter)) await (await sessionRecords()).revokeRecordById(config, token[SESSION_ID_CLAIM], over)
    clearUnopened(context, source)
    return null
  }
  const reserved = { sessionId: token[SESSION_ID_CLAIM], assurance }
  // A claim core wrote is in place already; an old session's is rebuilt, and so is the token a
  // `jwt` callback is compared with, which gets the reserved claims back in this same order.
  if (kept === undefined || config.callbacks.jwt !== undefined) token = withReservedClaims(token, reserved)
  let changed = kept === undefined
  if (config.callbacks.jwt !== undefined) {
    const before = token
    let after: JWT | null
    try {
      // Auth.js passes only the token when a session is read; `user` and `account` come with a sign-in.
      const params = update === undefined ? { token: { ...before } } : { token: { ...before }, trigger: "update", session: update.data }
      after = await config.callbacks.jwt(params as JwtCallbackParams)
    } catch (cause) {
      throw new SessionTokenError("The `jwt` callback threw while reading the session.", { cause })
    }
    if (after === null || typeof after !== "object") {
      clearUnopened(context, source)
      return null
    }
    token = withReservedClaims(after, reserved)
    changed ||= !sameJson(before, token)
  }
  // Re-sealing on every read costs an encryption and a Set-Cookie; sliding once per updateAge (or half the idle timeout) is enough.
  // A legacy cookie is re-sealed under our name and salt at once, and a pre-switch session with the record it just got.
  if (changed || update !== undefined || source.legacy || recorded || now - issuedAt >= renewalAge(config.session)) {
    const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
    const sealed = await sealToken(context, claims)
    writeTokenCookie(context, sealed, config.jwt.maxAge)
    token = { ...claims, iat: now, exp: now + config.jwt.maxAge }
    // The record lives as long as the cookie it names: it slides with it (once per `updateAge`).
    // One just made for a pre-switch session already lives at least as long as both.
    const recordId = token[SESSION_ID_CLAIM]
    if (!recorded && typeof recordId === "string" && keepsSessionRecords(config.adapter)) {
      await (await sessionRecords()).touchRecord(config, recordId, { expires: new Date((now + config.jwt.maxAge) * 1000) })
    }
  }
  const expires = new Date((typeof token.exp === "number" ? token.exp : now + config.jwt.maxAge) * 1000).toISOString()
  let session: Session = { user: sessionUser(token), expires, assurance: copyAssurance(assurance) }
  if (config.callbacks.session !== undefined) {
    try {
      // A copy: what the callback does to it is not what the session names.
      const params = update === undefined ? { session, token: { ...token } } : { session, token: { ...token }, trigger: "update", newSession: update.data }
      session = withAssurance(await config.callbacks.session(params as SessionCallbackParams), assurance)
    } catch (cause) {
      throw new SessionTokenError("The `session` callback threw.", { cause })
    }
  }
  await emit(config, "session", { session, token })
  return { session, token, userId: typeof token.sub === "string" ? token.sub : undefined, assurance: copyAssurance(assurance) }
}

/**
 * Reads the request's session, sliding its expiry when due. With `update` (`POST /session`), the
 * callbacks get `trigger: "update"` and the client's data, and a JWT session is re-sealed with
 * what the `jwt` callback made of it.
 *
 * @throws {SessionTokenError} when a `jwt` or `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 */
export function readSession(context: RequestContext, update?: SessionUpdate): Promise<CurrentSession | null> {
  if (context.config.session.strategy === "jwt") return readJwtSession(context, update)
  return databaseSessions === undefined
    ? loadDatabaseSessions().then((loaded) => loaded.readDatabaseSession(context, update))
    : databaseSessions.readDatabaseSession(context, update)
}

/**
 * Seals `token` as the request's new session cookie (replacing one a read queued), with a fresh
 * expiry: how `getAccessToken` stores refreshed tokens kept in the cookie.
 *
 * @throws {SessionTokenError} when the token cannot be sealed.
 */
export async function resealSession(context: RequestContext, token: JWT): Promise<void> {
  const name = context.cookies.sessionToken.name
  context.setCookies = context.setCookies.filter((cookie) => cookie.name !== name && !cookie.name.startsWith(`${name}.`))
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
  writeTokenCookie(context, await sealToken(context, claims), context.config.jwt.maxAge)
}

/**
 * Ends the request's session: deletes it from the store (database strategy) and clears the cookie;
 * answers whose session it was, for what the providers' flows do on sign-out.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function endSession(context: RequestContext): Promise<EndedSession> {
  const { config } = context
  const source = await sessionSource(context)
  let ended: EndedSession
  if (config.session.strategy === "database") {
    ended = await (await loadDatabaseSessions()).endDatabaseSession(context, source)
  } else {
    const raw = source === undefined ? undefined : readChunked(context.jar, source.name)
    const token = source === undefined || raw === undefined ? null : await openToken(context, raw, source.salt)
    if (token !== null && raw !== undefined && keepsSessionRecords(config.adapter)) await (await sessionRecords()).revokeJwtSession(context, token, raw)
    await emit(config, "signOut", { token })
    ended = { userId: typeof token?.sub === "string" ? token.sub : undefined, token }
  }
  clearSessionCookie(context)
  if (config.legacySessionCookies !== undefined) {
    // Every legacy cookie goes, read or not, before `until` and after it.
    const { presentLegacyCookies } = await import("./legacy.js")
    for (const cookie of presentLegacyCookies(context)) context.setCookies.push(...clearChunked(cookie, context.jar))
  }
  return ended
}
