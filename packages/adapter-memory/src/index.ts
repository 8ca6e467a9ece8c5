/**
 * `@portcullis/adapter-memory`: an Adapter that keeps users, accounts, sessions and verification
 * tokens in the memory of the current process. Runtime-neutral: it needs only the Web
 * standard `crypto.randomUUID()` and `structuredClone()`.
 *
 * @module
 */
import type {
  AdapterAccount,
  AdapterAccountKey,
  AdapterAuthFactor,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterUser,
  StrictAdapter,
  VerificationToken,
} from "@portcullis/core/adapters"

/** Records to start the store with (a fixture, a snapshot); each is copied in and checked as if created. */
export interface MemoryAdapterState {
  users?: readonly AdapterUser[]
  accounts?: readonly AdapterAccount[]
  sessions?: readonly AdapterSession[]
  verificationTokens?: readonly VerificationToken[]
  authenticators?: readonly AdapterAuthenticator[]
  /**
   * Session records (`createSessionRecord`). A seeded database session needs one naming its
   * `sessionToken`, and a seeded JWT session its id in the `sessionId` claim: `Auth()` refuses a
   * session without a record (one from before the switch from Auth.js gets it on its first read).
   */
  sessionRecords?: readonly AdapterSessionRecord[]
  /** Second factors (`createAuthFactor`): TOTP authenticators and backup codes, kept whatever the user id. */
  authFactors?: readonly AdapterAuthFactor[]
  /** Password hashes (`setPasswordHash`), each of an existing user: PHC strings as core's `hashPassword` makes them. */
  passwordHashes?: readonly { userId: string; hash: string }[]
}

type Fields = Record<string, unknown>

/**
 * A user as kept here. The contract types `email` as a string, but `Auth()` creates a user
 * with `email: null` when the provider shares none: such users are kept, and not indexed.
 */
interface StoredUser {
  id: string
  email: string | null
  emailVerified: Date | null
  [claim: string]: unknown
}

/** Below this many records a map is never swept; above it, at most once per doubling. */
const SWEEP_FLOOR = 1024

/**
 * An Adapter backed by in-memory Maps: for development, tests and single-process apps. Data
 * lives as long as the returned object; create it once per process, not per request.
 *
 * Every method answers synchronously, but `withAccountLock`, which queues one account's critical
 * sections one after the other within the process. Records go in and come out as deep copies (Dates
 * included), so nothing a caller holds can change the store. Emails, provider accounts,
 * session tokens, verification tokens and WebAuthn credential ids are unique (a user whose provider shared no email is
 * kept with `email: null`, found by id and account only); accounts, sessions and authenticators
 * must belong to an existing user and go with it when it is deleted. Expired sessions and verification tokens
 * are never returned nor extended: they are deleted when read, and swept as the store grows.
 *
 * @param initial Records to start with, copied in; the caller's objects are never touched.
 * @returns Every method of the {@link StrictAdapter} contract.
 * @throws {Error} Here, when `initial` repeats a unique key or refers to a missing user;
 * from `createUser` / `createUserWithAccount` / `updateUser` when another user has the email, from
 * `createUserWithAccount` / `linkAccount` /
 * `createSession` / `createAuthenticator` when the key exists or the user does not, from
 * `createVerificationToken` when the identifier already has this token, from `updateUser` when
 * no user has the id, from `updateAuthenticatorCounter` when no credential has the id, and from
 * `createAuthFactor` / `replaceAuthFactors` when a factor's id exists (or, for the latter, a factor
 * is of another user or type: then nothing changes), and from `setPasswordHash` when no user has the id.
 * @throws {TypeError} When a field the store indexes or checks is missing or of the wrong type
 * (an id or token that is not a string, an `expires` that is not a valid Date, a `counter` or a
 * TOTP `step` that is not a non-negative integer).
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "@portcullis/adapter-memory"
 *
 * const adapter = MemoryAdapter() // once per process: the store is this object
 * export default { fetch: (request: Request) => Auth(request, { adapter, providers, secret }) }
 *
 * // in a test, start from known records
 * const seeded = MemoryAdapter({
 *   users: [{ id: "u1", email: "ada@example.com", emailVerified: null }],
 *   sessions: [{ sessionToken: "t1", userId: "u1", expires: new Date(Date.now() + 60_000) }],
 *   sessionRecords: [{ id: "r1", userId: "u1", sessionToken: "t1", createdAt: new Date(), lastSeenAt: new Date(), expires: new Date(Date.now() + 60_000) }],
 * })
 * ```
 */
