import assert from "node:assert/strict"
import type {
  AdapterAccount,
  AdapterAuthFactor,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterUser,
  StrictAdapter,
  VerificationToken,
} from "@portcullis/core/adapters"
import { describe, expect, it } from "vitest"
import { cases, runAdapterTests, type AdapterTestDb, type AdapterTestGroup } from "../src/index.js"

interface Store {
  users: AdapterUser[]
  accounts: AdapterAccount[]
  sessions: AdapterSession[]
  tokens: VerificationToken[]
  authenticators: AdapterAuthenticator[]
  records: AdapterSessionRecord[]
  /** useOnce's keys and until when each is kept. */
  usedKeys: Map<string, Date>
  factors: AdapterAuthFactor[]
  /** Password hashes by user id. */
  passwords: Map<string, string>
}

type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/** `Omit<AdapterUser, "id">` keeps only the index signature, so the new user is typed here. */
const withId = (user: Omit<AdapterUser, "id">, id: string): AdapterUser => ({ ...user, id }) as AdapterUser

const emptyStore = (): Store => ({ users: [], accounts: [], sessions: [], tokens: [], authenticators: [], records: [], usedKeys: new Map(), factors: [], passwords: new Map() })
const copy = <T>(value: T): T => structuredClone(value)
const expired = (date: Date): boolean => date.getTime() <= Date.now()
const sameAccount = (a: AccountKey, b: AccountKey): boolean =>
  a.provider === b.provider && a.providerAccountId === b.providerAccountId

function remove<T>(list: T[], item: T | undefined): T | undefined {
  if (item !== undefined) list.splice(list.indexOf(item), 1)
  return item
}

/** A deliberately plain, correct adapter: arrays and structuredClone, nothing clever. */
function referenceAdapter(store: Store): Required<StrictAdapter> {
  const locks = new Map<string, Promise<void>>()
  const findUser = (id: string) => store.users.find((user) => user.id === id)
  const findAccount = (key: AccountKey) => store.accounts.find((account) => sameAccount(account, key))
  const findSession = (token: string) => store.sessions.find((session) => session.sessionToken === token)
  const findAuthenticator = (id: string) => store.authenticators.find((authenticator) => authenticator.credentialID === id)
  const findRecord = (id: string) => store.records.find((record) => record.id === id)
  const findFactor = (id: string) => store.factors.find((factor) => factor.id === id)
  const emailTaken = (email: string | null, by?: string) =>
    email !== null && store.users.some((user) => user.email === email && user.id !== by)
  return {
    createUser(user) {
      const created = withId(copy(user), crypto.randomUUID())
      if (emailTaken(created.email)) throw new Error("email taken")
      store.users.push(created)
      return copy(created)
    },
    createUserWithAccount(user, account) {
      const created = withId(copy(user), crypto.randomUUID())
      if (emailTaken(created.email)) throw new Error("email taken")
      if (findAccount(account)) throw new Error("account linked")
      store.users.push(created)
      store.accounts.push({ ...copy(account), userId: created.id })
      return copy(created)
    },
    getUser: (id) => copy(findUser(id) ?? null),
    getUserByEmail: (email) => copy(store.users.find((user) => user.email === email) ?? null),
    getUserByAccount(key) {
      const account = findAccount(key)
      return copy((account && findUser(account.userId)) ?? null)
    },
    updateUser(patch) {
      const user = findUser(patch.id)
      if (!user) throw new Error("no such user")
      if (patch.email !== undefined && emailTaken(patch.email, user.id)) throw new Error("email taken")
      return copy(Object.assign(user, copy(patch)))
    },
    deleteUser(id) {
      const user = remove(store.users, findUser(id))
      store.accounts = store.accounts.filter((account) => account.userId !== id)
      store.sessions = store.sessions.filter((session) => session.userId !== id)
      store.authenticators = store.authenticators.filter((authenticator) => authenticator.userId !== id)
      store.records = store.records.filter((record) => record.userId !== id)
      store.factors = store.factors.filter((factor) => factor.userId !== id)
      store.passwords.delete(id)
      return copy(user ?? null)
    },
    linkAccount(account) {
      if (findAccount(account)) throw new Error("account linked")
      store.accounts.push(copy(account))
      return copy(account)
    },
    unlinkAccount: (key) => copy(remove(store.accounts, findAccount(key))),
    listAccountsByUserId: (userId) => copy(store.accounts.filter((account) => account.userId === userId)),
    getAccount: (providerAccountId, provider) => copy(findAccount({ provider, providerAccountId }) ?? null),
    updateAccount({ provider, providerAccountId, ...fields }) {
      const account = findAccount({ provider, providerAccountId })
      if (!account) return null
      for (const [name, value] of Object.entries(copy(fields))) {
        if (value === undefined) Reflect.deleteProperty(account, name)
        else account[name] = value
      }
      return copy(account)
    },
    async withAccountLock(key, critical) {
      const id = `${key.provider} ${key.providerAccountId}`
      while (locks.has(id)) await locks.get(id)
      const run = critical()
      const settled = run.then(
        () => undefined,
        () => undefined,
      )
      locks.set(id, settled)
      try {
        return await run
      } finally {
        locks.delete(id)
      }
    },
    createSession(session) {
      if (findSession(session.sessionToken)) throw new Error("token taken")
      store.sessions.push(copy(session))
      return copy(session)
    },
    getSessionAndUser(token) {
      const session = findSession(token)
      if (!session) return null
      if (expired(session.expires)) {
        remove(store.sessions, session)
        return null
      }
      const user = findUser(session.userId)
      return user ? copy({ session, user }) : null
    },
    updateSession(patch) {
      const session = findSession(patch.sessionToken)
      return session ? copy(Object.assign(session, copy(patch))) : null
    },
    deleteSession: (token) => copy(remove(store.sessions, findSession(token)) ?? null),
    createVerificationToken(token) {
      store.tokens.push(copy(token))
      return copy(token)
    },
    useVerificationToken({ identifier, token }) {
      const found = store.tokens.find((stored) => stored.identifier === identifier && stored.token === token)
      remove(store.tokens, found)
      return found && !expired(found.expires) ? found : null
    },
    deleteVerificationTokens(identifier) {
      const gone = store.tokens.filter((stored) => stored.identifier === identifier)
      for (const token of gone) remove(store.tokens, token)
      return gone.length
    },
    createAuthenticator(authenticator) {
      if (findAuthenticator(authenticator.credentialID)) throw new Error("credential taken")
      store.authenticators.push(copy(authenticator))
      return copy(authenticator)
    },
    getAuthenticator: (id) => copy(findAuthenticator(id) ?? null),
    listAuthenticatorsByUserId: (userId) => copy(store.authenticators.filter((authenticator) => authenticator.userId === userId)),
    updateAuthenticatorCounter(id, counter) {
      const authenticator = findAuthenticator(id)
      if (!authenticator) throw new Error("no such authenticator")
      authenticator.counter = counter
      return copy(authenticator)
    },
    updateAuthenticator({ credentialID, ...fields }) {
      const authenticator = findAuthenticator(credentialID)
      if (!authenticator) return null
      if (fields.name !== undefined) authenticator.name = fields.name
      if (fields.lastUsedAt !== undefined) authenticator.lastUsedAt = fields.lastUsedAt
      return copy(authenticator)
    },
    deleteAuthenticator(credentialID) {
      const authenticator = findAuthenticator(credentialID)
      if (!authenticator) return null
      remove(store.authenticators, authenticator)
      return copy(authenticator)
    },
    createSessionRecord(record) {
      // A record may belong to a user the store does not keep (a credentials sign-in).
      if (findRecord(record.id)) throw new Error("record id taken")
      const stored = { sessionToken: null, provider: null, providerSid: null, userAgent: null, clientAddress: null, revokedAt: null, signedInAt: null, authTime: null, authMethods: null, ...copy(record) }
      store.records.push(stored)
      return copy(stored)
    },
    getSessionRecord: (id) => copy(findRecord(id) ?? null),
    listSessionRecords: (filter) =>
      copy(store.records.filter((record) => ("userId" in filter ? record.userId === filter.userId : record.provider === filter.provider && record.providerSid === filter.providerSid))),
    updateSessionRecord({ id, lastSeenAt, expires, revokedAt, signedInAt, authTime, authMethods }) {
      const record = findRecord(id)
      if (!record) return null
      if (lastSeenAt !== undefined) record.lastSeenAt = copy(lastSeenAt)
      if (expires !== undefined) record.expires = copy(expires)
      if (revokedAt !== undefined) record.revokedAt = copy(revokedAt)
      if (signedInAt != null) record.signedInAt = copy(signedInAt)
      if (authTime != null) record.authTime = copy(authTime)
      if (authMethods != null) record.authMethods = copy(authMethods)
      return copy(record)
    },
    useOnce(key, until) {
      const kept = store.usedKeys.get(key)
      if (kept && !expired(kept)) return false
      store.usedKeys.set(key, copy(until))
      return true
    },
    createAuthFactor(factor) {
      // A factor may belong to a user the store does not keep, as a session record may.
      if (findFactor(factor.id)) throw new Error("factor id taken")
      const stored = { confirmedAt: null, lastUsedStep: null, failures: 0, lockedAt: null, ...copy(factor) }
      store.factors.push(stored)
      return copy(stored)
    },
    listAuthFactors: (userId) => copy(store.factors.filter((factor) => factor.userId === userId)),
    updateAuthFactor({ id, confirmedAt, lockedAt }) {
      const factor = findFactor(id)
      if (!factor) return null
      if (confirmedAt !== undefined) factor.confirmedAt = copy(confirmedAt)
      if (lockedAt !== undefined) factor.lockedAt = copy(lockedAt)
      return copy(factor)
    },
    deleteAuthFactor: (id) => remove(store.factors, findFactor(id)) !== undefined,
    useAuthFactorStep(id, step) {
      if (!Number.isSafeInteger(step) || step < 0) throw new TypeError("step must be a non-negative integer")
      const factor = findFactor(id)
      if (!factor || (factor.lastUsedStep != null && step <= factor.lastUsedStep)) return false
      factor.lastUsedStep = step
      factor.failures = 0
      return true
    },
    countAuthFactorFailure(id) {
      const factor = findFactor(id)
      if (!factor) return 0
      factor.failures = (factor.failures ?? 0) + 1
      return factor.failures
    },
    replaceAuthFactors(userId, type, factors) {
      const kept = store.factors.filter((factor) => factor.userId !== userId || factor.type !== type)
      for (const factor of factors) {
        if (factor.userId !== userId || factor.type !== type) throw new Error("a factor of another user or type")
        if ([...kept, ...factors].filter((other) => other.id === factor.id).length > 1) throw new Error("factor id taken")
      }
      store.factors = [...kept, ...factors.map((factor) => ({ confirmedAt: null, lastUsedStep: null, failures: 0, lockedAt: null, ...copy(factor) }))]
    },
    getPasswordHash: (userId) => store.passwords.get(userId) ?? null,
    setPasswordHash(userId, hash) {
      if (!findUser(userId)) throw new Error("no such user")
      store.passwords.set(userId, hash)
    },
  }
}

