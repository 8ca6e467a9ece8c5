/**
 * The signed-in user's sessions: `GET {basePath}/sessions` lists them, `POST
 * {basePath}/sessions/revoke` (CSRF-checked) ends one, every other one, or all of them ("sign out
 * everywhere"). Both strategies, through the session records the adapter keeps (see
 * `session/records.ts`): a revoked database session is gone at once, a revoked JWT session is
 * refused within `session.revocationCheckInterval` on every instance. Loaded by `Auth()` on the
 * first request to these routes only, and by the `@portcullis/core/sessions` server functions.
 */
import { keepsSessionRecords, SESSION_RECORD_METHODS, type Adapter, type AdapterSessionRecord, type SessionRecordMethods } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { json, readFields } from "../http/context.js"
import { verifyCsrf } from "../http/csrf.js"
import { Configuration, UnknownAction } from "../errors/errors.js"
import { SignInRequired } from "../errors/flow-errors.js"
import { jsonError, methodNotAllowed } from "../http/failures.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import { describeDevice } from "../session/device.js"
import { readSession } from "../session/index.js"
import { endUnrecordedPreSwitchSessions, revokeRecords } from "../session/records.js"
import { clearSessionCookie, SESSION_ID_CLAIM } from "../session/source.js"
import { callAdapter } from "../outbound/store.js"
import { completeSignOut } from "./signout.js"
import type { SessionInfo } from "../client-types.js"

export type { SessionInfo }


/** Which sessions to end: one by its id, every one but the asking session, or all of them ("sign out everywhere"). */
export type RevokeTarget = { id: string } | { others: true } | { all: true }

/** What a revocation did. */
export interface RevokeResult {
  /** How many live sessions it ended: `0` for an id that names none of the user's live sessions. */
  revoked: number
  /** With `all`: where the browser goes now (the `callbackUrl`, or first the provider's own sign-out). */
  url?: string
}

/** The longest session id taken: records' ids are 16 random bytes as text, well under it. */
const MAX_ID_LENGTH = 128

/**
 * The adapter, when it keeps session records.
 *
 * @throws {Configuration} naming the missing methods (or the missing adapter): these routes need them, nothing else does.
 */
function recordKeeping(config: InternalConfig): Adapter & SessionRecordMethods {
  const adapter = config.adapter
  if (keepsSessionRecords(adapter)) return adapter
  const missing = adapter === undefined ? "an adapter" : `the adapter methods ${SESSION_RECORD_METHODS.filter((method) => typeof adapter[method] !== "function").join(", ")}`
  throw new Configuration(`Listing and ending sessions needs an adapter that keeps session records: add ${missing} (@portcullis/adapter-memory and @portcullis/adapter-pg have them).`)
}

/** The request's user and which record is the asking session, or `null` when it has no session. */
async function signedIn(context: RequestContext): Promise<{ userId: string; isCurrent: (record: AdapterSessionRecord) => boolean } | null> {
  const current = await readSession(context)
  if (current === null || current.userId === undefined) return null
  const recordId = current.token?.[SESSION_ID_CLAIM]
  const { sessionToken } = current
  return {
    userId: current.userId,
    isCurrent: (record) => (typeof recordId === "string" && record.id === recordId) || (sessionToken !== undefined && record.sessionToken === sessionToken),
  }
}

function isLiveRecord(record: AdapterSessionRecord, now: number): boolean {
  return (record.revokedAt ?? null) === null && new Date(record.expires).getTime() > now
}

/** The user's live records (a store that answers another user's is not believed). */
async function liveRecords(adapter: Adapter & SessionRecordMethods, userId: string): Promise<AdapterSessionRecord[]> {
  const now = Date.now()
  const records = await callAdapter(adapter, "listSessionRecords", { userId })
  return records.filter((record) => record.userId === userId && isLiveRecord(record, now))
}

function iso(value: Date | string): string {
  return new Date(value).toISOString()
}