export function MemoryAdapter(initial: MemoryAdapterState = {}): Required<StrictAdapter> {
  const users = new Map<string, StoredUser>()
  const userIdsByEmail = new Map<string, string>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const verificationTokens = new Map<string, VerificationToken>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  /** Per account, the last critical section queued by withAccountLock, settled either way. */
  const accountLocks = new Map<string, Promise<void>>()
  const sessionRecords = new Map<string, AdapterSessionRecord>()
  /** Single-use keys (`useOnce`) and until when each is kept. */
  const usedKeys = new Map<string, Date>()
  const authFactors = new Map<string, AdapterAuthFactor>()
  /** Password hashes by user id: opaque strings, apart from the users so no user read carries one. */
  const passwordHashes = new Map<string, string>()
  const sweepSessionRecords = sweeper(sessionRecords, (record) => record.expires)
  const sweepUsedKeys = sweeper(usedKeys, (expires) => expires)
  const sweepSessions = sweeper(sessions, (session) => session.expires)
  const sweepVerificationTokens = sweeper(verificationTokens, (token) => token.expires)

  // Each insert takes a record the store owns (already copied) and checks it before indexing it.
  function insertUser(record: object, where: string): StoredUser {
    const user = checkUser(record, where)
    const email = emailKey(user)
    if (users.has(user.id)) throw new Error(`MemoryAdapter: ${where}: a user with this id exists`)
    if (email !== undefined && userIdsByEmail.has(email)) throw new Error(`MemoryAdapter: ${where}: another user has this email`)
    users.set(user.id, user)
    if (email !== undefined) userIdsByEmail.set(email, user.id)
    return user
  }

  function insertAccount(record: object, where: string): AdapterAccount {
    const account = checkAccount(record, where)
    requireUser(account.userId, where)
    const key = compositeKey(account.provider, account.providerAccountId)
    if (accounts.has(key)) throw new Error(`MemoryAdapter: ${where}: this ${account.provider} account is already linked`)
    accounts.set(key, account)
    return account
  }

  function insertSession(record: object, where: string): AdapterSession {
    const session = checkSession(record, where)
    requireUser(session.userId, where)
    if (sessions.has(session.sessionToken)) throw new Error(`MemoryAdapter: ${where}: a session with this token exists`)
    sweepSessions()
    sessions.set(session.sessionToken, session)
    return session
  }

  function insertVerificationToken(record: object, where: string): VerificationToken {
    const token = checkVerificationToken(record, where)
    const key = compositeKey(token.identifier, token.token)
    if (verificationTokens.has(key)) throw new Error(`MemoryAdapter: ${where}: this verification token exists`)
    sweepVerificationTokens()
    verificationTokens.set(key, token)
    return token
  }

  function insertAuthenticator(record: object, where: string): AdapterAuthenticator {
    const authenticator = checkAuthenticator(record, where)
    requireUser(authenticator.userId, where)
    if (authenticators.has(authenticator.credentialID)) throw new Error(`MemoryAdapter: ${where}: a credential with this credentialID exists`)
    authenticators.set(authenticator.credentialID, authenticator)
    return authenticator
  }

  // No user check: a credentials sign-in the store does not keep gets a record too.
  function insertSessionRecord(record: object, where: string): AdapterSessionRecord {
    const stored = checkSessionRecord(record, where)
    if (sessionRecords.has(stored.id)) throw new Error(`MemoryAdapter: ${where}: a session record with this id exists`)
    sessionRecords.set(stored.id, stored)
    return stored
  }

  // No user check either: factors follow session records, kept by user id without a foreign key.
  function storePasswordHash(userId: string, hash: unknown, where: string): void {
    requireUser(userId, where)
    if (typeof hash !== "string" || hash === "") throw new TypeError(`MemoryAdapter: ${where}: \`hash\` must be a non-empty string`)
    passwordHashes.set(userId, hash)
  }

  function insertAuthFactor(record: object, where: string): AdapterAuthFactor {
    const factor = checkAuthFactor(record, where)
    if (authFactors.has(factor.id)) throw new Error(`MemoryAdapter: ${where}: a factor with this id exists`)
    authFactors.set(factor.id, factor)
    return factor
  }

  function requireUser(userId: string, where: string): void {
    if (!users.has(userId)) throw new Error(`MemoryAdapter: ${where}: no user has the id in userId`)
  }

  initial.users?.forEach((user, i) => insertUser(copy(user), `initial.users[${i}]`))
  initial.accounts?.forEach((account, i) => insertAccount(copy(account), `initial.accounts[${i}]`))
  initial.sessions?.forEach((session, i) => insertSession(copy(session), `initial.sessions[${i}]`))
  initial.verificationTokens?.forEach((token, i) => {
    insertVerificationToken(copy(token), `initial.verificationTokens[${i}]`)
  })
  initial.authenticators?.forEach((authenticator, i) => {
    insertAuthenticator(copy(authenticator), `initial.authenticators[${i}]`)
  })
  initial.sessionRecords?.forEach((record, i) => insertSessionRecord(copy(record), `initial.sessionRecords[${i}]`))
  initial.authFactors?.forEach((factor, i) => insertAuthFactor(copy(factor), `initial.authFactors[${i}]`))
  initial.passwordHashes?.forEach(({ userId, hash }, i) => {
    storePasswordHash(userId, hash, `initial.passwordHashes[${i}]`)
  })

  return {
    createUser(user) {
      const record: Fields = copy(user)
      record.id = crypto.randomUUID()
      return copyUser(insertUser(record, "createUser()"))
    },

    createUserWithAccount(user, account) {
      const where = "createUserWithAccount()"
      const record: Fields = copy(user)
      record.id = crypto.randomUUID()
      // Every check of both records runs before either is stored: both, or neither.
      const linked = checkAccount({ ...copy(account), userId: record.id }, where)
      if (accounts.has(compositeKey(linked.provider, linked.providerAccountId))) throw new Error(`MemoryAdapter: ${where}: this ${linked.provider} account is already linked`)
      const created = insertUser(record, where)
      insertAccount(linked, where)
      return copyUser(created)
    },

    getUser(id) {
      return copyUserOrNull(users.get(id))
    },

    getUserByEmail(email) {
      const id = userIdsByEmail.get(email)
      return id === undefined ? null : copyUserOrNull(users.get(id))
    },

    getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(compositeKey(provider, providerAccountId))
      return account === undefined ? null : copyUserOrNull(users.get(account.userId))
    },

    updateUser(patch) {
      const where = "updateUser()"
      const current = users.get(patch.id)
      if (current === undefined) throw new Error(`MemoryAdapter: ${where}: no user has this id`)
      const next = checkUser({ ...current, ...definedFields(copy(patch)) }, where)
      const [before, after] = [emailKey(current), emailKey(next)]
      if (after !== before) {
        if (after !== undefined && userIdsByEmail.has(after)) throw new Error(`MemoryAdapter: ${where}: another user has this email`)
        if (before !== undefined) userIdsByEmail.delete(before)
        if (after !== undefined) userIdsByEmail.set(after, next.id)
      }
      users.set(next.id, next)
      return copyUser(next)
    },

    deleteUser(userId) {
      const user = users.get(userId)
      if (user === undefined) return null
      users.delete(userId)
      const email = emailKey(user)
      if (email !== undefined) userIdsByEmail.delete(email)
      // A user has few accounts and sessions and is rarely deleted: a scan beats keeping a
      // per-user index in step on every sign-in.
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key)
      for (const [token, session] of sessions) if (session.userId === userId) sessions.delete(token)
      for (const [id, authenticator] of authenticators) if (authenticator.userId === userId) authenticators.delete(id)
      for (const [id, record] of sessionRecords) if (record.userId === userId) sessionRecords.delete(id)
      for (const [id, factor] of authFactors) if (factor.userId === userId) authFactors.delete(id)
      passwordHashes.delete(userId)
      // Removed records are handed over as they are: the store no longer holds them.
      return user
    },

    linkAccount(account) {
      return copy(insertAccount(copy(account), "linkAccount()"))
    },

    unlinkAccount({ provider, providerAccountId }) {
      const key = compositeKey(provider, providerAccountId)
      const account = accounts.get(key)
      accounts.delete(key)
      return account
    },

    getAccount(providerAccountId, provider) {
      return copyOrNull(accounts.get(compositeKey(provider, providerAccountId)))
    },

    listAccountsByUserId(userId) {
      // Scanned like deleteUser's cascade: read before a passkey is deleted and by getAccessToken.
      return [...accounts.values()].filter((account) => account.userId === userId).map(copy)
    },

    updateAccount(patch) {
      const account = accounts.get(compositeKey(patch.provider, patch.providerAccountId))
      if (account === undefined) return null
      // The key and owner of an account never change; every other field given is written, `undefined` clears it.
      const { provider: _provider, providerAccountId: _id, userId: _userId, ...fields } = copy(patch) as Fields
      const stored = account as Fields
      for (const [name, value] of Object.entries(fields)) {
        if (value === undefined) Reflect.deleteProperty(stored, name)
        else stored[name] = value
      }
      return copy(account)
    },

    withAccountLock<T>(key: AdapterAccountKey, critical: () => Promise<T>): Promise<T> {
      // Critical sections of one account run one after the other, in the order they asked.
      const id = compositeKey(key.provider, key.providerAccountId)
      const previous = accountLocks.get(id) ?? Promise.resolve()
      const run = previous.then(critical)
      const settled = run.then(
        () => undefined,
        () => undefined,
      )
      accountLocks.set(id, settled)
      void settled.then(() => {
        if (accountLocks.get(id) === settled) accountLocks.delete(id)
      })
      return run
    },

    createSession(session) {
      return copy(insertSession(copy(session), "createSession()"))
    },

    getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      if (session === undefined) return null
      if (hasExpired(session.expires)) {
        sessions.delete(sessionToken)
        return null
      }
      // Always there: deleteUser takes the user's sessions with it.
      const user = users.get(session.userId)
      return user === undefined ? null : { session: copy(session), user: copyUser(user) }
    },

    updateSession(patch) {
      const where = "updateSession()"
      const current = sessions.get(patch.sessionToken)
      if (current === undefined) return null
      // An expired session is gone, even if this update would extend it.
      if (hasExpired(current.expires)) {
        sessions.delete(patch.sessionToken)
        return null
      }
      const next = checkSession({ ...current, ...definedFields(copy(patch)) }, where)
      requireUser(next.userId, where)
      sessions.set(next.sessionToken, next)
      return copy(next)
    },

    deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      sessions.delete(sessionToken)
      return session ?? null
    },

    createVerificationToken(token) {
      return copy(insertVerificationToken(copy(token), "createVerificationToken()"))
    },

    useVerificationToken({ identifier, token }) {
      const key = compositeKey(identifier, token)
      const found = verificationTokens.get(key)
      if (found === undefined) return null
      verificationTokens.delete(key)
      return hasExpired(found.expires) ? null : found
    },

    deleteVerificationTokens(identifier) {
      let deleted = 0
      for (const [key, token] of verificationTokens) {
        if (token.identifier !== identifier) continue
        verificationTokens.delete(key)
        deleted++
      }
      return deleted
    },

    createAuthenticator(authenticator) {
      return copy(insertAuthenticator(copy(authenticator), "createAuthenticator()"))
    },

    getAuthenticator(credentialID) {
      return copyOrNull(authenticators.get(credentialID))
    },

    listAuthenticatorsByUserId(userId) {
      // Scanned like deleteUser's cascade: read once per passkey sign-in, a user has a handful.
      return [...authenticators.values()].filter((authenticator) => authenticator.userId === userId).map(copy)
    },

    updateAuthenticatorCounter(credentialID, newCounter) {
      const where = "updateAuthenticatorCounter()"
      const current = authenticators.get(credentialID)
      if (current === undefined) throw new Error(`MemoryAdapter: ${where}: no credential has this credentialID`)
      const next = checkAuthenticator({ ...current, counter: newCounter }, where)
      authenticators.set(credentialID, next)
      return copy(next)
    },

    updateAuthenticator({ credentialID, name, lastUsedAt }) {
      const current = authenticators.get(credentialID)
      if (current === undefined) return null
      const next = checkAuthenticator(copy({ ...current, ...(name !== undefined && { name }), ...(lastUsedAt !== undefined && { lastUsedAt }) }), "updateAuthenticator()")
      authenticators.set(credentialID, next)
      return copy(next)
    },

    deleteAuthenticator(credentialID) {
      const current = authenticators.get(credentialID)
      if (current === undefined) return null
      authenticators.delete(credentialID)
      return copy(current)
    },

    createSessionRecord(record) {
      sweepSessionRecords()
      return copy(insertSessionRecord(copy(record), "createSessionRecord()"))
    },

    getSessionRecord(id) {
      const record = sessionRecords.get(id)
      return record === undefined ? null : copy(record)
    },

    listSessionRecords(filter) {
      const matches = (record: AdapterSessionRecord): boolean =>
        "userId" in filter ? record.userId === filter.userId : record.provider === filter.provider && record.providerSid === filter.providerSid
      return [...sessionRecords.values()].filter(matches).map(copy)
    },

    updateSessionRecord(patch) {
      const record = sessionRecords.get(patch.id)
      if (record === undefined) return null
      for (const name of ["lastSeenAt", "expires"] as const) {
        const value = patch[name]
        if (value !== undefined) record[name] = requireDateValue(value, name, "updateSessionRecord()")
      }
      if (patch.revokedAt !== undefined) record.revokedAt = patch.revokedAt === null ? null : requireDateValue(patch.revokedAt, "revokedAt", "updateSessionRecord()")
      // A database session's assurance: written when given, never cleared by a patch that leaves it out.
      for (const name of ["signedInAt", "authTime"] as const) {
        const value = patch[name]
        if (value != null) record[name] = requireDateValue(value, name, "updateSessionRecord()")
      }
      if (patch.authMethods != null) record.authMethods = requireStrings(patch.authMethods, "authMethods", "updateSessionRecord()")
      return copy(record)
    },

    useOnce(key, expires) {
      const until = requireDateValue(expires, "expires", "useOnce()")
      const kept = usedKeys.get(key)
      if (kept !== undefined && !hasExpired(kept, Date.now())) return false
      sweepUsedKeys()
      usedKeys.set(key, new Date(until.getTime()))
      return true
    },

    getPasswordHash(userId) {
      return passwordHashes.get(userId) ?? null
    },

    setPasswordHash(userId, hash) {
      storePasswordHash(userId, hash, "setPasswordHash()")
    },

    createAuthFactor(factor) {
      return copy(insertAuthFactor(copy(factor), "createAuthFactor()"))
    },

    listAuthFactors(userId) {
      // Scanned like deleteUser's cascade: read once per sign-in of a user with `mfa`, a user has a dozen.
      return [...authFactors.values()].filter((factor) => factor.userId === userId).map(copy)
    },

    updateAuthFactor(patch) {
      const factor = authFactors.get(patch.id)
      if (factor === undefined) return null
      for (const name of ["confirmedAt", "lockedAt"] as const) {
        const value = patch[name]
        if (value !== undefined) factor[name] = value === null ? null : requireDateValue(value, name, "updateAuthFactor()")
      }
      return copy(factor)
    },

    deleteAuthFactor(id) {
      return authFactors.delete(id)
    },

    // Each of the atomic methods below reads and writes with no await between: one caller at a time.
    useAuthFactorStep(id, step) {
      requireStep(step, "useAuthFactorStep()")
      const factor = authFactors.get(id)
      if (factor === undefined || (factor.lastUsedStep != null && step <= factor.lastUsedStep)) return false
      factor.lastUsedStep = step
      factor.failures = 0
      return true
    },

    countAuthFactorFailure(id) {
      const factor = authFactors.get(id)
      if (factor === undefined) return 0
      factor.failures = (factor.failures ?? 0) + 1
      return factor.failures
    },

    replaceAuthFactors(userId, type, factors) {
      const where = "replaceAuthFactors()"
      // Every factor is checked before any is removed or stored: all, or nothing.
      const replaced = new Set([...authFactors.values()].filter((factor) => factor.userId === userId && factor.type === type).map((factor) => factor.id))
      const incoming = factors.map((factor) => checkAuthFactor(copy(factor), where))
      const ids = new Set<string>()
      for (const factor of incoming) {
        if (factor.userId !== userId || factor.type !== type) throw new Error(`MemoryAdapter: ${where}: every factor must be of user ${userId} and type ${type}`)
        if (ids.has(factor.id) || (authFactors.has(factor.id) && !replaced.has(factor.id))) throw new Error(`MemoryAdapter: ${where}: a factor with this id exists`)
        ids.add(factor.id)
      }
      for (const id of replaced) authFactors.delete(id)
      for (const factor of incoming) authFactors.set(factor.id, factor)
    },
  }
}

