import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider"

interface Entry {
  payload: AdapterPayload
  /** Epoch milliseconds; `Infinity` when the model has no expiry. */
  expiresAt: number
}

/** Models whose records belong to a grant and die with it (`revokeByGrantId`). */
const GRANT_BOUND = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PreAuthorizedCode",
])

const SWEEP_THRESHOLD = 2_000

/** One stored IdP session: its id (the session cookie's value) and a copy of its payload. */
export interface StoredSession {
  id: string
  payload: AdapterPayload
}

/** The storage of one oidc-provider instance, and what the dev IdP asks of it directly. */
export interface MemoryStore {
  /** The adapter factory for oidc-provider's `adapter` setting. */
  adapter: AdapterFactory
  /** The live sessions of an account, for ending them from outside a browser. */
  sessionsOf(accountId: string): StoredSession[]
  /** Forgets a session: the browser holding its cookie starts a new one, signed out. */
  destroySession(id: string): void
}

/**
 * Creates an in-memory storage adapter for one oidc-provider instance.
 *
 * oidc-provider ships a similar adapter but prints a "development-only" warning on every start;
 * this one is private to one dev IdP, keeps no timers (expiry is checked on read, so nothing
 * holds the event loop open), and hands out copies so callers never alias stored state.
 */
export function createMemoryStore(): MemoryStore {
  const entries = new Map<string, Entry>()
  const sessionsByUid = new Map<string, string>()
  const byUserCode = new Map<string, string>()
  const grantMembers = new Map<string, Set<string>>()

  function read(key: string): AdapterPayload | undefined {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key)
      return undefined
    }
    return entry.payload
  }

  function sweep(): void {
    const now = Date.now()
    for (const [key, entry] of entries) {
      if (entry.expiresAt <= now) entries.delete(key)
    }
  }

  const SESSION_PREFIX = "Session:"

  function sessionsOf(accountId: string): StoredSession[] {
    const found: StoredSession[] = []
    for (const key of [...entries.keys()]) {
      if (!key.startsWith(SESSION_PREFIX)) continue
      const payload = read(key)
      if (payload?.accountId === accountId) found.push({ id: key.slice(SESSION_PREFIX.length), payload: structuredClone(payload) })
    }
    return found
  }

  function destroySession(id: string): void {
    const payload = read(`${SESSION_PREFIX}${id}`)
    entries.delete(`${SESSION_PREFIX}${id}`)
    if (payload?.uid !== undefined && sessionsByUid.get(payload.uid) === id) sessionsByUid.delete(payload.uid)
  }

  const adapter = (model: string): Adapter => {
    const keyFor = (id: string) => `${model}:${id}`

    return {
      upsert(id, payload, expiresIn) {
        const key = keyFor(id)
        if (entries.size > SWEEP_THRESHOLD) sweep()
        entries.set(key, {
          payload: structuredClone(payload),
          expiresAt: typeof expiresIn === "number" ? Date.now() + expiresIn * 1000 : Infinity,
        })
        if (model === "Session" && payload.uid !== undefined) sessionsByUid.set(payload.uid, id)
        if (payload.userCode !== undefined) byUserCode.set(payload.userCode, id)
        if (GRANT_BOUND.has(model) && payload.grantId !== undefined) {
          const members = grantMembers.get(payload.grantId) ?? new Set()
          members.add(key)
          grantMembers.set(payload.grantId, members)
        }
        return Promise.resolve()
      },

      find(id) {
        const payload = read(keyFor(id))
        return Promise.resolve(payload === undefined ? undefined : structuredClone(payload))
      },

      findByUid(uid) {
        const id = sessionsByUid.get(uid)
        const payload = id === undefined ? undefined : read(keyFor(id))
        return Promise.resolve(payload === undefined ? undefined : structuredClone(payload))
      },

      findByUserCode(userCode) {
        const id = byUserCode.get(userCode)
        const payload = id === undefined ? undefined : read(keyFor(id))
        return Promise.resolve(payload === undefined ? undefined : structuredClone(payload))
      },

      consume(id) {
        const payload = read(keyFor(id))
        if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000)
        return Promise.resolve()
      },

      destroy(id) {
        const key = keyFor(id)
        const payload = read(key)
        entries.delete(key)
        if (payload?.uid !== undefined && sessionsByUid.get(payload.uid) === id) {
          sessionsByUid.delete(payload.uid)
        }
        if (payload?.userCode !== undefined && byUserCode.get(payload.userCode) === id) {
          byUserCode.delete(payload.userCode)
        }
        return Promise.resolve()
      },

      revokeByGrantId(grantId) {
        for (const key of grantMembers.get(grantId) ?? []) entries.delete(key)
        grantMembers.delete(grantId)
        return Promise.resolve()
      },
    }
  }
  return { adapter, sessionsOf, destroySession }
}
