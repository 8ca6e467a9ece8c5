/**
 * Session records: one per sign-in, in the adapter's store, so that a session can be ended from
 * anywhere (a back-channel logout, the user's list of devices) whatever its strategy. A
 * JWT session carries its record's id in the `sessionId` claim and is refused once the record is
 * revoked, checked at most once per `session.revocationCheckInterval` seconds per instance; a
 * database session's record names its row, which a revocation deletes. Only an adapter with the
 * session record methods keeps records: without them, sessions behave as they always did.
 *
 * A session from before the switch from Auth.js (a JWT with no `sessionId`, a database row with no
 * record) gets its record on its first read while `legacySessionCookies.until` has not passed, and
 * is refused without one after it. Its record's id is a keyed hash of its token, so parallel first
 * reads make one record, and a revoked one stays revoked when its old cookie comes back.
 */
import { keepsSessionRecords, type Adapter, type AdapterSessionRecord, type SessionRecordMethods } from "../adapters.js"
import { boundedCache, type BoundedCache } from "../crypto/caches.js"
import { clientAddressOf, userAgentOf } from "../limits/client-address-of.js"
import { deriveKeys, hmac, randomString } from "../crypto/crypto.js"
import { emit } from "../sign-in/events.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import type { Profile, SessionAssurance } from "../model.js"
import { MissingSecret } from "../errors/errors.js"
import { callAdapter } from "../outbound/store.js"
import type { JWT, SessionRevocationReason } from "../types.js"
import { SESSION_ID_CLAIM } from "./source.js"
import { preUpgradeAssurance, readAssurance } from "./assurance.js"


/** What a new record says beyond the request's device and address. */
interface RecordFields {
  id: string
  userId: string
  expires: Date
  sessionToken: string | null
  provider: string | null
  providerSid: string | null
  /** A database session's assurance; a JWT session carries its own in its cookie. */
  assurance?: SessionAssurance
}

/** A database session's assurance as its record keeps it. */
function assuranceFields(assurance: SessionAssurance): Pick<AdapterSessionRecord, "signedInAt" | "authTime" | "authMethods"> {
  return {
    signedInAt: new Date(assurance.signedInAt * 1000),
    authTime: assurance.authTime === 0 ? null : new Date(assurance.authTime * 1000),
    authMethods: [...assurance.methods],
  }
}

function epochSeconds(value: unknown): number | undefined {
  const time = value instanceof Date || typeof value === "string" ? new Date(value).getTime() : NaN
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000)
}

/** The assurance a record keeps, or `undefined` for one written before the fields existed. */
function recordAssurance(record: AdapterSessionRecord): SessionAssurance | undefined {
  return readAssurance({ methods: record.authMethods ?? undefined, authTime: record.authTime == null ? 0 : epochSeconds(record.authTime), signedInAt: epochSeconds(record.signedInAt) })
}

async function newRecord(context: RequestContext, { assurance, ...fields }: RecordFields): Promise<AdapterSessionRecord> {
  const now = new Date()
  return {
    ...fields,
    ...(assurance === undefined ? {} : assuranceFields(assurance)),
    createdAt: now,
    lastSeenAt: now,
    userAgent: userAgentOf(context.request) ?? null,
    // As the per-client limits see it: from the app's hook or the integration, an IPv6 client by its /64.
    clientAddress: (await clientAddressOf(context)) ?? null,
    revokedAt: null,
  }
}

/**
 * Records a sign-in, answering the record's id (`undefined` when the adapter keeps no records).
 * The provider's session id is the ID token's `sid`, when the provider sent one.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function recordSignIn(
  context: RequestContext,
  signIn: { userId: string; provider: string | undefined; profile: Profile | undefined; sessionToken: string | null; expires: Date; assurance?: SessionAssurance },
): Promise<string | undefined> {
  const adapter = context.config.adapter
  if (!keepsSessionRecords(adapter)) return undefined
  // Every sign-in gets one, a credentials user the store does not keep (its `authorize` answers
  // from elsewhere) included: that session too must be listed and revocable.
  const sid = signIn.profile?.sid
  const record = await newRecord(context, {
    id: randomString(16),
    userId: signIn.userId,
    expires: signIn.expires,
    sessionToken: signIn.sessionToken,
    provider: signIn.provider ?? null,
    providerSid: typeof sid === "string" && sid !== "" ? sid : null,
    ...(signIn.assurance === undefined ? {} : { assurance: signIn.assurance }),
  })
  await callAdapter(adapter, "createSessionRecord", record)
  return record.id
}

/** How the id of a pre-switch session's record begins: back-channel logout tells them by it. */
const PRE_SWITCH = "pre-switch."