function storeAccess(current: () => Store): AdapterTestDb {
  return {
    user: (id) => current().users.find((user) => user.id === id),
    account: (key) => current().accounts.find((account) => sameAccount(account, key)),
    session: (token) => current().sessions.find((session) => session.sessionToken === token),
    verificationToken: ({ identifier, token }) =>
      current().tokens.find((stored) => stored.identifier === identifier && stored.token === token),
    authenticator: (id) => current().authenticators.find((stored) => stored.credentialID === id),
  }
}

interface Defect {
  defect: string
  /** Method overrides on top of the reference adapter. */
  breaks(store: Store, correct: Required<StrictAdapter>): StrictAdapter
  /** Cases that must fail against it. */
  caughtBy: string[]
  /**
   * The only groups whose cases call what the defect breaks, when that is one group: the others
   * (the lock cases wait for real) then do not run against it for nothing.
   */
  only?: AdapterTestGroup[]
}

const defects: Defect[] = [
  {
    defect: "withAccountLock runs every section at once",
    breaks: () => ({ withAccountLock: (_key, critical) => critical() }),
    caughtBy: ["withAccountLock runs one critical section of an account at a time, and answers what it answers"],
  },
  {
    defect: "withAccountLock holds one lock for every account",
    breaks: (_store, correct) => ({
      withAccountLock: (_key, critical) => correct.withAccountLock({ provider: "all", providerAccountId: "all" }, critical),
    }),
    caughtBy: ["withAccountLock does not hold other accounts back"],
  },
  {
    defect: "withAccountLock never lets go after a rejection",
    breaks: (_store, correct) => {
      const stuck = new Set<string>()
      return {
        async withAccountLock(key, critical) {
          if (stuck.has(key.providerAccountId)) await new Promise(() => undefined)
          try {
            return await correct.withAccountLock(key, critical)
          } catch (error) {
            stuck.add(key.providerAccountId)
            throw error
          }
        },
      }
    },
    caughtBy: ["withAccountLock lets go when the critical section rejects"],
  },
  {
    defect: "updateAccount writes every account with that providerAccountId",
    breaks: (store, correct) => ({
      async updateAccount(patch) {
        for (const account of store.accounts.filter((candidate) => candidate.providerAccountId === patch.providerAccountId)) {
          await correct.updateAccount({ ...patch, provider: account.provider })
        }
        return correct.getAccount(patch.providerAccountId, patch.provider)
      },
    }),
    caughtBy: ["updateAccount changes that account only, and returns null for an unknown one"],
  },
  {
    defect: "withAccountLock locks the account row, which getAccount then waits for (a row lock)",
    breaks: (_store, correct) => {
      let held: Promise<unknown> | undefined
      return {
        withAccountLock(key, critical) {
          const run = correct.withAccountLock(key, critical)
          held = run.catch(() => undefined)
          return run
        },
        async getAccount(providerAccountId, provider) {
          if (held !== undefined) await held
          return correct.getAccount(providerAccountId, provider)
        },
      }
    },
    caughtBy: ["getAccount and updateAccount work inside withAccountLock"],
  },
  {
    defect: "updateAccount ignores a field given as undefined",
    breaks: (_store, correct) => ({
      updateAccount: (patch) => correct.updateAccount(Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as typeof patch),
    }),
    caughtBy: ["updateAccount clears a field given as undefined"],
  },
  {
    defect: "updateAccount returns the account as it was before",
    breaks: (_store, correct) => ({
      async updateAccount(patch) {
        const before = await correct.getAccount(patch.providerAccountId, patch.provider)
        await correct.updateAccount(patch)
        return before
      },
    }),
    caughtBy: ["updateAccount writes the fields given and keeps the others"],
  },
  {
    defect: "getUser returns the stored user, not a copy",
    breaks: (store) => ({ getUser: (id) => store.users.find((user) => user.id === id) ?? null }),
    caughtBy: ["changing a returned user does not change the store"],
  },
  {
    defect: "createUser copies shallowly, sharing emailVerified with the caller",
    breaks: (store) => ({
      createUser(user) {
        const created = withId(user, crypto.randomUUID())
        store.users.push(created)
        return copy(created)
      },
    }),
    caughtBy: ["changing a user passed in does not change the store"],
  },
  {
    defect: "createUser drops the name and image",
    breaks: (_store, correct) => ({
      createUser: (user) => correct.createUser({ email: user.email, emailVerified: user.emailVerified }),
    }),
    caughtBy: ["createUser returns the user with a new id and the given fields"],
  },
  {
    defect: "getUserByEmail answers with any user",
    breaks: (store) => ({ getUserByEmail: () => copy(store.users[0] ?? null) }),
    caughtBy: ["getUserByEmail returns the user by email, and null for an unknown email"],
  },
  {
    defect: "getUser answers undefined for an unknown id",
    breaks: (store) => ({ getUser: (id) => copy(store.users.find((user) => user.id === id)) as AdapterUser }),
    caughtBy: ["getUser returns the user by id, and null for an unknown id"],
  },
  {
    defect: "getUser returns dates as strings",
    breaks: (_store, correct) => ({
      getUser: async (id) => JSON.parse(JSON.stringify(await correct.getUser(id))) as AdapterUser | null,
    }),
    caughtBy: ["getUser returns the user by id, and null for an unknown id", "emailVerified round-trips as a Date, or null"],
  },
  {
    defect: "updateUser returns the record as it was before",
    breaks: (_store, correct) => ({
      async updateUser(patch) {
        const before = await correct.getUser(patch.id)
        await correct.updateUser(patch)
        assert.ok(before)
        return before
      },
    }),
    caughtBy: ["updateUser returns the updated user, keeping the fields it is not given"],
  },
  {
    defect: "updateUser ignores a new email",
    breaks: (_store, correct) => ({ updateUser: ({ email: _email, ...patch }) => correct.updateUser(patch) }),
    caughtBy: ["updateUser moves the user to a new email"],
  },
  {
    defect: "deleteUser does nothing",
    breaks: () => ({ deleteUser: () => null }),
    caughtBy: ["deleteUser removes the user"],
  },
  {
    defect: "deleteUser throws for an unknown id",
    breaks: (store, correct) => ({
      deleteUser(id) {
        if (!store.users.some((user) => user.id === id)) throw new Error("no such user")
        return correct.deleteUser(id)
      },
    }),
    caughtBy: ["deleteUser of an unknown id returns nothing"],
  },
  {
    defect: "deleteUser does not cascade",
    breaks: (store) => ({ deleteUser: (id) => copy(remove(store.users, store.users.find((user) => user.id === id)) ?? null) }),
    caughtBy: ["deleteUser deletes the user's accounts", "deleteUser deletes the user's sessions"],
  },
  {
    defect: "deleteUser deletes every session",
    breaks: (store, correct) => ({
      deleteUser(id) {
        store.sessions = []
        return correct.deleteUser(id)
      },
    }),
    caughtBy: ["deleteUser leaves other users' accounts and sessions alone"],
  },
  {
    defect: "getAccount takes the provider first",
    breaks: (_store, correct) => ({ getAccount: (provider, providerAccountId) => correct.getAccount(providerAccountId, provider) }),
    caughtBy: [
      "linkAccount stores the account and getAccount returns it",
      "getAccount takes the providerAccountId first, and returns null for an unknown account",
    ],
  },
  {
    defect: "getUserByAccount answers with the first user for an unknown account",
    breaks: (store, correct) => ({
      getUserByAccount: async (key) => (await correct.getUserByAccount(key)) ?? copy(store.users[0] ?? null),
    }),
    caughtBy: ["getUserByAccount returns the linked user, and null for an unknown account"],
  },
  {
    defect: "accounts are found by providerAccountId alone",
    breaks: (store) => ({
      getUserByAccount({ providerAccountId }) {
        const account = store.accounts.find((stored) => stored.providerAccountId === providerAccountId)
        return copy(store.users.find((user) => user.id === account?.userId) ?? null)
      },
    }),
    caughtBy: ["an account is found by provider and providerAccountId together"],
  },
  {
    defect: "linkAccount replaces the user's other accounts",
    breaks: (store, correct) => ({
      linkAccount(account) {
        store.accounts = store.accounts.filter((stored) => stored.userId !== account.userId)
        return correct.linkAccount(account)
      },
    }),
    caughtBy: ["a user can link accounts at several providers"],
  },
  {
    defect: "linkAccount keeps the object passed in",
    breaks: (store) => ({
      linkAccount(account) {
        store.accounts.push(account)
        return copy(account)
      },
    }),
    caughtBy: ["changing an account passed in or returned does not change the store"],
  },
  {
    defect: "linkAccount links the same provider account twice",
    breaks: (store) => ({
      linkAccount(account) {
        store.accounts.unshift(copy(account))
        return copy(account)
      },
    }),
    caughtBy: [
      "linkAccount throws for an account already linked to the same user",
      "linkAccount throws for an account already linked to another user",
    ],
  },
  {
    defect: "unlinkAccount does nothing",
    breaks: () => ({ unlinkAccount: () => undefined }),
    caughtBy: ["unlinkAccount removes the link and keeps the user"],
  },
  {
    defect: "unlinkAccount throws for an unknown account",
    breaks: (store, correct) => ({
      unlinkAccount(key) {
        if (!store.accounts.some((account) => sameAccount(account, key))) throw new Error("no such account")
        return correct.unlinkAccount(key)
      },
    }),
    caughtBy: ["unlinkAccount of an unknown account returns nothing"],
  },
  {
    defect: "createUserWithAccount creates the user and links nothing",
    breaks: (_store, correct) => ({ createUserWithAccount: (user) => correct.createUser(user) }),
    caughtBy: ["createUserWithAccount stores the user and links the account to it"],
  },
  {
    defect: "createUserWithAccount links the account before finding the email taken",
    breaks: (_store, correct) => ({
      createUserWithAccount(user, account) {
        void correct.linkAccount(account)
        return correct.createUser(user)
      },
    }),
    caughtBy: ["createUserWithAccount writes neither when the email is taken"],
  },
  {
    defect: "createUserWithAccount keeps the user when linking fails (two writes, no transaction)",
    breaks: (_store, correct) => ({
      createUserWithAccount(user, account) {
        const created = correct.createUser(user) as AdapterUser
        correct.linkAccount({ ...account, userId: created.id })
        return created
      },
    }),
    caughtBy: ["createUserWithAccount writes neither when the account is linked already"],
  },
  {
    defect: "createUser allows a duplicate email",
    breaks: (store) => ({
      createUser(user) {
        const created = withId(copy(user), crypto.randomUUID())
        store.users.unshift(created)
        return copy(created)
      },
    }),
    caughtBy: ["createUser throws for an email another user has"],
  },
  {
    defect: "updateUser takes another user's email",
    breaks: (store) => ({
      updateUser(patch) {
        const user = store.users.find((stored) => stored.id === patch.id)
        assert.ok(user)
        return copy(Object.assign(user, copy(patch)))
      },
    }),
    caughtBy: ["updateUser throws for an email another user has"],
  },
  {
    defect: "createSession returns nothing",
    breaks: (_store, correct) => ({
      async createSession(session) {
        await correct.createSession(session)
        return undefined as unknown as AdapterSession
      },
    }),
    caughtBy: ["createSession returns the session, expires as a Date"],
  },
  {
    defect: "createSession reuses a session token",
    breaks: (store) => ({
      createSession(session) {
        store.sessions.unshift(copy(session))
        return copy(session)
      },
    }),
    caughtBy: ["createSession throws for a token that exists"],
  },
  {
    defect: "getSessionAndUser returns the session without its user",
    breaks: (store) => ({
      getSessionAndUser(token) {
        const session = store.sessions.find((stored) => stored.sessionToken === token)
        return session ? { session: copy(session), user: {} as AdapterUser } : null
      },
    }),
    caughtBy: ["getSessionAndUser returns the session and its user"],
  },
  {
    defect: "getSessionAndUser answers undefined for an unknown token",
    breaks: (_store, correct) => ({
      getSessionAndUser: async (token) => (await correct.getSessionAndUser(token)) ?? (undefined as unknown as null),
    }),
    caughtBy: ["getSessionAndUser returns null for an unknown token"],
  },
  {
    defect: "getSessionAndUser returns expired sessions",
    breaks: (store) => ({
      getSessionAndUser(token) {
        const session = store.sessions.find((stored) => stored.sessionToken === token)
        const user = store.users.find((stored) => stored.id === session?.userId)
        return session && user ? copy({ session, user }) : null
      },
    }),
    caughtBy: ["getSessionAndUser returns null for an expired session, and deletes it"],
  },
  {
    defect: "getSessionAndUser hides expired sessions but keeps them",
    breaks: (store, correct) => ({
      getSessionAndUser(token) {
        const session = store.sessions.find((stored) => stored.sessionToken === token)
        return session && expired(session.expires) ? null : correct.getSessionAndUser(token)
      },
    }),
    caughtBy: ["getSessionAndUser returns null for an expired session, and deletes it"],
  },
  {
    defect: "getSessionAndUser returns the stored session, not a copy",
    breaks: (store) => ({
      getSessionAndUser(token) {
        const session = store.sessions.find((stored) => stored.sessionToken === token)
        const user = store.users.find((stored) => stored.id === session?.userId)
        return session && user ? { session, user } : null
      },
    }),
    caughtBy: ["changing a session passed in or returned does not change the store"],
  },
  {
    defect: "updateSession ignores the new expiry",
    breaks: (_store, correct) => ({ updateSession: ({ sessionToken }) => correct.updateSession({ sessionToken }) }),
    caughtBy: ["updateSession moves the expiry and returns the session"],
  },
  {
    defect: "updateSession creates an unknown session",
    breaks: (store, correct) => ({
      updateSession(patch) {
        if (!store.sessions.some((session) => session.sessionToken === patch.sessionToken)) {
          store.sessions.push({ userId: store.users[0]?.id ?? "", expires: new Date(0), ...copy(patch) })
        }
        return correct.updateSession(patch)
      },
    }),
    caughtBy: ["updateSession and deleteSession of an unknown token return nothing and create nothing"],
  },
  {
    defect: "deleteSession does nothing",
    breaks: () => ({ deleteSession: () => null }),
    caughtBy: ["deleteSession removes the session and keeps the user"],
  },
  {
    defect: "createVerificationToken stores nothing",
    breaks: () => ({ createVerificationToken: (token) => copy(token) }),
    caughtBy: ["useVerificationToken returns the token created, expires as a Date"],
  },
  {
    defect: "deleteVerificationTokens deletes another identifier's tokens too",
    breaks: (store) => ({
      deleteVerificationTokens() {
        const count = store.tokens.length
        store.tokens.splice(0)
        return count
      },
    }),
    caughtBy: ["deleteVerificationTokens deletes every token of the identifier, expired ones too, and no other"],
  },
  {
    defect: "createVerificationToken keeps the object passed in",
    breaks: (store) => ({
      createVerificationToken(token) {
        store.tokens.push(token)
        return copy(token)
      },
    }),
    caughtBy: ["changing a verification token passed in or returned does not change the store"],
  },
  {
    defect: "createVerificationToken replaces the identifier's other tokens",
    breaks: (store, correct) => ({
      createVerificationToken(token) {
        store.tokens = store.tokens.filter((stored) => stored.identifier !== token.identifier)
        return correct.createVerificationToken(token)
      },
    }),
    caughtBy: ["tokens for one identifier are used independently"],
  },
  {
    defect: "useVerificationToken lets a token be used again",
    breaks: (store) => ({
      useVerificationToken: ({ identifier, token }) =>
        copy(store.tokens.find((stored) => stored.identifier === identifier && stored.token === token) ?? null),
    }),
    caughtBy: ["useVerificationToken returns a token once only"],
  },
  {
    defect: "useVerificationToken returns expired tokens",
    breaks: (store) => ({
      useVerificationToken({ identifier, token }) {
        const found = store.tokens.find((stored) => stored.identifier === identifier && stored.token === token)
        return copy(remove(store.tokens, found) ?? null)
      },
    }),
    caughtBy: ["useVerificationToken returns null for an expired token, and deletes it"],
  },
  {
    defect: "useVerificationToken hides expired tokens but keeps them",
    breaks: (store, correct) => ({
      useVerificationToken(params) {
        const found = store.tokens.find((stored) => stored.identifier === params.identifier && stored.token === params.token)
        return found && expired(found.expires) ? null : correct.useVerificationToken(params)
      },
    }),
    caughtBy: ["useVerificationToken returns null for an expired token, and deletes it"],
  },
  {
    defect: "useVerificationToken ignores the identifier",
    breaks: (store) => ({
      useVerificationToken({ token }) {
        const found = remove(store.tokens, store.tokens.find((stored) => stored.token === token))
        return found ? copy(found) : null
      },
    }),
    caughtBy: ["useVerificationToken needs the identifier the token was made for"],
  },
  {
    defect: "useVerificationToken answers with any token of the identifier",
    breaks: (store) => ({
      useVerificationToken({ identifier }) {
        const found = remove(store.tokens, store.tokens.find((stored) => stored.identifier === identifier))
        return found ? copy(found) : null
      },
    }),
    caughtBy: ["useVerificationToken returns null for an unknown token"],
  },
  {
    defect: "linkAccount drops the OAuth 1.0a token and secret",
    breaks: (_store, correct) => ({
      linkAccount: ({ oauth_token: _token, oauth_token_secret: _secret, ...account }) => correct.linkAccount(account),
    }),
    caughtBy: ["an OAuth 1.0a account keeps its oauth_token and oauth_token_secret"],
  },
  {
    defect: "createAuthenticator stores the flags as strings",
    breaks: (store) => ({
      createAuthenticator(authenticator) {
        const stored = { ...copy(authenticator), counter: String(authenticator.counter), credentialBackedUp: String(authenticator.credentialBackedUp) }
        store.authenticators.push(stored as unknown as AdapterAuthenticator)
        return copy(authenticator)
      },
    }),
    caughtBy: [
      "createAuthenticator returns the authenticator and getAuthenticator finds it by credentialID",
      "listAuthenticatorsByUserId returns the user's authenticators only",
    ],
  },
  {
    defect: "createAuthenticator turns unknown transports into an empty string",
    breaks: (_store, correct) => ({
      createAuthenticator: (authenticator) => correct.createAuthenticator({ ...authenticator, transports: authenticator.transports ?? "" }),
    }),
    caughtBy: ["an authenticator without transports keeps them unknown"],
  },
  {
    defect: "getAuthenticator answers with the first authenticator for an unknown credentialID",
    breaks: (store, correct) => ({
      getAuthenticator: async (id) => (await correct.getAuthenticator(id)) ?? copy(store.authenticators[0] ?? null),
    }),
    caughtBy: ["getAuthenticator returns null for an unknown credentialID"],
  },
  {
    defect: "listAuthenticatorsByUserId lists every user's authenticators",
    breaks: (store) => ({ listAuthenticatorsByUserId: () => copy(store.authenticators) }),
    caughtBy: ["listAuthenticatorsByUserId returns the user's authenticators only"],
  },
  {
    defect: "createAuthenticator drops a passkey's name and dates",
    breaks: (_store, correct) => ({
      createAuthenticator: ({ name: _name, createdAt: _created, lastUsedAt: _used, ...authenticator }) => correct.createAuthenticator(authenticator),
    }),
    caughtBy: ["createAuthenticator keeps a passkey's name, AAGUID and dates"],
  },
  {
    defect: "updateAuthenticator creates a credential for an unknown credentialID",
    breaks: (store, correct) => ({
      updateAuthenticator(fields) {
        if (!store.authenticators.some((authenticator) => authenticator.credentialID === fields.credentialID)) {
          const template = store.authenticators[0]
          const created = { userId: template?.userId ?? "", providerAccountId: "x", credentialPublicKey: "x", counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false, ...fields }
          store.authenticators.push(created)
          return copy(created)
        }
        return correct.updateAuthenticator(fields)
      },
    }),
    caughtBy: ["updateAuthenticator returns null for an unknown credentialID"],
  },
  {
    defect: "deleteAuthenticator throws for an unknown credentialID",
    breaks: (_store, correct) => ({
      async deleteAuthenticator(credentialID) {
        const deleted = await correct.deleteAuthenticator(credentialID)
        if (deleted === null) throw new Error("no such authenticator")
        return deleted
      },
    }),
    caughtBy: ["deleteAuthenticator returns null for an unknown credentialID"],
  },
  {
    defect: "updateAuthenticator renames every authenticator of the user",
    breaks: (store, correct) => ({
      updateAuthenticator(fields) {
        const found = store.authenticators.find((authenticator) => authenticator.credentialID === fields.credentialID)
        for (const authenticator of store.authenticators) if (authenticator.userId === found?.userId && fields.name !== undefined) authenticator.name = fields.name
        return correct.updateAuthenticator(fields)
      },
    }),
    caughtBy: ["updateAuthenticator changes the name and lastUsedAt, and nothing else"],
  },
  {
    defect: "deleteAuthenticator deletes every authenticator of the user",
    breaks: (store) => ({
      deleteAuthenticator(credentialID) {
        const found = store.authenticators.find((authenticator) => authenticator.credentialID === credentialID)
        store.authenticators = store.authenticators.filter((authenticator) => authenticator.userId !== found?.userId)
        return found ?? null
      },
    }),
    caughtBy: ["deleteAuthenticator deletes that credential only"],
  },
  {
    defect: "updateAuthenticatorCounter returns the authenticator but stores nothing",
    breaks: (_store, correct) => ({
      async updateAuthenticatorCounter(id, counter) {
        const found = await correct.getAuthenticator(id)
        if (!found) throw new Error("no such authenticator")
        return { ...found, counter }
      },
    }),
    caughtBy: ["updateAuthenticatorCounter stores the new counter and returns the authenticator"],
  },
  {
    defect: "updateAuthenticatorCounter updates every authenticator of the user",
    breaks: (store, correct) => ({
      updateAuthenticatorCounter(id, counter) {
        const userId = store.authenticators.find((stored) => stored.credentialID === id)?.userId
        for (const stored of store.authenticators) if (stored.userId === userId) stored.counter = counter
        return correct.updateAuthenticatorCounter(id, counter)
      },
    }),
    caughtBy: ["updateAuthenticatorCounter stores the new counter and returns the authenticator"],
  },
  {
    defect: "updateAuthenticatorCounter creates an unknown authenticator",
    breaks: (store, correct) => ({
      updateAuthenticatorCounter(id, counter) {
        if (!store.authenticators.some((stored) => stored.credentialID === id)) {
          store.authenticators.push({ ...copy(store.authenticators[0] ?? ({} as AdapterAuthenticator)), credentialID: id, counter })
        }
        return correct.updateAuthenticatorCounter(id, counter)
      },
    }),
    caughtBy: ["updateAuthenticatorCounter throws for an unknown credentialID"],
  },
  {
    defect: "createAuthenticator replaces an authenticator with the same credentialID",
    breaks: (store) => ({
      createAuthenticator(authenticator) {
        store.authenticators = store.authenticators.filter((stored) => stored.credentialID !== authenticator.credentialID)
        store.authenticators.push(copy(authenticator))
        return copy(authenticator)
      },
    }),
    caughtBy: ["createAuthenticator throws for a credentialID that exists"],
  },
  {
    defect: "deleteUser leaves the user's authenticators",
    breaks: (store, correct) => ({
      async deleteUser(id) {
        const kept = store.authenticators.filter((stored) => stored.userId === id)
        const deleted = await correct.deleteUser(id)
        store.authenticators.push(...kept)
        return deleted
      },
    }),
    caughtBy: ["deleteUser deletes the user's authenticators"],
  },
  {
    defect: "getAuthenticator returns the stored authenticator, not a copy",
    breaks: (store) => ({ getAuthenticator: (id) => store.authenticators.find((stored) => stored.credentialID === id) ?? null }),
    caughtBy: ["changing an authenticator passed in or returned does not change the store"],
  },
  {
    defect: "listAccountsByUserId lists every user's accounts",
    breaks: (store) => ({ listAccountsByUserId: () => copy(store.accounts) }),
    caughtBy: ["listAccountsByUserId returns the user's accounts only"],
  },
  {
    defect: "listAccountsByUserId answers null for a user without accounts",
    breaks: (store) => ({
      listAccountsByUserId(userId) {
        const mine = store.accounts.filter((account) => account.userId === userId)
        return (mine.length === 0 ? null : copy(mine)) as AdapterAccount[]
      },
    }),
    caughtBy: ["listAccountsByUserId returns the user's accounts only"],
  },
  {
    defect: "listAccountsByUserId keeps listing unlinked accounts",
    breaks: (store, correct) => {
      const unlinked: AdapterAccount[] = []
      return {
        async unlinkAccount(key) {
          const found = await correct.unlinkAccount(key)
          if (found) unlinked.push(copy(found))
          return found
        },
        listAccountsByUserId: (userId) => copy([...store.accounts, ...unlinked].filter((account) => account.userId === userId)),
      }
    },
    caughtBy: ["listAccountsByUserId no longer lists an unlinked account"],
  },
  {
    defect: "listAccountsByUserId returns the stored accounts, not copies",
    breaks: (store) => ({ listAccountsByUserId: (userId) => store.accounts.filter((account) => account.userId === userId) }),
    caughtBy: ["changing a listed account does not change the store"],
  },
  {
    defect: "createSessionRecord drops the provider's session id and the user agent",
    breaks: (_store, correct) => ({ createSessionRecord: (record) => correct.createSessionRecord({ ...record, providerSid: null, userAgent: null }) }),
    caughtBy: ["createSessionRecord stores every field, and getSessionRecord returns it with its Dates"],
  },
  {
    defect: "getSessionRecord returns dates as strings",
    breaks: (_store, correct) => ({
      async getSessionRecord(id) {
        const record = await correct.getSessionRecord(id)
        return record && ({ ...record, lastSeenAt: record.lastSeenAt.toISOString() } as unknown as AdapterSessionRecord)
      },
    }),
    caughtBy: ["createSessionRecord stores every field, and getSessionRecord returns it with its Dates"],
  },
  {
    defect: "createSessionRecord leaves the optional fields left out undefined",
    breaks: (store, correct) => ({
      async createSessionRecord(record) {
        const stored = await correct.createSessionRecord(record)
        const kept = store.records.find((candidate) => candidate.id === record.id)
        for (const name of ["sessionToken", "provider", "providerSid", "userAgent", "revokedAt"] as const) {
          if (record[name] === undefined && kept) Reflect.deleteProperty(kept, name)
        }
        return correct.getSessionRecord(stored.id) as Promise<AdapterSessionRecord>
      },
    }),
    caughtBy: ["createSessionRecord stores the optional fields left out as null"],
  },
  {
    defect: "updateSessionRecord drops a database session's assurance",
    breaks: (_store, correct) => ({ updateSessionRecord: ({ id, lastSeenAt, expires, revokedAt }) => correct.updateSessionRecord({ id, lastSeenAt, expires, revokedAt }) }),
    caughtBy: ["updateSessionRecord writes a database session's assurance (signedInAt, authTime, authMethods), and a patch without it keeps it"],
  },
  {
    defect: "getSessionRecord answers with the first record for an unknown id",
    breaks: (store) => ({ getSessionRecord: (id) => structuredClone(store.records.find((record) => record.id === id) ?? store.records[0] ?? null) }),
    caughtBy: ["getSessionRecord returns null for an unknown id"],
  },
  {
    defect: "createSessionRecord replaces a record with the same id",
    breaks: (store, correct) => ({
      createSessionRecord(record) {
        store.records = store.records.filter((stored) => stored.id !== record.id)
        return correct.createSessionRecord(record)
      },
    }),
    caughtBy: ["createSessionRecord throws for an id that exists, and keeps the first record"],
  },
  {
    defect: "createSessionRecord drops a record of a user the store does not keep",
    breaks: (_store, correct) => ({
      async createSessionRecord(record) {
        if (!(await correct.getUser(record.userId))) return structuredClone(record)
        return correct.createSessionRecord(record)
      },
    }),
    caughtBy: ["createSessionRecord stores a record for a user the store does not keep (a credentials sign-in), listed by that id"],
  },
  {
    defect: "listSessionRecords leaves out revoked and expired records",
    breaks: (_store, correct) => ({
      async listSessionRecords(filter) {
        return (await correct.listSessionRecords(filter)).filter((record) => !record.revokedAt && !expired(record.expires))
      },
    }),
    caughtBy: [
      "listSessionRecords by userId lists the user's records, revoked and expired ones included",
      "listSessionRecords by provider and providerSid lists that provider session's records only",
    ],
  },
  {
    defect: "listSessionRecords by userId lists every user's records",
    breaks: (store, correct) => ({ listSessionRecords: (filter) => ("userId" in filter ? structuredClone(store.records) : correct.listSessionRecords(filter)) }),
    caughtBy: ["listSessionRecords by userId lists the user's records, revoked and expired ones included"],
  },
  {
    defect: "listSessionRecords matches the provider's session id whatever the provider",
    breaks: (store, correct) => ({
      listSessionRecords: (filter) =>
        "providerSid" in filter ? structuredClone(store.records.filter((record) => record.providerSid === filter.providerSid)) : correct.listSessionRecords(filter),
    }),
    caughtBy: ["listSessionRecords by provider and providerSid lists that provider session's records only"],
  },
  {
    defect: "updateSessionRecord writes every field it is given",
    breaks: (store, correct) => ({
      updateSessionRecord(patch) {
        const record = store.records.find((candidate) => candidate.id === patch.id)
        if (record) Object.assign(record, structuredClone(patch))
        return correct.getSessionRecord(patch.id)
      },
    }),
    caughtBy: ["updateSessionRecord writes lastSeenAt, expires and revokedAt, and nothing else"],
  },
  {
    defect: "updateSessionRecord ignores revokedAt null",
    breaks: (_store, correct) => ({ updateSessionRecord: (patch) => correct.updateSessionRecord(patch.revokedAt === null ? { ...patch, revokedAt: undefined } : patch) }),
    caughtBy: ["updateSessionRecord with revokedAt null un-revokes the record"],
  },
  {
    defect: "updateSessionRecord throws for an unknown id",
    breaks: (_store, correct) => ({
      async updateSessionRecord(patch) {
        const record = await correct.updateSessionRecord(patch)
        if (!record) throw new Error("no such record")
        return record
      },
    }),
    caughtBy: ["updateSessionRecord returns null for an unknown id, and creates nothing"],
  },
  {
    defect: "deleteUser leaves the user's session records",
    breaks: (store, correct) => ({
      async deleteUser(id) {
        const records = store.records
        const user = await correct.deleteUser(id)
        store.records = records
        return user
      },
    }),
    caughtBy: ["deleteUser deletes the user's session records"],
  },
  {
    defect: "getSessionRecord returns the stored record, not a copy",
    breaks: (store) => ({ getSessionRecord: (id) => store.records.find((record) => record.id === id) ?? null }),
    caughtBy: ["changing a session record passed in or returned does not change the store"],
  },
  {
    defect: "useOnce answers true for a key it has",
    breaks: (_store, correct) => ({
      async useOnce(key, until) {
        await correct.useOnce(key, until)
        return true
      },
    }),
    caughtBy: ["useOnce answers true for a new key, then false for it", "useOnce is atomic: of concurrent uses of one key, exactly one answers true"],
  },
  {
    defect: "useOnce keeps a key forever",
    breaks: (store) => ({
      useOnce(key) {
        if (store.usedKeys.has(key)) return false
        store.usedKeys.set(key, new Date(8.64e15))
        return true
      },
    }),
    caughtBy: ["useOnce answers true again once the key expired"],
  },
  {
    defect: "useOnce keeps one key for all that share a prefix",
    breaks: (_store, correct) => ({ useOnce: (key, until) => correct.useOnce(key.slice(0, 40), until) }),
    caughtBy: ["useOnce keeps each key apart"],
  },
  {
    defect: "useOnce checks and stores in two steps (a read, then a write)",
    breaks: (store) => ({
      async useOnce(key, until) {
        const kept = store.usedKeys.get(key)
        await new Promise((resolve) => setTimeout(resolve, 1))
        if (kept && !expired(kept)) return false
        store.usedKeys.set(key, until)
        return true
      },
    }),
    caughtBy: ["useOnce is atomic: of concurrent uses of one key, exactly one answers true"],
  },
  {
    defect: "the adapter has no session record methods",
    breaks: () => ({ createSessionRecord: undefined, getSessionRecord: undefined, listSessionRecords: undefined, updateSessionRecord: undefined, useOnce: undefined }),
    caughtBy: cases.filter((testCase) => testCase.group === "session records" || testCase.group === "single-use keys").map((testCase) => testCase.name),
  },
  {
    defect: "listAuthFactors returns dates as strings",
    only: ["auth factors"],
    breaks: (_store, correct) => ({ listAuthFactors: async (userId) => JSON.parse(JSON.stringify(await correct.listAuthFactors(userId))) as AdapterAuthFactor[] }),
    caughtBy: ["createAuthFactor stores every field, and listAuthFactors returns it with its Dates"],
  },
  {
    defect: "createAuthFactor leaves the optional fields out instead of null",
    only: ["auth factors"],
    breaks: (store) => ({
      createAuthFactor(factor) {
        store.factors.push(copy(factor))
        return copy(factor)
      },
    }),
    caughtBy: ["createAuthFactor stores the optional fields left out as null, and failures as 0"],
  },
  {
    defect: "createAuthFactor trims the secret",
    only: ["auth factors"],
    breaks: (_store, correct) => ({ createAuthFactor: (factor) => correct.createAuthFactor({ ...factor, secret: factor.secret.trim() }) }),
    caughtBy: ["createAuthFactor keeps the secret exactly as given"],
  },
  {
    defect: "createAuthFactor replaces a factor with the same id",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      createAuthFactor(factor) {
        store.factors = store.factors.filter((stored) => stored.id !== factor.id)
        return correct.createAuthFactor(factor)
      },
    }),
    caughtBy: ["createAuthFactor throws for an id that exists, and keeps the first factor"],
  },
  {
    defect: "createAuthFactor drops a factor of a user the store does not keep",
    only: ["auth factors"],
    breaks: (_store, correct) => ({
      async createAuthFactor(factor) {
        if (!(await correct.getUser(factor.userId))) return copy(factor)
        return correct.createAuthFactor(factor)
      },
    }),
    caughtBy: ["createAuthFactor stores a factor for a user id the store does not keep, listed by that id"],
  },
  {
    defect: "listAuthFactors lists every user's factors",
    only: ["auth factors"],
    breaks: (store) => ({ listAuthFactors: () => copy(store.factors) }),
    caughtBy: ["listAuthFactors lists the user's factors of every type, and no one else's"],
  },
  {
    defect: "updateAuthFactor writes every field it is given",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      updateAuthFactor(patch) {
        const factor = store.factors.find((candidate) => candidate.id === patch.id)
        if (factor) Object.assign(factor, copy(patch))
        return correct.updateAuthFactor({ id: patch.id })
      },
    }),
    caughtBy: ["updateAuthFactor writes confirmedAt and lockedAt, null clears them, and nothing else changes"],
  },
  {
    defect: "updateAuthFactor ignores lockedAt null",
    only: ["auth factors"],
    breaks: (_store, correct) => ({ updateAuthFactor: (patch) => correct.updateAuthFactor(patch.lockedAt === null ? { ...patch, lockedAt: undefined } : patch) }),
    caughtBy: ["updateAuthFactor writes confirmedAt and lockedAt, null clears them, and nothing else changes"],
  },
  {
    defect: "updateAuthFactor throws for an unknown id",
    only: ["auth factors"],
    breaks: (_store, correct) => ({
      async updateAuthFactor(patch) {
        const factor = await correct.updateAuthFactor(patch)
        if (!factor) throw new Error("no such factor")
        return factor
      },
    }),
    caughtBy: ["updateAuthFactor returns null for an unknown id, and creates nothing"],
  },
  {
    defect: "deleteAuthFactor always answers true",
    only: ["auth factors"],
    breaks: (_store, correct) => ({
      async deleteAuthFactor(id) {
        await correct.deleteAuthFactor(id)
        return true
      },
    }),
    caughtBy: ["deleteAuthFactor answers true once, then false, and deletes that factor only", "deleteAuthFactor is atomic: of concurrent deletes of one factor, exactly one answers true (a backup code spent once)"],
  },
  {
    defect: "deleteAuthFactor finds and deletes in two steps (a read, then a write)",
    only: ["auth factors"],
    breaks: (store) => ({
      async deleteAuthFactor(id) {
        const found = store.factors.some((factor) => factor.id === id)
        await new Promise((resolve) => setTimeout(resolve, 1))
        store.factors = store.factors.filter((factor) => factor.id !== id)
        return found
      },
    }),
    caughtBy: ["deleteAuthFactor is atomic: of concurrent deletes of one factor, exactly one answers true (a backup code spent once)"],
  },
  {
    defect: "useAuthFactorStep accepts the same step again",
    only: ["auth factors"],
    breaks: (store) => ({
      useAuthFactorStep(id, step) {
        const factor = store.factors.find((candidate) => candidate.id === id)
        if (!factor || (factor.lastUsedStep != null && step < factor.lastUsedStep)) return false
        factor.lastUsedStep = step
        factor.failures = 0
        return true
      },
    }),
    caughtBy: ["useAuthFactorStep accepts a later step once, never the same or an earlier one, and resets failures (RFC 6238 §5.2)", "useAuthFactorStep is atomic: of concurrent uses of one step, exactly one answers true"],
  },
  {
    defect: "useAuthFactorStep keeps its count of failures",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      async useAuthFactorStep(id, step) {
        const failures = store.factors.find((factor) => factor.id === id)?.failures
        const accepted = await correct.useAuthFactorStep(id, step)
        const factor = store.factors.find((candidate) => candidate.id === id)
        if (factor) factor.failures = failures
        return accepted
      },
    }),
    caughtBy: ["useAuthFactorStep accepts a later step once, never the same or an earlier one, and resets failures (RFC 6238 §5.2)"],
  },
  {
    defect: "useAuthFactorStep keeps one last step for every factor",
    only: ["auth factors"],
    breaks: (_store, correct) => {
      let last: number | undefined
      return {
        async useAuthFactorStep(id, step) {
          if (last !== undefined && step <= last) return false
          const accepted = await correct.useAuthFactorStep(id, step)
          if (accepted) last = step
          return accepted
        },
      }
    },
    caughtBy: ["useAuthFactorStep keeps each factor's steps apart"],
  },
  {
    defect: "useAuthFactorStep takes any step",
    only: ["auth factors"],
    breaks: (store) => ({
      useAuthFactorStep(id, step) {
        const factor = store.factors.find((candidate) => candidate.id === id)
        if (!factor || (factor.lastUsedStep != null && step <= factor.lastUsedStep)) return false
        factor.lastUsedStep = step
        return true
      },
    }),
    caughtBy: ["useAuthFactorStep refuses a step that is not a non-negative integer"],
  },
  {
    defect: "useAuthFactorStep checks and stores in two steps (a read, then a write)",
    only: ["auth factors"],
    breaks: (store) => ({
      async useAuthFactorStep(id, step) {
        const last = store.factors.find((factor) => factor.id === id)?.lastUsedStep
        await new Promise((resolve) => setTimeout(resolve, 1))
        const factor = store.factors.find((candidate) => candidate.id === id)
        if (!factor || (last != null && step <= last)) return false
        factor.lastUsedStep = step
        factor.failures = 0
        return true
      },
    }),
    caughtBy: [
      "useAuthFactorStep is atomic: of concurrent uses of one step, exactly one answers true",
      "useAuthFactorStep is atomic: of concurrent earlier and later steps, none is accepted after a later one",
    ],
  },
  {
    defect: "countAuthFactorFailure answers the count before it",
    only: ["auth factors"],
    breaks: (_store, correct) => ({ countAuthFactorFailure: async (id) => (await correct.countAuthFactorFailure(id)) - 1 }),
    caughtBy: ["countAuthFactorFailure adds one and answers the new count", "countAuthFactorFailure is atomic: concurrent failures each count, each answering its own count"],
  },
  {
    defect: "countAuthFactorFailure reads, then writes (a lost update)",
    only: ["auth factors"],
    breaks: (store) => ({
      async countAuthFactorFailure(id) {
        const failures = store.factors.find((factor) => factor.id === id)?.failures ?? 0
        await new Promise((resolve) => setTimeout(resolve, 1))
        const factor = store.factors.find((candidate) => candidate.id === id)
        if (!factor) return 0
        factor.failures = failures + 1
        return factor.failures
      },
    }),
    caughtBy: ["countAuthFactorFailure is atomic: concurrent failures each count, each answering its own count"],
  },
  {
    defect: "replaceAuthFactors removes the user's factors of every type",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      replaceAuthFactors(userId, type, factors) {
        store.factors = store.factors.filter((factor) => factor.userId !== userId)
        return correct.replaceAuthFactors(userId, type, factors)
      },
    }),
    caughtBy: ["replaceAuthFactors replaces the user's factors of that type only"],
  },
  {
    defect: "replaceAuthFactors deletes, then stores one by one (no transaction)",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      async replaceAuthFactors(userId, type, factors) {
        store.factors = store.factors.filter((factor) => factor.userId !== userId || factor.type !== type)
        for (const factor of factors) await correct.createAuthFactor(factor)
      },
    }),
    caughtBy: ["replaceAuthFactors is all or nothing: a taken id leaves the user's factors as they were"],
  },
  {
    defect: "replaceAuthFactors stores factors of any user and type",
    only: ["auth factors"],
    breaks: (store) => ({
      replaceAuthFactors(userId, type, factors) {
        store.factors = [...store.factors.filter((factor) => factor.userId !== userId || factor.type !== type), ...copy(factors)]
      },
    }),
    caughtBy: ["replaceAuthFactors refuses factors of another user or type, and changes nothing"],
  },
  {
    defect: "replaceAuthFactors deletes, waits, then stores (two concurrent calls both land)",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      async replaceAuthFactors(userId, type, factors) {
        await correct.replaceAuthFactors(userId, type, [])
        await new Promise((resolve) => setTimeout(resolve, 1))
        store.factors.push(...factors.map((factor) => ({ confirmedAt: null, lastUsedStep: null, failures: 0, lockedAt: null, ...copy(factor) })))
      },
    }),
    caughtBy: ["replaceAuthFactors is atomic: of concurrent replaces, exactly one's factors remain"],
  },
  {
    defect: "deleteUser leaves the user's factors",
    only: ["auth factors"],
    breaks: (store, correct) => ({
      async deleteUser(id) {
        const factors = store.factors
        const user = await correct.deleteUser(id)
        store.factors = factors
        return user
      },
    }),
    caughtBy: ["deleteUser deletes the user's factors"],
  },
  {
    defect: "listAuthFactors returns the stored factors, not copies",
    only: ["auth factors"],
    breaks: (store) => ({ listAuthFactors: (userId) => store.factors.filter((factor) => factor.userId === userId) }),
    caughtBy: ["changing a factor passed in or returned does not change the store"],
  },
  {
    defect: "the adapter has no second-factor methods",
    only: ["auth factors"],
    breaks: () => ({
      createAuthFactor: undefined,
      listAuthFactors: undefined,
      updateAuthFactor: undefined,
      deleteAuthFactor: undefined,
      useAuthFactorStep: undefined,
      countAuthFactorFailure: undefined,
      replaceAuthFactors: undefined,
    }),
    caughtBy: cases.filter((testCase) => testCase.group === "auth factors").map((testCase) => testCase.name),
  },
  {
    defect: "getPasswordHash trims the hash",
    only: ["password hashes"],
    breaks: (_store, correct) => ({ getPasswordHash: async (userId) => (await correct.getPasswordHash(userId))?.slice(0, 60) ?? null }),
    caughtBy: ["setPasswordHash stores a hash that getPasswordHash returns exactly as given"],
  },
  {
    defect: "getPasswordHash answers an empty string for none",
    only: ["password hashes"],
    breaks: (_store, correct) => ({ getPasswordHash: async (userId) => (await correct.getPasswordHash(userId)) ?? "" }),
    caughtBy: ["getPasswordHash returns null for a user without one, and for an unknown user id"],
  },
  {
    defect: "setPasswordHash keeps the first hash",
    only: ["password hashes"],
    breaks: (store, correct) => ({
      async setPasswordHash(userId, hash) {
        if (!store.passwords.has(userId)) await correct.setPasswordHash(userId, hash)
      },
    }),
    caughtBy: ["setPasswordHash replaces the user's hash and no other user's"],
  },
  {
    defect: "setPasswordHash stores a hash for a user the store does not keep",
    only: ["password hashes"],
    breaks: (store) => ({
      setPasswordHash(userId, hash) {
        store.passwords.set(userId, hash)
      },
    }),
    caughtBy: ["setPasswordHash throws for an unknown user id, and stores nothing"],
  },
  {
    defect: "setPasswordHash writes the hash in two pieces",
    only: ["password hashes"],
    breaks: (store, correct) => ({
      async setPasswordHash(userId, hash) {
        await correct.setPasswordHash(userId, hash.slice(0, 30))
        await new Promise((resolve) => setTimeout(resolve, 1))
        store.passwords.set(userId, (store.passwords.get(userId) ?? "") + hash.slice(30))
      },
    }),
    caughtBy: ["setPasswordHash is atomic: of concurrent sets for one user, one hash remains whole"],
  },
  {
    defect: "the user record carries the hash",
    only: ["password hashes"],
    breaks: (store, correct) => ({
      async setPasswordHash(userId, hash) {
        await correct.setPasswordHash(userId, hash)
        const user = store.users.find((candidate) => candidate.id === userId)
        if (user) user.passwordHash = hash
      },
    }),
    caughtBy: ["no user read carries the hash"],
  },
  {
    defect: "deleteUser leaves the user's password hash",
    only: ["password hashes"],
    breaks: (store, correct) => ({
      async deleteUser(id) {
        const passwords = new Map(store.passwords)
        const user = await correct.deleteUser(id)
        store.passwords = passwords
        return user
      },
    }),
    caughtBy: ["deleteUser deletes the user's password hash"],
  },
  {
    defect: "the adapter has no verification token methods",
    breaks: () => ({ createVerificationToken: undefined, useVerificationToken: undefined }),
    caughtBy: cases.filter((testCase) => testCase.group === "verification tokens").map((testCase) => testCase.name),
  },
]