/** Two strings as one Map key; the length prefix keeps `("a:b", "c")` and `("a", "b:c")` apart. */
function compositeKey(first: string, second: string): string {
  return `${first.length}:${first}:${second}`
}

function hasExpired(expires: Date, now = Date.now()): boolean {
  return expires.getTime() <= now
}

/**
 * Returns a function that drops the expired records once the map has doubled since it last
 * did: amortised O(1) per insert, and records nobody reads again cannot pile up for ever.
 */
function sweeper<T>(records: Map<string, T>, expiresOf: (record: T) => Date): () => void {
  let threshold = SWEEP_FLOOR
  return () => {
    if (records.size < threshold) return
    const now = Date.now()
    for (const [key, record] of records) if (hasExpired(expiresOf(record), now)) records.delete(key)
    threshold = Math.max(SWEEP_FLOOR, records.size * 2)
  }
}

/**
 * A deep copy of plain data: Dates, arrays and plain objects are rebuilt (several times faster
 * than `structuredClone` on records this small); other objects go through `structuredClone`.
 */
function copy<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value
  if (value instanceof Date) return new Date(value.getTime()) as T
  if (Array.isArray(value)) return value.map(copy) as T
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value)
  const result: Fields = {}
  for (const key of Object.keys(value)) {
    const inner = copy((value as Fields)[key])
    // Assigning "__proto__" would replace the copy's prototype; define it as a plain field.
    if (key === "__proto__") Object.defineProperty(result, key, { value: inner, enumerable: true, writable: true, configurable: true })
    else result[key] = inner
  }
  return result as T
}

function copyOrNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : copy(value)
}

/** A user as the contract types it; see {@link StoredUser} for the one way it may differ. */
function copyUser(user: StoredUser): AdapterUser {
  return copy(user)
}

function copyUserOrNull(user: StoredUser | undefined): AdapterUser | null {
  return user === undefined ? null : copyUser(user)
}

/** What `getUserByEmail` finds the user by: nothing when the provider shared no email. */
function emailKey(user: StoredUser): string | undefined {
  return user.email === null || user.email === "" ? undefined : user.email
}

/** An update's fields without those left `undefined`, which mean "unchanged", not "erase". */
function definedFields(patch: Fields): Fields {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
}

function field(record: object, name: string): unknown {
  return (record as Fields)[name]
}

function requireString(record: object, name: string, where: string): void {
  if (typeof field(record, name) !== "string") throw new TypeError(`MemoryAdapter: ${where}: ${name} must be a string`)
}

function requireDate(record: object, name: string, where: string): void {
  const value = field(record, name)
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new TypeError(`MemoryAdapter: ${where}: ${name} must be a valid Date`)
  }
}

// The checks below run on records the store owns, before they are indexed or replace another.

function checkUser(record: object, where: string): StoredUser {
  const fields = record as Fields
  fields.email ??= null
  fields.emailVerified ??= null
  requireString(record, "id", where)
  if (fields.email !== null) requireString(record, "email", where)
  if (fields.emailVerified !== null) requireDate(record, "emailVerified", where)
  return record as StoredUser
}

