/**
 * Sessions for both strategies: reading one on `GET /session` (the hot path), starting one
 * after a sign-in, and ending one on sign-out.
 */
import type { Adapter, AdapterSession, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../internal.js"
import { clearChunked, readChunked, writeChunked } from "../cookies.js"
import { AccessDenied, AuthError, SessionTokenError } from "../errors.js"
import { emit } from "../events.js"
import type { Account, Profile, User } from "../model.js"
import { callAdapter, storedUser } from "../store.js"
import type { CallbacksOptions, JWT, Session } from "../types.js"
import { decode, encode } from "./jwt.js"
import type { SessionSource } from "./legacy.js"
import { isLive, recordSignIn, revokeRecords, recordsSessions, SESSION_ID_CLAIM } from "./records.js"

type SessionCallbackParams = Parameters<NonNullable<CallbacksOptions["session"]>>[0]
type JwtCallbackParams = Parameters<NonNullable<CallbacksOptions["jwt"]>>[0]

/** A session as read from the request. */
export interface CurrentSession {
  session: Session
  /** The user id the session belongs to. */
  userId: string | undefined
  token?: JWT
  user?: AdapterUser
}

async function sealToken(context: RequestContext, token: JWT): Promise<string> {
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

function writeTokenCookie(context: RequestContext, sealed: string, maxAge: number): void {
  const cookie = context.cookies.sessionToken
  const options = { ...cookie.options, maxAge }
  context.setCookies.push(...writeChunked(cookie, sealed, context.jar, options))
}

function clearSessionCookie(context: RequestContext): void {
  context.setCookies.push(...clearChunked(context.cookies.sessionToken, context.jar))
}

/**
 * The cookie the request's session is in: ours when the request carries it (whole or chunked),
 * else, while the app reads them (`legacySessionCookies`), one under Auth.js's name.
 */
async function sessionSource(context: RequestContext): Promise<SessionSource | undefined> {
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
function clearUnopened(context: RequestContext, source: SessionSource): void {
  if (!source.legacy) clearSessionCookie(context)
}

/** A legacy cookie is expired whatever its read gives: its session moves to ours, or it holds none. */
function expireLegacy(context: RequestContext, source: SessionSource): void {
  if (source.legacy) context.setCookies.push(...clearChunked(source.cookie, context.jar))
}

function sessionUser(source: { id?: unknown; sub?: unknown; name?: unknown; email?: unknown; image?: unknown; picture?: unknown }): NonNullable<Session["user"]> {
  const text = (value: unknown): string | null => (typeof value === "string" ? value : null)
  const id = source.id ?? source.sub
  const user: NonNullable<Session["user"]> = { name: text(source.name), email: text(source.email), image: text(source.image ?? source.picture) }
  if (typeof id === "string") user.id = id
  return user
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

/** An update the client asked for (`POST /session`): what the `jwt` / `session` callbacks get as `session` / `newSession`. */
export interface SessionUpdate {
  data: unknown
}

async function readJwtSession(context: RequestContext, update: SessionUpdate | undefined): Promise<CurrentSession | null> {
  const { config } = context
  const source = await sessionSource(context)
  if (source === undefined) return null
  expireLegacy(context, source)
  const raw = readChunked(context.jar, source.name)
  if (raw === undefined) return null
  let token = await openToken(context, raw, source.salt)
  // A session revoked elsewhere (a back-channel logout) is refused like one that does not open.
  if (token === null || !(await isLive(config, token[SESSION_ID_CLAIM]))) {
    clearUnopened(context, source)
    return null
  }
  let changed = false
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
    // The record's id is ours: a callback that rebuilds the token must not make the session unrevocable.
    token = before[SESSION_ID_CLAIM] === undefined || SESSION_ID_CLAIM in after ? after : { ...after, [SESSION_ID_CLAIM]: before[SESSION_ID_CLAIM] }
    changed = !sameJson(before, after)
  }
  const now = Math.floor(Date.now() / 1000)
  const issuedAt = typeof token.iat === "number" ? token.iat : 0
  // Re-sealing on every read costs an encryption and a Set-Cookie; sliding once per updateAge is enough.
  // A legacy cookie is re-sealed under our name and salt at once.
  if (changed || update !== undefined || source.legacy || now - issuedAt >= config.session.updateAge) {
    const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token
    const sealed = await sealToken(context, claims)
    writeTokenCookie(context, sealed, config.jwt.maxAge)
    token = { ...claims, iat: now, exp: now + config.jwt.maxAge }
  }
  const expires = new Date((typeof token.exp === "number" ? token.exp : now + config.jwt.maxAge) * 1000).toISOString()
  let session: Session = { user: sessionUser(token), expires }
  if (config.callbacks.session !== undefined) {
    try {
      const params = update === undefined ? { session, token } : { session, token, trigger: "update", newSession: update.data }
      session = await config.callbacks.session(params as SessionCallbackParams)
    } catch (cause) {
      throw new SessionTokenError("The `session` callback threw.", { cause })
    }
  }
  await emit(config, "session", { session, token })
  return { session, token, userId: typeof token.sub === "string" ? token.sub : undefined }
}

/**
 * A third-party adapter may answer anything; only a session with a user that has an id counts.
 * The user's id comes back as a string (Auth.js's SERIAL schemas answer numbers).
 */
function sessionAndUser(value: unknown): { session: AdapterSession; user: AdapterUser } | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const { session, user } = value as { session?: unknown; user?: unknown }
  const stored = storedUser(user)
  return typeof session === "object" && session !== null && stored !== undefined ? { session: session as AdapterSession, user: stored } : undefined
}

async function readDatabaseSession(context: RequestContext, update: SessionUpdate | undefined): Promise<CurrentSession | null> {
  const { config } = context
  const adapter = config.adapter
  if (adapter === undefined) return null
  const source = await sessionSource(context)
  if (source === undefined) return null
  expireLegacy(context, source)
  const sessionToken = context.jar.get(source.name)
  if (sessionToken === undefined || sessionToken === "" || sessionToken.length > 512) return null
  const found = sessionAndUser(await callAdapter(adapter, "getSessionAndUser", sessionToken))
  if (found === undefined) {
    clearUnopened(context, source)
    return null
  }
  const now = Date.now()
  let expires = new Date(found.session.expires)
  if (!(expires.getTime() > now)) {
    await deleteStoredSession(adapter, sessionToken)
    clearUnopened(context, source)
    return null
  }
  const { maxAge, updateAge } = config.session
  const slide = expires.getTime() - maxAge * 1000 + updateAge * 1000 <= now
  if (slide) {
    expires = new Date(now + maxAge * 1000)
    await callAdapter(adapter, "updateSession", { sessionToken, expires })
  }
  if (slide || source.legacy) {
    const cookie = context.cookies.sessionToken
    context.setCookies.push({ name: cookie.name, value: sessionToken, options: { ...cookie.options, expires } })
  }
  const user = found.user
  let session: Session
  if (config.callbacks.session === undefined) {
    session = { user: sessionUser(user), expires: expires.toISOString() }
  } else {
    // As Auth.js passes it: the session row with the user in it, but never its token, which
    // a callback returning `session` would otherwise hand to every script on the page.
    const { sessionToken: _token, ...row } = found.session
    const base = { session: { ...row, user: { ...user }, expires: expires.toISOString() }, user }
    const params: Omit<SessionCallbackParams, "token"> = update === undefined ? { ...base, newSession: undefined } : { ...base, trigger: "update", newSession: update.data }
    try {
      session = await config.callbacks.session(params as SessionCallbackParams)
    } catch (cause) {
      throw new SessionTokenError("The `session` callback threw.", { cause })
    }
  }
  await emit(config, "session", { session, token: {} })
  return { session, user, userId: user.id }
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
  return context.config.session.strategy === "jwt" ? readJwtSession(context, update) : readDatabaseSession(context, update)
}

/** What a finished sign-in hands to the session. */
export interface SignedIn {
  user: User & { id: string }
  account: Account | null
  profile?: Profile
  isNewUser: boolean
}

/**
 * Starts the session of a user who just signed in.
 *
 * @throws {AccessDenied} when the `jwt` callback returns `null`.
 * @throws {SessionTokenError} when the token cannot be sealed.
 */
export async function startSession(context: RequestContext, signedIn: SignedIn): Promise<void> {
  const { config } = context
  // A read of the previous session earlier in this request may have queued its own cookie.
  const name = context.cookies.sessionToken.name
  context.setCookies = context.setCookies.filter((cookie) => cookie.name !== name && !cookie.name.startsWith(`${name}.`))
  if (config.session.strategy === "database") {
    const adapter = config.adapter
    if (adapter === undefined) throw new SessionTokenError("Database sessions need an adapter.")
    const sessionToken = config.session.generateSessionToken()
    const expires = new Date(Date.now() + config.session.maxAge * 1000)
    await callAdapter(adapter, "createSession", { sessionToken, userId: signedIn.user.id, expires })
    await recordSignIn(context, { userId: signedIn.user.id, provider: signedIn.account?.provider, profile: signedIn.profile, sessionToken, expires })
    const cookie = context.cookies.sessionToken
    context.setCookies.push({ name: cookie.name, value: sessionToken, options: { ...cookie.options, expires } })
    return
  }
  const { user } = signedIn
  let token: JWT | null = { name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null, sub: user.id }
  if (config.callbacks.jwt !== undefined) {
    try {
      token = await config.callbacks.jwt({
        token,
        user,
        account: signedIn.account,
        profile: signedIn.profile,
        trigger: signedIn.isNewUser ? "signUp" : "signIn",
        isNewUser: signedIn.isNewUser,
      })
    } catch (cause) {
      throw new SessionTokenError("The `jwt` callback threw during sign-in.", { cause })
    }
    if (token === null || typeof token !== "object") throw new AccessDenied("The `jwt` callback returned no token for this sign-in.")
  }
  const { account } = signedIn
  const provider = account === null ? undefined : config.providersById.get(account.provider)
  // Without an adapter the cookie is the only store: the provider's flow may keep its tokens there.
  if (account !== null && config.adapter === undefined && provider?.flow.sessionToken !== undefined) {
    token = await provider.flow.sessionToken(provider.options, token, account)
  }
  const recorded = await recordSignIn(context, {
    userId: user.id,
    provider: account?.provider,
    profile: signedIn.profile,
    sessionToken: null,
    expires: new Date(Date.now() + config.jwt.maxAge * 1000),
  })
  if (recorded !== undefined) token = { ...token, [SESSION_ID_CLAIM]: recorded }
  writeTokenCookie(context, await sealToken(context, token), config.jwt.maxAge)
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
 * Deletes a session row, treating one that is already gone as deleted: Prisma's adapter throws
 * for a row that is not there (another tab signed out, or it expired and was swept), and that
 * must not keep a browser from signing out. A delete that fails while the row is still there
 * still fails.
 *
 * @throws {AdapterError} when the adapter fails and the session is still stored.
 */
async function deleteStoredSession(adapter: Adapter, sessionToken: string): Promise<AdapterSession | null | undefined> {
  try {
    return (await callAdapter(adapter, "deleteSession", sessionToken)) ?? null
  } catch (error) {
    if (sessionAndUser(await callAdapter(adapter, "getSessionAndUser", sessionToken)) === undefined) return null
    throw error
  }
}

/**
 * Ends the request's session: deletes it from the store (database strategy) and clears the cookie.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function endSession(context: RequestContext): Promise<void> {
  const { config } = context
  const source = await sessionSource(context)
  if (config.session.strategy === "database") {
    const sessionToken = source === undefined ? undefined : context.jar.get(source.name)
    if (sessionToken !== undefined && sessionToken !== "" && config.adapter !== undefined) {
      const deleted = await deleteStoredSession(config.adapter, sessionToken)
      if (deleted != null && recordsSessions(config.adapter)) {
        const records = await callAdapter(config.adapter, "listSessionRecords", { userId: deleted.userId })
        await revokeRecords(config, records.filter((record) => record.sessionToken === sessionToken), "signOut")
      }
      await emit(config, "signOut", { session: deleted ?? null })
    }
  } else {
    const raw = source === undefined ? undefined : readChunked(context.jar, source.name)
    const token = source === undefined || raw === undefined ? null : await openToken(context, raw, source.salt)
    const id = token?.[SESSION_ID_CLAIM]
    if (typeof id === "string" && recordsSessions(config.adapter)) {
      const record = await callAdapter(config.adapter, "getSessionRecord", id)
      if (record !== null) await revokeRecords(config, [record], "signOut")
    }
    await emit(config, "signOut", { token })
  }
  clearSessionCookie(context)
  if (config.legacySessionCookies !== undefined) {
    // Every legacy cookie goes, read or not, before `until` and after it.
    const { presentLegacyCookies } = await import("./legacy.js")
    for (const cookie of presentLegacyCookies(context)) context.setCookies.push(...clearChunked(cookie, context.jar))
  }
}