/** Runs every case against a fresh broken adapter; returns the failures by case name. */
async function failures(defect: Defect, withDb: boolean): Promise<Map<string, unknown>> {
  const failed = new Map<string, unknown>()
  for (const testCase of cases.filter(({ group }) => defect.only?.includes(group) ?? true)) {
    const store = emptyStore()
    const correct = referenceAdapter(store)
    const adapter = { ...correct, ...defect.breaks(store, correct) }
    try {
      await testCase.run({ adapter, db: withDb ? storeAccess(() => store) : undefined })
    } catch (error) {
      failed.set(testCase.name, error)
    }
  }
  return failed
}

describe("the reference adapter, with store access", () => {
  let store = emptyStore()
  runAdapterTests({
    adapter: () => {
      store = emptyStore()
      return referenceAdapter(store)
    },
    db: storeAccess(() => store),
  })
})

describe("the reference adapter, one instance for every case", () => {
  runAdapterTests({ adapter: referenceAdapter(emptyStore()) })
})

describe("an adapter without verification tokens, skipping that group", () => {
  const { createVerificationToken: _create, useVerificationToken: _use, ...adapter } = referenceAdapter(emptyStore())
  runAdapterTests({
    adapter,
    skip: ["verification tokens", "verification token deletion", "changing a verification token passed in or returned does not change the store"],
  })
})