function checkAccount(record: object, where: string): AdapterAccount {
  for (const name of ["userId", "provider", "providerAccountId"]) requireString(record, name, where)
  return record as AdapterAccount
}

function checkSession(record: object, where: string): AdapterSession {
  for (const name of ["sessionToken", "userId"]) requireString(record, name, where)
  requireDate(record, "expires", where)
  return record as AdapterSession
}

function checkAuthenticator(record: object, where: string): AdapterAuthenticator {
  for (const name of ["credentialID", "userId", "providerAccountId", "credentialPublicKey", "credentialDeviceType"]) {
    requireString(record, name, where)
  }
  const fields = record as Fields
  if (!Number.isSafeInteger(fields.counter) || (fields.counter as number) < 0) {
    throw new TypeError(`MemoryAdapter: ${where}: counter must be a non-negative integer`)
  }
  if (typeof fields.credentialBackedUp !== "boolean") throw new TypeError(`MemoryAdapter: ${where}: credentialBackedUp must be a boolean`)
  fields.transports ??= null
  if (fields.transports !== null) requireString(record, "transports", where)
  return record as AdapterAuthenticator
}

function checkSessionRecord(record: object, where: string): AdapterSessionRecord {
  for (const name of ["id", "userId"]) requireString(record, name, where)
  for (const name of ["createdAt", "lastSeenAt", "expires"]) requireDate(record, name, where)
  const fields = record as Fields
  for (const name of ["sessionToken", "provider", "providerSid", "userAgent", "clientAddress", "revokedAt", "signedInAt", "authTime", "authMethods"]) fields[name] ??= null
  for (const name of ["signedInAt", "authTime"]) if (fields[name] !== null) requireDate(record, name, where)
  if (fields.authMethods !== null) requireStrings(fields.authMethods, "authMethods", where)
  return record as AdapterSessionRecord
}