/** Whether `record` was made for a session from before the switch (its provider is not known). */
export function isPreSwitchRecord(record: AdapterSessionRecord): boolean {
  return record.id.startsWith(PRE_SWITCH)
}

/**
 * The record id a pre-switch value stands for: keyed with the app's (first) secret, so that the
 * listed id tells nothing of the token, and the same for every instance and every parallel read.
 */
async function preSwitchId(config: InternalConfig, kind: "jwt" | "database" | "user", value: string): Promise<string> {
  const [key] = await deriveKeys(config.secrets, "@portcullis/core pre-switch session records", "hmac")
  if (key === undefined) throw new MissingSecret("No secret to name a pre-switch session's record with.")
  return PRE_SWITCH + (await hmac(`${kind} ${value}`, key))
}

/** Whether sessions from before the switch may still get a record: `legacySessionCookies.until` has not passed. */
function preSwitchWindowOpen(config: InternalConfig): boolean {
  const legacy = config.legacySessionCookies
  return legacy !== undefined && Date.now() < legacy.until.getTime()
}

/**
 * Creates the record `record.id` unless it exists; answers the stored one either way. Of two
 * instances creating it at once, the loser's create fails and it reads the winner's.
 */
async function createOnce(adapter: Adapter & SessionRecordMethods, record: AdapterSessionRecord): Promise<AdapterSessionRecord> {
  const existing = await callAdapter(adapter, "getSessionRecord", record.id)
  if (existing !== null) return existing
  try {
    await callAdapter(adapter, "createSessionRecord", record)
    return record
  } catch (error) {
    const winner = await callAdapter(adapter, "getSessionRecord", record.id)
    if (winner === null) throw error
    return winner
  }
}

/**
 * The record of a session from before the switch, made on its first read (once, however many
 * reads race): `undefined` when it may not have one (`until` has passed or was never set, it
 * names no user, or its user signed out everywhere since the switch), and it is then refused.
 * The caller still checks that the record is live. `token` is what the cookie holds: the sealed
 * JWT, or the database session's token.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function adoptPreSwitchSession(
  context: RequestContext,
  session: { kind: "jwt" | "database"; token: string; userId: unknown; expires: Date; sessionToken: string | null },
): Promise<AdapterSessionRecord | undefined> {
  const { config } = context
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter) || !preSwitchWindowOpen(config) || typeof session.userId !== "string" || session.userId === "") return undefined
  if ((await callAdapter(adapter, "getSessionRecord", await preSwitchId(config, "user", session.userId))) !== null) return undefined
  const record = await newRecord(context, {
    id: await preSwitchId(config, session.kind, session.token),
    userId: session.userId,
    expires: session.expires,
    sessionToken: session.sessionToken,
    // Auth.js's sessions do not say which provider they came from, nor its session id.
    provider: null,
    providerSid: null,
    // A database session's assurance lives here, and begins now; a JWT session's in its cookie.
    ...(session.kind === "database" ? { assurance: preUpgradeAssurance(Math.floor(Date.now() / 1000)) } : {}),
  })
  const stored = await createOnce(adapter, record)
  if (stored.userId !== session.userId) return undefined
  config.logger.debug(`A ${session.kind} session from before the switch from Auth.js got its session record.`)
  return stored
}

/** When a pre-switch JWT session's record expires: never before the old token, so a revoked one stays refused should that cookie come back. */
function preSwitchExpiry(config: InternalConfig, token: JWT): Date {
  const now = Date.now()
  const exp = typeof token.exp === "number" ? token.exp * 1000 : now
  return new Date(Math.max(exp, now + config.jwt.maxAge * 1000))
}

