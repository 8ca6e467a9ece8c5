/**
 * Database sessions (`session: { strategy: "database" }`): the cookie holds an opaque token and
 * the adapter stores the session. Loaded on the first database-session read, sign-in or sign-out,
 * so an app on JWT sessions (every app without an adapter) bundles none of it.
 */
import { keepsSessionRecords, type Adapter, type AdapterSession, type AdapterUser } from "../adapters.js"
import type { RequestContext } from "../internal.js"
import { Configuration, SessionTokenError } from "../errors/errors.js"
import { emit } from "../sign-in/events.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import type { CallbacksOptions, Session } from "../types.js"
import type { SessionSource } from "./legacy.js"
import type { SessionAssurance } from "../model.js"
import { copyAssurance, untrackedAssurance, withAssurance } from "./assurance.js"
import { databaseSessionRecord, recordSignIn, revokeRecordById, revokeRecords, storeRecordAssurance, touchRecord } from "./records.js"
import { clearUnopened, expireLegacy, lifetimeOver, renewalAge, sessionSource, sessionUser, type CurrentSession, type EndedSession, type SessionUpdate, type SignedIn } from "./source.js"

type SessionCallbackParams = Parameters<NonNullable<CallbacksOptions["session"]>>[0]

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

/**
 * Reads the request's database session, sliding its expiry when due.
 *
 * @throws {SessionTokenError} when the `session` callback throws.
 * @throws {AdapterError} when the adapter fails.
 */
export async function readDatabaseSession(context: RequestContext, update: SessionUpdate | undefined): Promise<CurrentSession | null> {
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
  // The row's record: a revoked one refuses it (its delete may have failed), and a row Auth.js
  // wrote before the switch gets one now, or is refused once `until` has passed.
  const record = keepsSessionRecords(adapter) ? await databaseSessionRecord(context, { sessionToken, userId: found.user.id, expires }) : undefined
  if (keepsSessionRecords(adapter) && record === undefined) {
    clearUnopened(context, source)
    return null
  }
  const recordId = record?.id
  // Without session records there is nowhere to keep it: the lowest, its times unknown.
  const assurance = record?.assurance ?? untrackedAssurance()
  const { maxAge } = config.session
  // The row's expiry was last moved `maxAge` before it: that is the session's last recorded activity.
  const lastActivity = Math.floor((expires.getTime() - maxAge * 1000) / 1000)
  const over = lifetimeOver(config.session, { signedInAt: assurance.signedInAt, lastActivity }, Math.floor(now / 1000))
  if (over !== undefined) {
    // Revoking the record deletes the row; without records the row goes alone.
    if (recordId === undefined) await deleteStoredSession(adapter, sessionToken)
    else await revokeRecordById(config, recordId, over)
    clearUnopened(context, source)
    return null
  }
  const slide = expires.getTime() - maxAge * 1000 + renewalAge(config.session) * 1000 <= now
  if (slide) {
    expires = new Date(now + maxAge * 1000)
    await callAdapter(adapter, "updateSession", { sessionToken, expires })
    // The session's record (its list entry) slides with it: the one write per `updateAge` that is due anyway.
    if (recordId !== undefined) await touchRecord(config, recordId, { expires })
  }
  if (slide || source.legacy) {
    const cookie = context.cookies.sessionToken
    context.setCookies.push({ name: cookie.name, value: sessionToken, options: { ...cookie.options, expires } })
  }
  const user = found.user
  let session: Session
  if (config.callbacks.session === undefined) {
    session = { user: sessionUser(user), expires: expires.toISOString(), assurance: copyAssurance(assurance) }
  } else {
    // As Auth.js passes it: the session row with the user in it, but never its token, which
    // a callback returning `session` would otherwise hand to every script on the page.
    const { sessionToken: _token, ...row } = found.session
    const base = { session: { ...row, user: { ...user }, expires: expires.toISOString(), assurance: copyAssurance(assurance) }, user }
    const params: Omit<SessionCallbackParams, "token"> = update === undefined ? { ...base, newSession: undefined } : { ...base, trigger: "update", newSession: update.data }
    try {
      session = withAssurance(await config.callbacks.session(params as SessionCallbackParams), assurance)
    } catch (cause) {
      throw new SessionTokenError("The `session` callback threw.", { cause })
    }
  }
  await emit(config, "session", { session, token: {} })
  return { session, user, userId: user.id, sessionToken, assurance }
}

/**
 * Keeps a database session's raised assurance on its record.
 *
 * @throws {Configuration} when the adapter keeps no session records: there is nowhere to keep it.
 * @throws {AdapterError} when the store fails.
 */
export async function storeAssurance(context: RequestContext, sessionToken: string, userId: string | undefined, assurance: SessionAssurance): Promise<void> {
  const { config } = context
  if (!keepsSessionRecords(config.adapter)) throw new Configuration("A database session keeps its assurance on its session record: the adapter needs the session-record methods.")
  const record = userId === undefined ? undefined : await databaseSessionRecord(context, { sessionToken, userId, expires: new Date() })
  if (record !== undefined) await storeRecordAssurance(config, sessionToken, record.id, assurance)
}

/**
 * Stores a new session for the user who signed in (and its session record, when the adapter keeps them) and sets its cookie.
 *
 * @throws {SessionTokenError} when there is no adapter.
 * @throws {AdapterError} when the adapter fails.
 */
export async function startDatabaseSession(context: RequestContext, signedIn: SignedIn, assurance: SessionAssurance): Promise<void> {
  const { config } = context
  const userId = signedIn.user.id
  const adapter = config.adapter
  if (adapter === undefined) throw new SessionTokenError("Database sessions need an adapter.")
  const sessionToken = config.session.generateSessionToken()
  const expires = new Date(Date.now() + config.session.maxAge * 1000)
  await callAdapter(adapter, "createSession", { sessionToken, userId, expires })
  await recordSignIn(context, { userId, provider: signedIn.account?.provider, profile: signedIn.profile, sessionToken, expires, assurance })
  const cookie = context.cookies.sessionToken
  context.setCookies.push({ name: cookie.name, value: sessionToken, options: { ...cookie.options, expires } })
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
 * Deletes the stored session the request's cookie (found in `source`) names, and emits `signOut`.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function endDatabaseSession(context: RequestContext, source: SessionSource | undefined): Promise<EndedSession> {
  const { config } = context
  const sessionToken = source === undefined ? undefined : context.jar.get(source.name)
  if (sessionToken === undefined || sessionToken === "" || config.adapter === undefined) return { userId: undefined, token: null }
  const deleted = await deleteStoredSession(config.adapter, sessionToken)
  if (deleted != null && keepsSessionRecords(config.adapter)) {
    const records = await callAdapter(config.adapter, "listSessionRecords", { userId: deleted.userId })
    await revokeRecords(config, records.filter((record) => record.sessionToken === sessionToken), "signOut")
  }
  await emit(config, "signOut", { session: deleted ?? null })
  return { userId: deleted?.userId, token: null }
}