function sessionInfo(config: InternalConfig, record: AdapterSessionRecord, current: boolean): SessionInfo {
  const provider = typeof record.provider === "string" ? { id: record.provider, name: config.providersById.get(record.provider)?.name ?? null } : null
  return {
    id: record.id,
    createdAt: iso(record.createdAt),
    // The asking session is being seen now, whatever the record last stored.
    lastSeenAt: current ? new Date().toISOString() : iso(record.lastSeenAt),
    expires: iso(record.expires),
    device: describeDevice(record.userAgent),
    clientAddress: typeof record.clientAddress === "string" && record.clientAddress !== "" ? record.clientAddress : null,
    current,
    provider,
  }
}

/**
 * The request's user's live sessions, the asking one first, then the most recently seen; `null`
 * when the request has no session.
 *
 * @throws {Configuration} when the adapter keeps no session records.
 * @throws {AdapterError} when the store fails.
 */
export async function listSessionsOf(context: RequestContext): Promise<SessionInfo[] | null> {
  const adapter = recordKeeping(context.config)
  const me = await signedIn(context)
  if (me === null) return null
  const infos = (await liveRecords(adapter, me.userId)).map((record) => sessionInfo(context.config, record, me.isCurrent(record)))
  return infos.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt))
}

/**
 * Ends the request's user's sessions named by `target`, sending `sessionRevoked` for each. An id
 * that is not one of the user's live sessions (unknown, another user's, already ended) ends
 * nothing and answers `revoked: 0`, as an unknown one does. Ending the asking session, by its id
 * or with `all`, clears its cookie; `all` then signs out as `POST /signout` does (the providers'
 * `revokeTokensOnSignOut` and own sign-out included), to `callbackUrl`. One `sessionRevoke`
 * audit event tells the outcome (`revoked` or `signOutEverywhere` on success).
 *
 * @returns `null` when the request has no session.
 * @throws {Configuration} when the adapter keeps no session records.
 * @throws {AdapterError} when the store fails.
 */
export async function revokeSessionsOf(context: RequestContext, target: RevokeTarget, callbackUrl?: string | null): Promise<RevokeResult | null> {
  const { config } = context
  auditAs(context, "sessionRevoke")
  const adapter = recordKeeping(config)
  const me = await signedIn(context)
  if (me === null) {
    await auditFailure(context, "signInRequired")
    return null
  }
  if ("id" in target) {
    const record = await callAdapter(adapter, "getSessionRecord", target.id)
    // Not one of the user's live sessions: nothing to end, which is what was asked.
    if (record?.userId !== me.userId || record.id !== target.id || !isLiveRecord(record, Date.now())) {
      await auditSuccess(context, me.userId, "revoked")
      return { revoked: 0 }
    }
    const revoked = await revokeRecords(config, [record], "revoked")
    if (me.isCurrent(record)) clearSessionCookie(context)
    await auditSuccess(context, me.userId, "revoked")
    return { revoked }
  }
  // Pre-switch sessions no read has recorded yet are among the others too.
  await endUnrecordedPreSwitchSessions(config, me.userId)
  const records = await liveRecords(adapter, me.userId)
  const others = records.filter((record) => !me.isCurrent(record))
  if ("others" in target) {
    const revoked = await revokeRecords(config, others, "revoked")
    await auditSuccess(context, me.userId, "revoked")
    return { revoked }
  }
  let revoked = await revokeRecords(config, others, "signOutEverywhere")
  // A pending email change ends with the sessions: one asked from a stolen session must not outlive them.
  if (typeof config.adapter?.deleteVerificationTokens === "function") await (await import("../account/pending.js")).cancelEmailChange(config, me.userId)
  if (records.length > others.length) revoked++
  await auditSuccess(context, me.userId, "signOutEverywhere")
  // The asking session last, as a sign-out: no live session is left, so the provider's tokens go too.
  const answer = await completeSignOut(context, await resolveCallbackUrl(context, callbackUrl))
  return { revoked, url: await locationOf(answer) }
}