describe("an adapter without session records (as Auth.js's adapters), skipping those groups", () => {
  const { createSessionRecord: _create, getSessionRecord: _get, listSessionRecords: _list, updateSessionRecord: _update, useOnce: _use, ...adapter } = referenceAdapter(emptyStore())
  runAdapterTests({ adapter, skip: ["session records", "single-use keys"] })
})

describe("an adapter without second factors (as Auth.js's adapters), skipping that group", () => {
  const {
    createAuthFactor: _create,
    listAuthFactors: _list,
    updateAuthFactor: _update,
    deleteAuthFactor: _delete,
    useAuthFactorStep: _step,
    countAuthFactorFailure: _count,
    replaceAuthFactors: _replace,
    ...adapter
  } = referenceAdapter(emptyStore())
  runAdapterTests({ adapter, skip: ["auth factors"] })
})

describe("an adapter without password hashes (as Auth.js's adapters), skipping that group", () => {
  const { getPasswordHash: _get, setPasswordHash: _set, ...adapter } = referenceAdapter(emptyStore())
  runAdapterTests({ adapter, skip: ["password hashes"] })
})

describe("the cases", () => {
  it("have unique names", () => {
    const names = cases.map((testCase) => testCase.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it("each catch at least one defect below", () => {
    const caught = new Set(defects.flatMap((defect) => defect.caughtBy))
    expect(cases.map((testCase) => testCase.name).filter((name) => !caught.has(name))).toEqual([])
  })

  it("run outside vitest, against a plain context", async () => {
    for (const testCase of cases) await testCase.run({ adapter: referenceAdapter(emptyStore()) })
  })
})

describe("runAdapterTests", () => {
  it("refuses to skip a case or group that does not exist", () => {
    expect(() => {
      runAdapterTests({ adapter: {}, skip: ["users", "verification token"] })
    }).toThrow(/"verification token"/)
  })
})

describe.each([
  { access: "with store access", withDb: true },
  { access: "through the adapter alone", withDb: false },
])("the suite, $access, catches an adapter whose", ({ withDb }) => {
  it.each(defects)("$defect", async (defect) => {
    for (const name of defect.caughtBy) expect(cases.some((testCase) => testCase.name === name), name).toBe(true)
    const failed = await failures(defect, withDb)
    expect([...failed.keys()]).toEqual(expect.arrayContaining(defect.caughtBy))
    for (const [name, error] of failed) expect(error, name).toBeInstanceOf(assert.AssertionError)
  })
})