function requireStrings(value: unknown, name: string, where: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new TypeError(`MemoryAdapter: ${where}: ${name} must be an array of strings`)
  return [...value]
}

function checkAuthFactor(record: object, where: string): AdapterAuthFactor {
  for (const name of ["id", "userId", "type", "secret"]) requireString(record, name, where)
  requireDate(record, "createdAt", where)
  const fields = record as Fields
  for (const name of ["confirmedAt", "lockedAt"]) {
    fields[name] ??= null
    if (fields[name] !== null) requireDate(record, name, where)
  }
  fields.lastUsedStep ??= null
  if (fields.lastUsedStep !== null) requireStep(fields.lastUsedStep, where)
  fields.failures ??= 0
  if (!Number.isSafeInteger(fields.failures) || (fields.failures as number) < 0) throw new TypeError(`MemoryAdapter: ${where}: failures must be a non-negative integer`)
  return record as AdapterAuthFactor
}

/** A TOTP time step: what `useAuthFactorStep` compares, so never a fraction, a negative or a string. */
function requireStep(step: unknown, where: string): asserts step is number {
  if (!Number.isSafeInteger(step) || (step as number) < 0) throw new TypeError(`MemoryAdapter: ${where}: step must be a non-negative integer`)
}

function requireDateValue(value: unknown, name: string, where: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError(`MemoryAdapter: ${where}: ${name} must be a valid Date`)
  return new Date(value.getTime())
}

function checkVerificationToken(record: object, where: string): VerificationToken {
  for (const name of ["identifier", "token"]) requireString(record, name, where)
  requireDate(record, "expires", where)
  return record as VerificationToken
}