/** Where a sign-out's answer sends the browser: its `Location`, or the `url` of its JSON form. */
async function locationOf(answer: Response): Promise<string | undefined> {
  const location = answer.headers.get("location")
  if (location !== null) return location
  const body = (await answer.json().catch(() => null)) as { url?: unknown } | null
  return typeof body?.url === "string" ? body.url : undefined
}

/** `true` for a JSON `true` or a form's `"true"`. */
function isTrue(value: unknown): boolean {
  return value === true || value === "true"
}

/**
 * A revocation request's fields: a JSON object `{ csrfToken, id | others | all, callbackUrl? }`
 * or the same as a form (`others=true`).
 *
 * @throws {UnknownAction} for a body that is not one, or names no target, or more than one.
 */
async function readRevocation(request: Request): Promise<{ csrfToken: string | null; target: RevokeTarget; callbackUrl: string | null }> {
  const body = await readFields(request)
  const fields: Record<string, unknown> = body instanceof URLSearchParams ? Object.fromEntries(body) : body
  const { csrfToken, callbackUrl } = fields
  return { csrfToken: typeof csrfToken === "string" ? csrfToken : null, target: revokeTarget(fields), callbackUrl: typeof callbackUrl === "string" ? callbackUrl : null }
}

/**
 * Checks a revocation target from untrusted hands: exactly one of `id` (a session id), `others:
 * true` or `all: true` (`"true"` as a form sends it).
 *
 * @throws {UnknownAction} for anything else.
 */
export function revokeTarget(fields: unknown): RevokeTarget {
  if (typeof fields !== "object" || fields === null) throw new UnknownAction("A session revocation names one of `id`, `others: true` or `all: true`.")
  const { id, others, all } = fields as { id?: unknown; others?: unknown; all?: unknown }
  const asked = [id !== undefined, others !== undefined, all !== undefined].filter(Boolean).length
  if (asked !== 1) throw new UnknownAction("A session revocation names exactly one of `id`, `others: true` or `all: true`.")
  if (id !== undefined) {
    if (typeof id !== "string" || id === "" || id.length > MAX_ID_LENGTH) throw new UnknownAction("The session revocation's `id` must be a session id (a string).")
    return { id }
  }
  if (others !== undefined) {
    if (!isTrue(others)) throw new UnknownAction("The session revocation's `others` must be `true`.")
    return { others: true }
  }
  if (!isTrue(all)) throw new UnknownAction("The session revocation's `all` must be `true`.")
  return { all: true }
}

/**
 * `GET {basePath}/sessions` and `POST {basePath}/sessions/revoke`.
 *
 * @throws {SignInRequired} when the request has no session.
 * @throws {MissingCSRF} when a revocation's CSRF token does not check out.
 * @throws {UnknownAction} for a revocation body that names no valid target.
 * @throws {Configuration} when the adapter keeps no session records.
 */
export async function sessionsRoute(context: RequestContext, method: "GET" | "POST", sub: string | undefined): Promise<Response> {
  if (sub !== undefined && sub !== "revoke") return jsonError(context, "UnknownAction", 404)
  if ((method === "GET") !== (sub === undefined)) return methodNotAllowed(context, sub === undefined, sub === "revoke")
  recordKeeping(context.config)
  if (method === "GET") {
    const sessions = await listSessionsOf(context)
    if (sessions === null) throw new SignInRequired("GET /sessions needs a signed-in session.")
    return json(context, sessions)
  }
  auditAs(context, "sessionRevoke")
  const { csrfToken, target, callbackUrl } = await readRevocation(context.request)
  await verifyCsrf(context, csrfToken)
  const result = await revokeSessionsOf(context, target, callbackUrl)
  if (result === null) throw new SignInRequired("POST /sessions/revoke needs a signed-in session.")
  return json(context, result)
}