/**
 * A JWT session's claims checked against its record: `token` with the id of the record a
 * pre-switch session just got (`recorded`), or `null` when the session names no live record
 * (revoked elsewhere, or none). `raw` is the sealed JWT.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function liveJwtSession(context: RequestContext, token: JWT, raw: string): Promise<{ token: JWT | null; recorded: boolean }> {
  let recorded = false
  // No `sessionId`: sealed before the switch (on http Auth.js's cookie name is ours, so the name tells nothing).
  if (typeof token[SESSION_ID_CLAIM] !== "string") {
    const record = await adoptPreSwitchSession(context, { kind: "jwt", token: raw, userId: token.sub, expires: preSwitchExpiry(context.config, token), sessionToken: null })
    if (record !== undefined) {
      token = { ...token, [SESSION_ID_CLAIM]: record.id }
      recorded = true
    }
  }
  return { token: (await isLive(context.config, token[SESSION_ID_CLAIM])) ? token : null, recorded }
}

/**
 * Revokes the record of the JWT session signing out (`raw` sealed, `token` its claims). A
 * pre-switch session signing out on its first request gets its record to revoke, so a copy of
 * its cookie is refused too.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function revokeJwtSession(context: RequestContext, token: JWT, raw: string): Promise<void> {
  const { config } = context
  const { adapter } = config
  if (!keepsSessionRecords(adapter)) return
  const id = token[SESSION_ID_CLAIM]
  const record =
    typeof id === "string"
      ? await callAdapter(adapter, "getSessionRecord", id)
      : await adoptPreSwitchSession(context, { kind: "jwt", token: raw, userId: token.sub, expires: preSwitchExpiry(config, token), sessionToken: null })
  if (record != null) await revokeRecords(config, [record], "signOut")
}

/**
 * Ends the pre-switch sessions of `userId` that no read has recorded yet, for "sign out other
 * sessions", "sign out everywhere", `revokeUserSessions` and back-channel logout: a revoked
 * marker record, looked at before any is recorded, refuses them all when they come back. Does
 * nothing once `until` has passed (they are refused then anyway).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function endUnrecordedPreSwitchSessions(config: InternalConfig, userId: string): Promise<void> {
  const adapter = config.adapter
  const legacy = config.legacySessionCookies
  if (!keepsSessionRecords(adapter) || legacy === undefined || !preSwitchWindowOpen(config)) return
  const now = new Date()
  await createOnce(adapter, {
    id: await preSwitchId(config, "user", userId),
    userId,
    createdAt: now,
    lastSeenAt: now,
    // Pre-switch sessions are refused after `until` whatever it says: the marker may go then.
    expires: legacy.until,
    sessionToken: null,
    provider: null,
    providerSid: null,
    userAgent: null,
    clientAddress: null,
    revokedAt: now,
  })
}

/** How many stores the caches below have met: it names each cache. */
let stores = 0

/** A database session's record as a read needs it: its id, its assurance, and when it was looked at (ms). */
interface RowRecord {
  id: string
  assurance: SessionAssurance
  at: number
}

/** Per store: the record naming each database session's token (fixed for the row's life), as last looked at. */
const rowRecords = new WeakMap<Adapter, BoundedCache<string, RowRecord>>()

function rowRecordsOf(adapter: Adapter): BoundedCache<string, RowRecord> {
  let known = rowRecords.get(adapter)
  if (known === undefined) {
    known = boundedCache(`database session records of store ${String(++stores)}`, 10_000)
    rowRecords.set(adapter, known)
  }
  return known
}

/**
 * The record naming database session `row` and the session's assurance, its pre-switch record made
 * on its first read when it has none; `undefined` when its record is revoked, or it has none and
 * may not get one: the row is then refused. A record written before the assurance existed gets one
 * now (its sign-in time this read). Looked up once per row and instance, and again after
 * `session.revocationCheckInterval`, so a re-authentication on another instance shows here: a
 * revocation deletes the row, which every read looks up anyway.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function databaseSessionRecord(
  context: RequestContext,
  row: { sessionToken: string; userId: string; expires: Date },
): Promise<{ id: string; assurance: SessionAssurance } | undefined> {
  const { config } = context
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return undefined
  const known = rowRecordsOf(adapter)
  const now = Date.now()
  const cached = known.get(row.sessionToken)
  if (cached !== undefined && now - cached.at < config.session.revocationCheckInterval * 1000) return cached
  let record: AdapterSessionRecord | null | undefined
  if (cached !== undefined) {
    record = await callAdapter(adapter, "getSessionRecord", cached.id)
  } else {
    const records = await callAdapter(adapter, "listSessionRecords", { userId: row.userId })
    record =
      records.find((candidate) => candidate.sessionToken === row.sessionToken && candidate.userId === row.userId) ??
      (await adoptPreSwitchSession(context, { kind: "database", token: row.sessionToken, userId: row.userId, expires: row.expires, sessionToken: row.sessionToken }))
  }
  if (record == null || (record.revokedAt ?? null) !== null || record.userId !== row.userId) {
    known.delete(row.sessionToken)
    return undefined
  }
  let assurance = recordAssurance(record)
  if (assurance === undefined) {
    // Recorded before the assurance existed: the lowest one, its sign-in time now, stored at once.
    assurance = preUpgradeAssurance(Math.floor(now / 1000))
    await callAdapter(adapter, "updateSessionRecord", { id: record.id, ...assuranceFields(assurance) })
  }
  const found = { id: record.id, assurance, at: now }
  known.set(row.sessionToken, found)
  return found
}

/**
 * Stores a database session's raised assurance on its record (`id`), and remembers it here.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function storeRecordAssurance(config: InternalConfig, sessionToken: string, id: string, assurance: SessionAssurance): Promise<void> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return
  const { authTime, authMethods } = assuranceFields(assurance)
  await callAdapter(adapter, "updateSessionRecord", { id, authTime, authMethods })
  rowRecordsOf(adapter).set(sessionToken, { id, assurance, at: Date.now() })
}

/** Per store, per record: whether it was live when last looked at, and when that was (ms). */
const looked = new WeakMap<Adapter, BoundedCache<string, { live: boolean; at: number }>>()

