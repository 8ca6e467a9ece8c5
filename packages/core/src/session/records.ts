/**
 * Session records: one per sign-in, in the adapter's store, so that a session can be ended from
 * anywhere (a back-channel logout, the user's list of devices) whatever its strategy. A
 * JWT session carries its record's id in the `sessionId` claim and is refused once the record is
 * revoked, checked at most once per `session.revocationCheckInterval` seconds per instance; a
 * database session's record names its row, which a revocation deletes. Only an adapter with the
 * session record methods keeps records: without them, sessions behave as they always did.
 */
import { keepsSessionRecords, type Adapter, type AdapterSessionRecord } from "../adapters.js"
import { boundedCache, type BoundedCache } from "../caches.js"
import { clientAddressOf } from "../client-address-of.js"
import { randomString } from "../crypto.js"
import { emit } from "../events.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import type { Profile } from "../model.js"
import { callAdapter } from "../store.js"
import type { SessionRevocationReason } from "../types.js"


/** The longest user agent kept: enough to describe a device. */
const MAX_USER_AGENT = 256

/**
 * Records a sign-in, answering the record's id (`undefined` when the adapter keeps no records).
 * The provider's session id is the ID token's `sid`, when the provider sent one.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function recordSignIn(
  context: RequestContext,
  signIn: { userId: string; provider: string | undefined; profile: Profile | undefined; sessionToken: string | null; expires: Date },
): Promise<string | undefined> {
  const adapter = context.config.adapter
  if (!keepsSessionRecords(adapter)) return undefined
  // Every sign-in gets one, a credentials user the store does not keep (its `authorize` answers
  // from elsewhere) included: that session too must be listed and revocable.
  const now = new Date()
  const sid = signIn.profile?.sid
  const agent = context.request.headers.get("user-agent")
  const record: AdapterSessionRecord = {
    id: randomString(16),
    userId: signIn.userId,
    createdAt: now,
    lastSeenAt: now,
    expires: signIn.expires,
    sessionToken: signIn.sessionToken,
    provider: signIn.provider ?? null,
    providerSid: typeof sid === "string" && sid !== "" ? sid : null,
    userAgent: agent === null ? null : agent.slice(0, MAX_USER_AGENT),
    // As the per-client limits see it: from the app's hook or the integration, an IPv6 client by its /64.
    clientAddress: (await clientAddressOf(context)) ?? null,
    revokedAt: null,
  }
  await callAdapter(adapter, "createSessionRecord", record)
  return record.id
}

/** Per store, per record: whether it was live when last looked at, and when that was (ms). */
const looked = new WeakMap<Adapter, BoundedCache<string, { live: boolean; at: number }>>()
let stores = 0

function lookedAt(adapter: Adapter): BoundedCache<string, { live: boolean; at: number }> {
  let cache = looked.get(adapter)
  if (cache === undefined) {
    cache = boundedCache(`session records of store ${String(++stores)}`, 10_000)
    looked.set(adapter, cache)
  }
  return cache
}

/**
 * Whether the JWT session naming record `id` may still be used: its record exists, is not
 * revoked and has not expired. Looked up in the store at most once per
 * `session.revocationCheckInterval` seconds per record and instance (`0`: on every read).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function isLive(config: InternalConfig, id: unknown): Promise<boolean> {
  const adapter = config.adapter
  if (!keepsSessionRecords(adapter) || typeof id !== "string") return true
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