function lookedAt(adapter: Adapter): BoundedCache<string, { live: boolean; at: number }> {
  let cache = looked.get(adapter)
  if (cache === undefined) {
    cache = boundedCache(`session records of store ${String(++stores)}`, 10_000)
    looked.set(adapter, cache)
  }
  return cache
}

/**
 * Whether the session naming record `id` may still be used: its record exists, is not
 * revoked and has not expired. Looked up in the store at most once per
 * `session.revocationCheckInterval` seconds per record and instance (`0`: on every read).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function isLive(config: InternalConfig, id: unknown): Promise<boolean> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return true
  // A session that names no record cannot be revoked: a pre-switch one has been given one by now.
  if (typeof id !== "string") return false
  const interval = config.session.revocationCheckInterval * 1000
  const cache = lookedAt(adapter)
  const now = Date.now()
  const known = cache.get(id)
  if (known !== undefined && now - known.at < interval) return known.live
  const record = await callAdapter(adapter, "getSessionRecord", id)
  const live = record !== null && (record.revokedAt ?? null) === null && new Date(record.expires).getTime() > now
  if (interval > 0) cache.set(id, { live, at: now })
  // "Last seen" rides on the lookup the revocation check makes anyway, and is written seldom.
  if (live && now - new Date(record.lastSeenAt).getTime() >= LAST_SEEN_INTERVAL_MS) await touchRecord(config, id, {})
  return live
}

/** How stale a record's `lastSeenAt` may get before a read writes it again. */
export const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000

/**
 * Marks record `id` as seen now (and moves its expiry along with a session that slid). Only a
 * list shows `lastSeenAt`: a store that fails here is logged and the read goes on.
 */
export async function touchRecord(config: InternalConfig, id: string, change: { expires?: Date }): Promise<void> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return
  try {
    await callAdapter(adapter, "updateSessionRecord", { id, lastSeenAt: new Date(), ...change })
  } catch (error) {
    config.logger.warn("AdapterError", `The session record's last-seen time was not stored: ${error instanceof Error ? error.message : "the store failed"}.`)
  }
}

/**
 * Revokes session records: from now on their JWT sessions are refused (within
 * `revocationCheckInterval` on other instances) and their database rows are deleted. Sends the
 * `sessionRevoked` event for each record that was live.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function revokeRecords(config: InternalConfig, records: readonly AdapterSessionRecord[], reason: SessionRevocationReason): Promise<number> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return 0
  const now = new Date()
  let revoked = 0
  for (const record of records) {
    if ((record.revokedAt ?? null) !== null) continue
    await callAdapter(adapter, "updateSessionRecord", { id: record.id, revokedAt: now })
    lookedAt(adapter).set(record.id, { live: false, at: now.getTime() })
    if (typeof record.sessionToken === "string" && record.sessionToken !== "") {
      await Promise.resolve(callAdapter(adapter, "deleteSession", record.sessionToken)).catch(() => undefined)
    }
    revoked++
    await emit(config, "sessionRevoked", { userId: record.userId, sessionId: record.id, reason })
  }
  return revoked
}

/**
 * Ends every session of user `userId` (the pre-switch ones no read has recorded yet included) but
 * the one `keep` names (the asking session: its record's id, or a database session's token), with
 * `reason` (`revokeRecords`). Answers how many live recorded sessions it ended; nothing without
 * session records.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function revokeUserRecords(config: InternalConfig, userId: string, reason: SessionRevocationReason, keep?: { recordId?: unknown; sessionToken?: string | undefined }): Promise<number> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter)) return 0
  await endUnrecordedPreSwitchSessions(config, userId)
  const kept = (record: AdapterSessionRecord): boolean =>
    keep !== undefined && ((typeof keep.recordId === "string" && record.id === keep.recordId) || (keep.sessionToken !== undefined && record.sessionToken === keep.sessionToken))
  // A store that answers another user's records is not believed.
  const records = (await callAdapter(adapter, "listSessionRecords", { userId })).filter((record) => record.userId === userId && !kept(record))
  return revokeRecords(config, records, reason)
}

/**
 * Revokes the record `id` names, if it is live, with `reason`: a session whose lifetime is over
 * (`expired`, `idle`) is refused everywhere from now on, its database row deleted with it.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function revokeRecordById(config: InternalConfig, id: unknown, reason: SessionRevocationReason): Promise<void> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter) || typeof id !== "string") return
  const record = await callAdapter(adapter, "getSessionRecord", id)
  if (record != null) await revokeRecords(config, [record], reason)
}
