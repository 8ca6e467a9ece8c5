/**
 * The conformance cases every adapter passes, as data: a group, a name and an async `run`
 * that throws (a `node:assert` failure) when the adapter breaks the contract. They need no test
 * runner, so a store can be checked from a script as well as from vitest.
 *
 * Cases make their own random emails, ids and tokens, so they do not collide even when they
 * share one store.
 *
 * @module cases
 */
import assert from "node:assert/strict"

import { scaled } from "@portcullis/test-time"

/** The email of a user the suite created with one; a store that dropped it fails here. */
function emailOf(user: { email: string | null }): string {
  assert.ok(user.email !== null, "the user was created with an email")
  return user.email
}
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthFactor,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterUser,
  Awaitable,
  StrictAdapter,
  VerificationToken,
} from "@portcullis/core/adapters"

/**
 * Direct read access to the store behind an adapter, for what the Adapter methods cannot show
 * (that an expired session was deleted, not merely hidden). Each function returns the stored
 * record in whatever shape the store keeps it, or `null` / `undefined` when there is none.
 */
export interface AdapterTestDb {
  user(id: string): Awaitable<unknown>
  account(key: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<unknown>
  session(sessionToken: string): Awaitable<unknown>
  verificationToken(key: Pick<VerificationToken, "identifier" | "token">): Awaitable<unknown>
  /** The stored WebAuthn credential; leave it out when the store keeps none. */
  authenticator?(credentialID: string): Awaitable<unknown>
}

/** What a case runs against. */
export interface AdapterTestContext {
  adapter: Adapter
  db?: AdapterTestDb | undefined
}

/** The part of the contract a case is about. */
export type AdapterTestGroup =
  | "users"
  | "accounts"
  | "user with account"
  | "cascade on deleteUser"
  | "sessions"
  | "verification tokens"
  | "verification token deletion"
  | "uniqueness"
  | "copies"
  | "authenticators"
  | "passkey management"
  | "accounts by user"
  | "account refresh"
  | "session records"
  | "single-use keys"
  | "auth factors"
  | "password hashes"

/** One conformance check: resolves when the adapter conforms, rejects with the reason otherwise. */
export interface AdapterTestCase {
  group: AdapterTestGroup
  /** Unique across the suite; what `skip` and the test report name. */
  name: string
  run(context: AdapterTestContext): Promise<void>
}

/**
 * A case, written against {@link StrictAdapter}: the answers it checks. Where Auth.js's contract
 * ({@link Adapter}) lets a method answer nothing (a delete, an unlink, a link), the cases accept
 * nothing too, so Auth.js's adapters run the same cases.
 */
type Run = (adapter: Required<StrictAdapter>, db: AdapterTestDb | undefined) => Promise<void>

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The adapter with a clear failure, instead of a TypeError, when a case calls a method it lacks;
 * typed as the contract the cases check, which they check at run time.
 */
function requireMethods(adapter: Adapter): Required<StrictAdapter> {
  return new Proxy(adapter, {
    get(target, property, receiver): unknown {
      const value: unknown = Reflect.get(target, property, receiver)
      if (value === undefined && typeof property === "string") {
        throw new assert.AssertionError({ message: `the adapter does not implement ${property}()` })
      }
      return value
    },
  }) as Required<StrictAdapter>
}

function group(name: AdapterTestGroup, runs: Record<string, Run>): AdapterTestCase[] {
  return Object.entries(runs).map(([caseName, run]) => ({
    group: name,
    name: caseName,
    run: (context) => run(requireMethods(context.adapter), context.db),
  }))
}

function unique(): string {
  return crypto.randomUUID()
}

/** A Date `offset` ms from now, in whole seconds so stores that keep seconds round-trip it exactly. */
function fromNow(offset: number): Date {
  return new Date(Math.floor((Date.now() + offset) / 1000) * 1000)
}

/** The known fields of a new user (`Omit<AdapterUser, "id">` loses them to the index signature). */
type NewUser = Pick<AdapterUser, "email" | "emailVerified" | "name" | "image">

function newUser(fields: Partial<NewUser> = {}): NewUser {
  return {
    email: `${unique()}@example.com`,
    emailVerified: fromNow(-HOUR),
    name: "Ada Lovelace",
    image: "https://example.com/ada.png",
    ...fields,
  }
}

function newAccount(userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: unique(),
    access_token: `access-${unique()}`,
    refresh_token: `refresh-${unique()}`,
    token_type: "bearer",
    scope: "read:user user:email",
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    ...fields,
  }
}

function newAuthenticator(userId: string, fields: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  return {
    credentialID: unique(),
    userId,
    providerAccountId: unique(),
    credentialPublicKey: `pQECAyYgASFYI${unique()}`,
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
    ...fields,
  }
}

function newSession(userId: string, fields: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: unique(), userId, expires: fromNow(DAY), ...fields }
}

/** A session record of `userId` with every field set: a database session's, from an OpenID Provider. */
function newSessionRecord(userId: string, fields: Partial<AdapterSessionRecord> = {}): AdapterSessionRecord {
  return {
    id: unique(),
    userId,
    createdAt: fromNow(-HOUR),
    lastSeenAt: fromNow(-MINUTE),
    expires: fromNow(DAY),
    sessionToken: unique(),
    provider: "idp",
    providerSid: unique(),
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    clientAddress: "203.0.113.7",
    revokedAt: null,
    signedInAt: fromNow(-HOUR),
    authTime: fromNow(-HOUR),
    authMethods: ["fed"],
    ...fields,
  }
}

function newToken(fields: Partial<VerificationToken> = {}): VerificationToken {
  return { identifier: `${unique()}@example.com`, token: unique(), expires: fromNow(DAY), ...fields }
}

/**
 * The arguments Auth.js's contract gives these methods, and all core passes: an adapter may use
 * them as a query as they are (Prisma's does), so the suite never passes the whole record.
 */
function byAccount(account: Pick<AdapterAccount, "provider" | "providerAccountId">): Pick<AdapterAccount, "provider" | "providerAccountId"> {
  return { provider: account.provider, providerAccountId: account.providerAccountId }
}

function byToken(token: Pick<VerificationToken, "identifier" | "token">): { identifier: string; token: string } {
  return { identifier: token.identifier, token: token.token }
}

function assertDate(actual: unknown, expected: Date, what: string): void {
  assert.ok(actual instanceof Date, `${what} is a Date, not ${typeof actual}`)
  assert.equal(actual.getTime(), expected.getTime(), `${what} keeps its time`)
}

/** Checks the fields `expected` names (Dates by type and time); the store may return more. */
function assertRecord(actual: unknown, expected: object, what: string): void {
  assert.ok(typeof actual === "object" && actual !== null, `${what} returns a record`)
  const record = actual as Record<string, unknown>
  for (const [key, value] of Object.entries(expected)) {
    if (value instanceof Date) assertDate(record[key], value, `${what}.${key}`)
    else assert.deepEqual(record[key], value, `${what}.${key}`)
  }
}

function assertStored(record: unknown, what: string): void {
  assert.ok(record !== null && record !== undefined, `${what} is in the store`)
}

function assertGone(record: unknown, what: string): void {
  assert.ok(record === null || record === undefined, `${what} is not in the store`)
}

function assertNothing(answer: unknown, what: string): void {
  assert.ok(answer === null || answer === undefined, `${what} answers null or undefined`)
}

/** Calls a method that must not throw here, and fails as an assertion (naming the call) if it does. */
async function mustAnswer<T>(call: () => Awaitable<T>, what: string): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw new assert.AssertionError({ message: `${what} throws: ${String(error)}` })
  }
}

/** Changes every field of a returned or passed-in record in place, Dates included. */
function tamper(record: unknown): void {
  if (typeof record !== "object" || record === null) return
  for (const [key, value] of Object.entries(record)) {
    if (value instanceof Date) value.setTime(0)
    else if (typeof value === "string") Reflect.set(record, key, `tampered ${value}`)
    else if (typeof value === "number") Reflect.set(record, key, value + 1)
  }
}

const users = group("users", {
  async "createUser returns the user with a new id and the given fields"(adapter, db) {
    const input = newUser()
    const user = await adapter.createUser(input)
    assertRecord(user, input, "createUser()")
    assert.equal(typeof user.id, "string", "the id is a string")
    assert.notEqual(user.id, "", "the id is not empty")
    const other = await adapter.createUser(newUser())
    assert.notEqual(other.id, user.id, "each user gets its own id")
    if (db) assertStored(await db.user(user.id), "the created user")
  },

  async "getUser returns the user by id, and null for an unknown id"(adapter) {
    const user = await adapter.createUser(newUser())
    assertRecord(await adapter.getUser(user.id), user, "getUser()")
    assert.equal(await adapter.getUser(unique()), null, "getUser() of an unknown id")
  },

  async "getUserByEmail returns the user by email, and null for an unknown email"(adapter) {
    const user = await adapter.createUser(newUser())
    assertRecord(await adapter.getUserByEmail(emailOf(user)), user, "getUserByEmail()")
    assert.equal(await adapter.getUserByEmail(`${unique()}@example.com`), null, "getUserByEmail() of an unknown email")
  },

  async "updateUser returns the updated user, keeping the fields it is not given"(adapter) {
    const user = await adapter.createUser(newUser())
    const expected = { ...user, name: "Grace Hopper", image: null }
    assertRecord(await adapter.updateUser({ id: user.id, name: "Grace Hopper", image: null }), expected, "updateUser()")
    assertRecord(await adapter.getUser(user.id), expected, "getUser() after updateUser()")
  },

  async "updateUser moves the user to a new email"(adapter) {
    const user = await adapter.createUser(newUser())
    const email = `${unique()}@example.com`
    assertRecord(await adapter.updateUser({ id: user.id, email }), { id: user.id, email }, "updateUser()")
    assertRecord(await adapter.getUserByEmail(email), { id: user.id, email }, "getUserByEmail() of the new email")
    assert.equal(await adapter.getUserByEmail(emailOf(user)), null, "getUserByEmail() of the old email")
  },

  async "emailVerified round-trips as a Date, or null"(adapter) {
    const first = fromNow(-DAY)
    const verified = await adapter.createUser(newUser({ emailVerified: new Date(first) }))
    assertDate(verified.emailVerified, first, "createUser().emailVerified")
    assertDate((await adapter.getUser(verified.id))?.emailVerified, first, "getUser().emailVerified")
    assertDate((await adapter.getUserByEmail(emailOf(verified)))?.emailVerified, first, "getUserByEmail().emailVerified")
    const later = fromNow(-MINUTE)
    const updated = await adapter.updateUser({ id: verified.id, emailVerified: new Date(later) })
    assertDate(updated.emailVerified, later, "updateUser().emailVerified")
    assertDate((await adapter.getUser(verified.id))?.emailVerified, later, "getUser().emailVerified after updateUser()")

    const unverified = await adapter.createUser(newUser({ emailVerified: null }))
    assert.equal(unverified.emailVerified, null, "createUser().emailVerified stays null")
    assert.equal((await adapter.getUser(unverified.id))?.emailVerified, null, "getUser().emailVerified stays null")
  },

  async "deleteUser removes the user"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const deleted = await adapter.deleteUser(user.id)
    if (deleted) assertRecord(deleted, { id: user.id }, "deleteUser()")
    assert.equal(await adapter.getUser(user.id), null, "getUser() after deleteUser()")
    assert.equal(await adapter.getUserByEmail(emailOf(user)), null, "getUserByEmail() after deleteUser()")
    if (db) assertGone(await db.user(user.id), "the deleted user")
  },

  async "deleteUser of an unknown id returns nothing"(adapter) {
    const id = unique()
    assertNothing(await mustAnswer(() => adapter.deleteUser(id), "deleteUser()"), "deleteUser() of an unknown id")
  },
})

const accounts = group("accounts", {
  async "linkAccount stores the account and getAccount returns it"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    const linked = await adapter.linkAccount(account)
    if (linked) assertRecord(linked, account, "linkAccount()")
    assertRecord(await adapter.getAccount(account.providerAccountId, account.provider), account, "getAccount()")
    if (db) assertStored(await db.account(account), "the linked account")
  },

  async "getAccount takes the providerAccountId first, and returns null for an unknown account"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    assert.equal(await adapter.getAccount(account.provider, account.providerAccountId), null, "getAccount(provider, providerAccountId)")
    assert.equal(await adapter.getAccount(unique(), account.provider), null, "getAccount() of an unknown account")
  },

  async "getUserByAccount returns the linked user, and null for an unknown account"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    assertRecord(await adapter.getUserByAccount(byAccount(account)), user, "getUserByAccount()")
    assert.equal(await adapter.getUserByAccount({ provider: "github", providerAccountId: unique() }), null, "getUserByAccount() of an unknown account")
  },

  async "a user can link accounts at several providers"(adapter) {
    const user = await adapter.createUser(newUser())
    const github = newAccount(user.id, { provider: "github" })
    const google = newAccount(user.id, { provider: "google", type: "oidc", id_token: `id-${unique()}` })
    await adapter.linkAccount(github)
    await adapter.linkAccount(google)
    assertRecord(await adapter.getUserByAccount(byAccount(github)), { id: user.id }, "getUserByAccount() of the first account")
    assertRecord(await adapter.getUserByAccount(byAccount(google)), { id: user.id }, "getUserByAccount() of the second account")
    assertRecord(await adapter.getAccount(google.providerAccountId, "google"), google, "getAccount() of the second account")
  },

  async "an account is found by provider and providerAccountId together"(adapter) {
    const first = await adapter.createUser(newUser())
    const second = await adapter.createUser(newUser())
    const providerAccountId = unique()
    await adapter.linkAccount(newAccount(first.id, { provider: "github", providerAccountId }))
    await adapter.linkAccount(newAccount(second.id, { provider: "gitlab", providerAccountId }))
    assertRecord(await adapter.getUserByAccount({ provider: "github", providerAccountId }), { id: first.id }, "the github account's user")
    assertRecord(await adapter.getUserByAccount({ provider: "gitlab", providerAccountId }), { id: second.id }, "the gitlab account's user")
    assertRecord(await adapter.getAccount(providerAccountId, "gitlab"), { userId: second.id, provider: "gitlab" }, "getAccount() of the gitlab account")
  },

  async "unlinkAccount removes the link and keeps the user"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    const unlinked = await adapter.unlinkAccount(byAccount(account))
    if (unlinked) assertRecord(unlinked, { provider: account.provider, providerAccountId: account.providerAccountId }, "unlinkAccount()")
    assert.equal(await adapter.getUserByAccount(byAccount(account)), null, "getUserByAccount() after unlinkAccount()")
    assert.equal(await adapter.getAccount(account.providerAccountId, account.provider), null, "getAccount() after unlinkAccount()")
    assertRecord(await adapter.getUser(user.id), { id: user.id }, "the user after unlinkAccount()")
    if (db) assertGone(await db.account(account), "the unlinked account")
  },

  async "an OAuth 1.0a account keeps its oauth_token and oauth_token_secret"(adapter) {
    const user = await adapter.createUser(newUser())
    const account: AdapterAccount = {
      userId: user.id,
      type: "oauth",
      provider: "twitter",
      providerAccountId: unique(),
      oauth_token: `token-${unique()}`,
      oauth_token_secret: `secret-${unique()}`,
    }
    const linked = await adapter.linkAccount(account)
    if (linked) assertRecord(linked, account, "linkAccount()")
    assertRecord(await adapter.getAccount(account.providerAccountId, account.provider), account, "getAccount()")
  },

  async "unlinkAccount of an unknown account returns nothing"(adapter) {
    const key = { provider: "github", providerAccountId: unique() }
    assertNothing(await mustAnswer(() => adapter.unlinkAccount(byAccount(key)), "unlinkAccount()"), "unlinkAccount() of an unknown account")
  },
})

/**
 * `createUserWithAccount`, which writes a first sign-in's user and account in one transaction;
 * skip the group for a store without it (core then calls `createUser` and `linkAccount`).
 */
const userWithAccount = group("user with account", {
  async "createUserWithAccount stores the user and links the account to it"(adapter, db) {
    const input = newUser()
    const id = unique()
    const account = newAccount(id)
    const user = await adapter.createUserWithAccount({ ...input, id }, { ...account })
    assertRecord(user, input, "createUserWithAccount()")
    assert.equal(typeof user.id, "string", "the id is a string")
    assertRecord(await adapter.getUserByAccount(byAccount(account)), { ...input, id: user.id }, "getUserByAccount() of the account")
    assertRecord(await adapter.getAccount(account.providerAccountId, account.provider), { ...account, userId: user.id }, "getAccount()")
    assertRecord(await adapter.getUserByEmail(emailOf(user)), { id: user.id }, "getUserByEmail()")
    if (db) assertStored(await db.account(account), "the linked account")
  },

  async "createUserWithAccount writes neither when the email is taken"(adapter) {
    const owner = await adapter.createUser(newUser())
    const id = unique()
    const account = newAccount(id)
    await assert.rejects(async () => adapter.createUserWithAccount({ ...newUser({ email: owner.email }), id }, { ...account }), "createUserWithAccount() with a taken email")
    assert.equal(await adapter.getAccount(account.providerAccountId, account.provider), null, "the account after the failed createUserWithAccount()")
    assert.equal(await adapter.getUserByAccount(byAccount(account)), null, "getUserByAccount() after the failed createUserWithAccount()")
    assertRecord(await adapter.getUserByEmail(emailOf(owner)), { id: owner.id }, "the email's owner")
  },

  async "createUserWithAccount writes neither when the account is linked already"(adapter) {
    const owner = await adapter.createUser(newUser())
    const account = newAccount(owner.id)
    await adapter.linkAccount(account)
    const input = newUser()
    const id = unique()
    await assert.rejects(async () => adapter.createUserWithAccount({ ...input, id }, { ...account, userId: id }), "createUserWithAccount() of a linked account")
    assert.equal(await adapter.getUserByEmail(emailOf(input)), null, "getUserByEmail() of the new user's email after the failed createUserWithAccount()")
    assertRecord(await adapter.getUserByAccount(byAccount(account)), { id: owner.id }, "the account's user")
  },
})

const cascade = group("cascade on deleteUser", {
  async "deleteUser deletes the user's accounts"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const github = newAccount(user.id, { provider: "github" })
    const google = newAccount(user.id, { provider: "google" })
    await adapter.linkAccount(github)
    await adapter.linkAccount(google)
    await adapter.deleteUser(user.id)
    for (const account of [github, google]) {
      assert.equal(await adapter.getUserByAccount(byAccount(account)), null, `getUserByAccount() of the ${account.provider} account`)
      assert.equal(await adapter.getAccount(account.providerAccountId, account.provider), null, `getAccount() of the ${account.provider} account`)
      if (db) assertGone(await db.account(account), `the ${account.provider} account`)
    }
    // Without store access, a deleted account shows in its key being free again.
    const heir = await adapter.createUser(newUser())
    await mustAnswer(() => adapter.linkAccount({ ...github, userId: heir.id }), "linkAccount() of a deleted user's account")
    assertRecord(await adapter.getUserByAccount(byAccount(github)), { id: heir.id }, "getUserByAccount() after linking it again")
  },

  async "deleteUser deletes the user's sessions"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const sessions = [newSession(user.id), newSession(user.id)]
    for (const session of sessions) await adapter.createSession(session)
    await adapter.deleteUser(user.id)
    for (const session of sessions) {
      assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "getSessionAndUser() after deleteUser()")
      if (db) assertGone(await db.session(session.sessionToken), "the deleted user's session")
    }
    const heir = await adapter.createUser(newUser())
    const [session] = sessions
    assert.ok(session)
    await mustAnswer(() => adapter.createSession({ ...session, userId: heir.id }), "createSession() with a deleted session's token")
    const found = await adapter.getSessionAndUser(session.sessionToken)
    assertRecord(found?.user, { id: heir.id }, "getSessionAndUser() of the new session")
  },

  async "deleteUser leaves other users' accounts and sessions alone"(adapter) {
    const doomed = await adapter.createUser(newUser())
    const kept = await adapter.createUser(newUser())
    const account = newAccount(kept.id)
    const session = newSession(kept.id)
    await adapter.linkAccount(newAccount(doomed.id))
    await adapter.createSession(newSession(doomed.id))
    await adapter.linkAccount(account)
    await adapter.createSession(session)
    await adapter.deleteUser(doomed.id)
    assertRecord(await adapter.getUser(kept.id), { id: kept.id }, "the other user")
    assertRecord(await adapter.getUserByAccount(byAccount(account)), { id: kept.id }, "the other user's account")
    const found = await adapter.getSessionAndUser(session.sessionToken)
    assertRecord(found?.session, session, "the other user's session")
  },
})

const sessions = group("sessions", {
  async "createSession returns the session, expires as a Date"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const session = newSession(user.id)
    assertRecord(await adapter.createSession(session), session, "createSession()")
    if (db) assertStored(await db.session(session.sessionToken), "the created session")
  },

  async "getSessionAndUser returns the session and its user"(adapter) {
    const user = await adapter.createUser(newUser())
    const session = newSession(user.id, { expires: fromNow(MINUTE) })
    await adapter.createSession(session)
    const found = await adapter.getSessionAndUser(session.sessionToken)
    assert.ok(found, "getSessionAndUser() finds the session")
    assertRecord(found.session, session, "getSessionAndUser().session")
    assertRecord(found.user, user, "getSessionAndUser().user")
  },

  async "getSessionAndUser returns null for an unknown token"(adapter) {
    assert.equal(await adapter.getSessionAndUser(unique()), null, "getSessionAndUser() of an unknown token")
  },

  async "getSessionAndUser returns null for an expired session, and deletes it"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const session = newSession(user.id, { expires: fromNow(-MINUTE) })
    await adapter.createSession(session)
    assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "getSessionAndUser() of an expired session")
    if (db) assertGone(await db.session(session.sessionToken), "the expired session")
    const renewed = { ...session, expires: fromNow(DAY) }
    await mustAnswer(() => adapter.createSession(renewed), "createSession() with the expired session's token")
    assertRecord((await adapter.getSessionAndUser(session.sessionToken))?.session, renewed, "the new session")
  },

  async "updateSession moves the expiry and returns the session"(adapter) {
    const user = await adapter.createUser(newUser())
    const session = newSession(user.id)
    await adapter.createSession(session)
    const expires = fromNow(30 * DAY)
    const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires })
    if (updated) assertRecord(updated, { ...session, expires }, "updateSession()")
    const found = await adapter.getSessionAndUser(session.sessionToken)
    assertRecord(found?.session, { ...session, expires }, "getSessionAndUser().session after updateSession()")
  },

  async "deleteSession removes the session and keeps the user"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const session = newSession(user.id)
    await adapter.createSession(session)
    const deleted = await adapter.deleteSession(session.sessionToken)
    if (deleted) assertRecord(deleted, { sessionToken: session.sessionToken }, "deleteSession()")
    assert.equal(await adapter.getSessionAndUser(session.sessionToken), null, "getSessionAndUser() after deleteSession()")
    assertRecord(await adapter.getUser(user.id), { id: user.id }, "the user after deleteSession()")
    if (db) assertGone(await db.session(session.sessionToken), "the deleted session")
  },

  async "updateSession and deleteSession of an unknown token return nothing and create nothing"(adapter) {
    const sessionToken = unique()
    const updated = await mustAnswer(() => adapter.updateSession({ sessionToken, expires: fromNow(DAY) }), "updateSession()")
    assertNothing(updated, "updateSession() of an unknown token")
    assert.equal(await adapter.getSessionAndUser(sessionToken), null, "getSessionAndUser() after updateSession()")
    assertNothing(await mustAnswer(() => adapter.deleteSession(sessionToken), "deleteSession()"), "deleteSession() of an unknown token")
  },
})

const verificationTokens = group("verification tokens", {
  async "useVerificationToken returns the token created, expires as a Date"(adapter, db) {
    const token = newToken()
    const created = await adapter.createVerificationToken(token)
    if (created) assertRecord(created, token, "createVerificationToken()")
    if (db) assertStored(await db.verificationToken(token), "the created token")
    assertRecord(await adapter.useVerificationToken(byToken(token)), token, "useVerificationToken()")
  },

  async "useVerificationToken returns a token once only"(adapter, db) {
    const token = newToken()
    await adapter.createVerificationToken(token)
    assertRecord(await adapter.useVerificationToken(byToken(token)), token, "the first useVerificationToken()")
    assert.equal(await adapter.useVerificationToken(byToken(token)), null, "the second useVerificationToken()")
    if (db) assertGone(await db.verificationToken(token), "the used token")
  },

  async "useVerificationToken returns null for an expired token, and deletes it"(adapter, db) {
    const token = newToken({ expires: fromNow(-MINUTE) })
    await adapter.createVerificationToken(token)
    assert.equal(await adapter.useVerificationToken(byToken(token)), null, "useVerificationToken() of an expired token")
    if (db) assertGone(await db.verificationToken(token), "the expired token")
    const renewed = { ...token, expires: fromNow(DAY) }
    await mustAnswer(() => adapter.createVerificationToken(renewed), "createVerificationToken() with the expired token's value")
    assertRecord(await adapter.useVerificationToken(byToken(token)), renewed, "the token issued again")
  },

  async "useVerificationToken needs the identifier the token was made for"(adapter) {
    const token = newToken()
    await adapter.createVerificationToken(token)
    const stranger = { identifier: `${unique()}@example.com`, token: token.token }
    assert.equal(await adapter.useVerificationToken(byToken(stranger)), null, "useVerificationToken() with another identifier")
    assertRecord(await adapter.useVerificationToken(byToken(token)), token, "useVerificationToken() with the right identifier")
  },

  async "useVerificationToken returns null for an unknown token"(adapter) {
    const token = newToken()
    await adapter.createVerificationToken(token)
    assert.equal(await adapter.useVerificationToken({ identifier: token.identifier, token: unique() }), null, "useVerificationToken() of an unknown token")
  },

  async "tokens for one identifier are used independently"(adapter) {
    const first = newToken()
    const second = newToken({ identifier: first.identifier })
    await adapter.createVerificationToken(first)
    await adapter.createVerificationToken(second)
    assertRecord(await adapter.useVerificationToken(byToken(first)), first, "useVerificationToken() of the first token")
    assertRecord(await adapter.useVerificationToken(byToken(second)), second, "useVerificationToken() of the second token")
  },
})

const verificationTokenDeletion = group("verification token deletion", {
  async "deleteVerificationTokens deletes every token of the identifier, expired ones too, and no other"(adapter, db) {
    const first = newToken()
    const second = newToken({ identifier: first.identifier, expires: fromNow(-MINUTE) })
    const other = newToken()
    for (const token of [first, second, other]) await adapter.createVerificationToken(token)
    assert.equal(await adapter.deleteVerificationTokens(first.identifier), 2, "deleteVerificationTokens() answers how many it deleted")
    if (db) assertGone(await db.verificationToken(first), "a deleted token")
    assert.equal(await adapter.useVerificationToken(byToken(first)), null, "useVerificationToken() of a deleted token")
    assertRecord(await adapter.useVerificationToken(byToken(other)), other, "another identifier's token")
    assert.equal(await adapter.deleteVerificationTokens(first.identifier), 0, "deleteVerificationTokens() of an identifier with none")
  },
})

const uniqueness = group("uniqueness", {
  async "createUser throws for an email another user has"(adapter) {
    const user = await adapter.createUser(newUser())
    await assert.rejects(async () => adapter.createUser(newUser({ email: user.email })), "createUser() with a taken email")
    assertRecord(await adapter.getUserByEmail(emailOf(user)), { id: user.id }, "getUserByEmail() after the failed createUser()")
  },

  async "updateUser throws for an email another user has"(adapter) {
    const first = await adapter.createUser(newUser())
    const second = await adapter.createUser(newUser())
    await assert.rejects(async () => adapter.updateUser({ id: second.id, email: first.email }), "updateUser() to a taken email")
    assertRecord(await adapter.getUserByEmail(emailOf(first)), { id: first.id }, "the email's owner")
    assertRecord(await adapter.getUser(second.id), { email: second.email }, "the other user")
  },

  async "linkAccount throws for an account already linked to the same user"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    await assert.rejects(async () => adapter.linkAccount({ ...account }), "linkAccount() of a linked account")
  },

  async "linkAccount throws for an account already linked to another user"(adapter) {
    const owner = await adapter.createUser(newUser())
    const intruder = await adapter.createUser(newUser())
    const account = newAccount(owner.id)
    await adapter.linkAccount(account)
    await assert.rejects(async () => adapter.linkAccount({ ...account, userId: intruder.id }), "linkAccount() of another user's account")
    assertRecord(await adapter.getUserByAccount(byAccount(account)), { id: owner.id }, "the account's user")
  },

  async "createSession throws for a token that exists"(adapter) {
    const owner = await adapter.createUser(newUser())
    const intruder = await adapter.createUser(newUser())
    const session = newSession(owner.id)
    await adapter.createSession(session)
    await assert.rejects(async () => adapter.createSession({ ...session, userId: intruder.id }), "createSession() with a taken token")
    const found = await adapter.getSessionAndUser(session.sessionToken)
    assertRecord(found?.user, { id: owner.id }, "the session's user")
  },
})

const copies = group("copies", {
  async "changing a returned user does not change the store"(adapter) {
    const input = newUser()
    const created = await adapter.createUser(input)
    const account = newAccount(created.id)
    await adapter.linkAccount(account)
    const expected = structuredClone({ ...input, id: created.id })
    const returned = [
      created,
      await adapter.getUser(expected.id),
      await adapter.getUserByEmail(emailOf(expected)),
      await adapter.getUserByAccount(byAccount(account)),
      await adapter.updateUser({ id: expected.id, name: expected.name }),
    ]
    returned.forEach(tamper)
    assertRecord(await adapter.getUser(expected.id), expected, "the stored user")
  },

  async "changing a user passed in does not change the store"(adapter) {
    const input = newUser()
    const created = await adapter.createUser(input)
    const expected = structuredClone({ ...input, id: created.id })
    tamper(input)
    assertRecord(await adapter.getUser(created.id), expected, "the stored user after its input changed")
    const emailVerified = fromNow(-MINUTE)
    const update = { id: created.id, emailVerified: new Date(emailVerified) }
    await adapter.updateUser(update)
    tamper(update)
    assertRecord(await adapter.getUser(created.id), { ...expected, emailVerified }, "the stored user after the update changed")
  },

  async "changing an account passed in or returned does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const input = newAccount(user.id)
    const expected = { ...input }
    tamper(await adapter.linkAccount(input))
    tamper(input)
    tamper(await adapter.getAccount(expected.providerAccountId, expected.provider))
    assertRecord(await adapter.getAccount(expected.providerAccountId, expected.provider), expected, "the stored account")
  },

  async "changing a session passed in or returned does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const input = newSession(user.id)
    const expected = { ...input, expires: fromNow(7 * DAY) }
    tamper(await adapter.createSession(input))
    tamper(input)
    const update = { sessionToken: expected.sessionToken, expires: new Date(expected.expires) }
    tamper(await adapter.updateSession(update))
    tamper(update)
    const found = await adapter.getSessionAndUser(expected.sessionToken)
    tamper(found?.session)
    tamper(found?.user)
    const again = await adapter.getSessionAndUser(expected.sessionToken)
    assertRecord(again?.session, expected, "the stored session")
    assertRecord(again?.user, user, "the session's user")
  },

  async "changing a verification token passed in or returned does not change the store"(adapter) {
    const input = newToken()
    const expected = { ...input, expires: new Date(input.expires) }
    tamper(await adapter.createVerificationToken(input))
    tamper(input)
    assertRecord(await adapter.useVerificationToken(byToken(expected)), expected, "the stored token")
  },
})

const authenticators = group("authenticators", {
  async "createAuthenticator returns the authenticator and getAuthenticator finds it by credentialID"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(user.id, { counter: 7, credentialBackedUp: false, credentialDeviceType: "singleDevice" })
    assertRecord(await adapter.createAuthenticator(authenticator), authenticator, "createAuthenticator()")
    assertRecord(await adapter.getAuthenticator(authenticator.credentialID), authenticator, "getAuthenticator()")
    if (db?.authenticator) assertStored(await db.authenticator(authenticator.credentialID), "the created authenticator")
  },

  async "an authenticator without transports keeps them unknown"(adapter) {
    const user = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(user.id, { transports: null })
    await adapter.createAuthenticator(authenticator)
    const found = await adapter.getAuthenticator(authenticator.credentialID)
    const { transports: _unknown, ...known } = authenticator
    assertRecord(found, known, "getAuthenticator()")
    assert.ok(found?.transports == null, "getAuthenticator().transports is null or undefined")
  },

  async "getAuthenticator returns null for an unknown credentialID"(adapter) {
    const user = await adapter.createUser(newUser())
    await adapter.createAuthenticator(newAuthenticator(user.id))
    assert.equal(await adapter.getAuthenticator(unique()), null, "getAuthenticator() of an unknown credentialID")
  },

  async "listAuthenticatorsByUserId returns the user's authenticators only"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const mine = [newAuthenticator(user.id), newAuthenticator(user.id, { transports: "usb" })]
    for (const authenticator of [...mine, newAuthenticator(other.id)]) await adapter.createAuthenticator(authenticator)
    const listed = await adapter.listAuthenticatorsByUserId(user.id)
    assert.ok(Array.isArray(listed), "listAuthenticatorsByUserId() returns an array")
    assert.deepEqual(listed.map((found) => found.credentialID).sort(), mine.map((made) => made.credentialID).sort(), "the user's credentialIDs")
    for (const authenticator of mine) {
      assertRecord(listed.find((found) => found.credentialID === authenticator.credentialID), authenticator, "a listed authenticator")
    }
    const lonely = await adapter.createUser(newUser())
    assert.deepEqual(await adapter.listAuthenticatorsByUserId(lonely.id), [], "listAuthenticatorsByUserId() of a user without any")
  },

  async "updateAuthenticatorCounter stores the new counter and returns the authenticator"(adapter) {
    const user = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(user.id, { counter: 1 })
    const untouched = newAuthenticator(user.id, { counter: 1 })
    await adapter.createAuthenticator(authenticator)
    await adapter.createAuthenticator(untouched)
    const expected = { ...authenticator, counter: 2_000_000_000 }
    assertRecord(await adapter.updateAuthenticatorCounter(authenticator.credentialID, expected.counter), expected, "updateAuthenticatorCounter()")
    assertRecord(await adapter.getAuthenticator(authenticator.credentialID), expected, "getAuthenticator() after the update")
    assertRecord(await adapter.getAuthenticator(untouched.credentialID), untouched, "another authenticator after the update")
  },

  async "updateAuthenticatorCounter throws for an unknown credentialID"(adapter) {
    const credentialID = unique()
    await assert.rejects(async () => adapter.updateAuthenticatorCounter(credentialID, 1), "updateAuthenticatorCounter() of an unknown credentialID")
    assert.equal(await adapter.getAuthenticator(credentialID), null, "getAuthenticator() after the failed update")
  },

  async "createAuthenticator throws for a credentialID that exists"(adapter) {
    const owner = await adapter.createUser(newUser())
    const intruder = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(owner.id)
    await adapter.createAuthenticator(authenticator)
    await assert.rejects(
      async () => adapter.createAuthenticator({ ...authenticator, userId: intruder.id, credentialPublicKey: "forged" }),
      "createAuthenticator() with a taken credentialID",
    )
    assertRecord(await adapter.getAuthenticator(authenticator.credentialID), authenticator, "the first authenticator")
  },

  async "deleteUser deletes the user's authenticators"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const kept = await adapter.createUser(newUser())
    const doomed = newAuthenticator(user.id)
    const other = newAuthenticator(kept.id)
    await adapter.createAuthenticator(doomed)
    await adapter.createAuthenticator(other)
    await adapter.deleteUser(user.id)
    assert.equal(await adapter.getAuthenticator(doomed.credentialID), null, "getAuthenticator() after deleteUser()")
    assert.deepEqual(await adapter.listAuthenticatorsByUserId(user.id), [], "listAuthenticatorsByUserId() after deleteUser()")
    if (db?.authenticator) assertGone(await db.authenticator(doomed.credentialID), "the deleted user's authenticator")
    assertRecord(await adapter.getAuthenticator(other.credentialID), other, "another user's authenticator")
  },

  async "changing an authenticator passed in or returned does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const input = newAuthenticator(user.id, { counter: 3 })
    const expected = { ...input }
    tamper(await adapter.createAuthenticator(input))
    tamper(input)
    tamper(await adapter.getAuthenticator(expected.credentialID))
    for (const listed of await adapter.listAuthenticatorsByUserId(expected.userId)) tamper(listed)
    assertRecord(await adapter.getAuthenticator(expected.credentialID), expected, "the stored authenticator")
  },
})

/** Listing, renaming and deleting passkeys (`updateAuthenticator`, `deleteAuthenticator`); skip the group for a store without them. */
const passkeyManagement = group("passkey management", {
  async "createAuthenticator keeps a passkey's name, AAGUID and dates"(adapter) {
    const user = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(user.id, {
      name: "Work laptop",
      aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
      createdAt: fromNow(-DAY),
      lastUsedAt: fromNow(-HOUR),
    })
    await adapter.createAuthenticator(authenticator)
    assertRecord(await adapter.getAuthenticator(authenticator.credentialID), authenticator, "getAuthenticator()")
    assertRecord((await adapter.listAuthenticatorsByUserId(user.id))[0], authenticator, "listAuthenticatorsByUserId()[0]")
  },

  async "updateAuthenticator changes the name and lastUsedAt, and nothing else"(adapter) {
    const user = await adapter.createUser(newUser())
    const authenticator = newAuthenticator(user.id, { counter: 4, name: null, createdAt: fromNow(-DAY), lastUsedAt: fromNow(-DAY) })
    const untouched = newAuthenticator(user.id, { name: "Phone" })
    await adapter.createAuthenticator(authenticator)
    await adapter.createAuthenticator(untouched)
    const renamed = { ...authenticator, name: "Security key" }
    assertRecord(await adapter.updateAuthenticator({ credentialID: authenticator.credentialID, name: "Security key" }), renamed, "updateAuthenticator({ name })")
    const used = { ...renamed, lastUsedAt: fromNow(0) }
    assertRecord(await adapter.updateAuthenticator({ credentialID: authenticator.credentialID, lastUsedAt: used.lastUsedAt }), used, "updateAuthenticator({ lastUsedAt })")
    assertRecord(await adapter.getAuthenticator(authenticator.credentialID), used, "getAuthenticator() after the updates")
    assertRecord(await adapter.getAuthenticator(untouched.credentialID), untouched, "another authenticator after the updates")
  },

  async "updateAuthenticator returns null for an unknown credentialID"(adapter) {
    const credentialID = unique()
    const what = "updateAuthenticator() of an unknown credentialID"
    assertNothing(await mustAnswer(() => adapter.updateAuthenticator({ credentialID, name: "Ghost" }), what), what)
    assert.equal(await adapter.getAuthenticator(credentialID), null, "getAuthenticator() after the update")
  },

  async "deleteAuthenticator deletes that credential only"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const doomed = newAuthenticator(user.id)
    const kept = newAuthenticator(user.id)
    await adapter.createAuthenticator(doomed)
    await adapter.createAuthenticator(kept)
    assertRecord(await adapter.deleteAuthenticator(doomed.credentialID), doomed, "deleteAuthenticator()")
    assert.equal(await adapter.getAuthenticator(doomed.credentialID), null, "getAuthenticator() after deleteAuthenticator()")
    if (db?.authenticator) assertGone(await db.authenticator(doomed.credentialID), "the deleted authenticator")
    const listed = await adapter.listAuthenticatorsByUserId(user.id)
    assert.deepEqual(listed.map((authenticator) => authenticator.credentialID), [kept.credentialID], "listAuthenticatorsByUserId() after deleteAuthenticator()")
    assertRecord(await adapter.getUser(user.id), { id: user.id }, "the user after deleteAuthenticator()")
  },

  async "deleteAuthenticator returns null for an unknown credentialID"(adapter) {
    const what = "deleteAuthenticator() of an unknown credentialID"
    assertNothing(await mustAnswer(() => adapter.deleteAuthenticator(unique()), what), what)
  },
})

/** The key of an account, for comparing listings whatever order the store returns. */
function accountKey(account: Pick<AdapterAccount, "provider" | "providerAccountId">): string {
  return `${account.provider} ${account.providerAccountId}`
}

/**
 * `listAccountsByUserId`, which core reads to keep a user's last way to sign in; skip the group
 * for a store without it.
 */
const accountsByUser = group("accounts by user", {
  async "listAccountsByUserId returns the user's accounts only"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const mine = [newAccount(user.id, { provider: "github" }), newAccount(user.id, { provider: "google", type: "oidc", id_token: `id-${unique()}` })]
    for (const account of [...mine, newAccount(other.id, { provider: "github" })]) await adapter.linkAccount(account)
    const listed = await adapter.listAccountsByUserId(user.id)
    assert.ok(Array.isArray(listed), "listAccountsByUserId() returns an array")
    assert.deepEqual(listed.map(accountKey).sort(), mine.map(accountKey).sort(), "the user's accounts")
    for (const account of mine) assertRecord(listed.find((found) => accountKey(found) === accountKey(account)), account, "a listed account")
    const lonely = await adapter.createUser(newUser())
    assert.deepEqual(await adapter.listAccountsByUserId(lonely.id), [], "listAccountsByUserId() of a user without any")
    assert.deepEqual(await mustAnswer(() => adapter.listAccountsByUserId(unique()), "listAccountsByUserId() of an unknown user"), [], "listAccountsByUserId() of an unknown user")
  },

  async "listAccountsByUserId no longer lists an unlinked account"(adapter) {
    const user = await adapter.createUser(newUser())
    const kept = newAccount(user.id, { provider: "github" })
    const unlinked = newAccount(user.id, { provider: "gitlab" })
    await adapter.linkAccount(kept)
    await adapter.linkAccount(unlinked)
    await adapter.unlinkAccount(byAccount(unlinked))
    assert.deepEqual((await adapter.listAccountsByUserId(user.id)).map(accountKey), [accountKey(kept)], "listAccountsByUserId() after unlinkAccount()")
  },

  async "changing a listed account does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    for (const listed of await adapter.listAccountsByUserId(user.id)) tamper(listed)
    assertRecord((await adapter.listAccountsByUserId(user.id))[0], account, "the stored account")
  },
})

/** Rejects when `promise` has not settled within `ms`: a lock that never lets go fails the case, not the run. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new assert.AssertionError({ message: `${what} did not finish within ${ms} ms` }))
    }, ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * The least a lock case waits before it calls a step held back, before the time scale: a
 * correct in-memory step takes microseconds, and 250 ms still covers a stalled event loop.
 */
const LOCK_WAIT_FLOOR_MS = 250

/** How many times its uncontended duration a step may take under the lock before it counts as held back. */
const LOCK_WAIT_FACTOR = 50

/**
 * What a lock case waits for a step that must not be held back: a multiple of what the same
 * step took uncontended in this case (so a slow store gets a long wait and a fast one a short
 * one), never less than the scaled floor. A lock that never lets go can only be told from a slow
 * one by time; this sizes that time to the store instead of a fixed 5 s per case.
 */
function lockWait(uncontendedMs: number): number {
  return Math.ceil(Math.max(scaled(LOCK_WAIT_FLOOR_MS), uncontendedMs * LOCK_WAIT_FACTOR))
}

/** Runs `step` and answers how long it took, in milliseconds. */
async function timed(step: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await step()
  return performance.now() - start
}

const accountRefresh = group("account refresh", {
  async "updateAccount writes the fields given and keeps the others"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    const expiresAt = Math.floor(Date.now() / 1000) + 7200
    const fields = { access_token: `access-${unique()}`, refresh_token: `refresh-${unique()}`, expires_at: expiresAt, refresh_token_expires_at: expiresAt + 86_400 }
    const updated = await adapter.updateAccount({ ...byAccount(account), ...fields })
    assertRecord(updated, { ...account, ...fields }, "updateAccount()")
    assertRecord(await adapter.getAccount(account.providerAccountId, account.provider), { ...account, ...fields }, "getAccount() after updateAccount()")
  },

  async "updateAccount clears a field given as undefined"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    await adapter.updateAccount({ ...byAccount(account), expires_at: undefined })
    const stored: unknown = await adapter.getAccount(account.providerAccountId, account.provider)
    assertRecord(stored, { access_token: account.access_token, scope: account.scope }, "getAccount() after clearing expires_at")
    const expiresAt = (stored as { expires_at?: unknown }).expires_at
    assert.ok(expiresAt === undefined || expiresAt === null, "expires_at is cleared")
  },

  async "updateAccount changes that account only, and returns null for an unknown one"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    const other = newAccount(user.id, { provider: "gitlab", providerAccountId: account.providerAccountId })
    await adapter.linkAccount(account)
    await adapter.linkAccount(other)
    await adapter.updateAccount({ ...byAccount(account), access_token: "changed" })
    assertRecord(await adapter.getAccount(other.providerAccountId, "gitlab"), other, "the other provider's account")
    assert.equal(await adapter.updateAccount({ provider: "github", providerAccountId: unique(), access_token: "x" }), null, "updateAccount() of an unknown account")
  },

  async "withAccountLock runs one critical section of an account at a time, and answers what it answers"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    let inside = 0
    let most = 0
    const critical = (n: number) => async () => {
      inside++
      most = Math.max(most, inside)
      await pause(30)
      inside--
      return n
    }
    const answers = await within(5000, "three critical sections", Promise.all([1, 2, 3].map((n) => adapter.withAccountLock(byAccount(account), critical(n)))))
    assert.deepEqual(answers, [1, 2, 3], "each caller gets its own section's answer")
    assert.equal(most, 1, "never two sections of one account at once")
  },

  async "withAccountLock does not hold other accounts back"(adapter) {
    const user = await adapter.createUser(newUser())
    const first = newAccount(user.id)
    const second = newAccount(user.id)
    await adapter.linkAccount(first)
    await adapter.linkAccount(second)
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => (release = resolve))
    const alone = await timed(() => adapter.withAccountLock(byAccount(second), () => Promise.resolve()))
    const holding = adapter.withAccountLock(byAccount(first), () => released)
    await within(lockWait(alone), "a section of another account while one is held", adapter.withAccountLock(byAccount(second), () => Promise.resolve()))
    release()
    await holding
  },

  async "withAccountLock lets go when the critical section rejects"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    const failure = new Error("the provider is down")
    const alone = await timed(() => assert.rejects(adapter.withAccountLock(byAccount(account), () => Promise.reject(failure)), (error) => error === failure, "the section's rejection"))
    assert.equal(await within(lockWait(alone), "the next section", adapter.withAccountLock(byAccount(account), () => Promise.resolve("next"))), "next")
  },

  async "getAccount and updateAccount work inside withAccountLock"(adapter) {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    const alone = await timed(async () => {
      await adapter.withAccountLock(byAccount(account), () => Promise.resolve())
      await adapter.updateAccount({ ...byAccount(account), access_token: "outside" })
      await adapter.getAccount(account.providerAccountId, account.provider)
    })
    const stored = await within(
      lockWait(alone),
      "a read and a write inside the lock",
      adapter.withAccountLock(byAccount(account), async () => {
        await adapter.updateAccount({ ...byAccount(account), access_token: "inside" })
        return adapter.getAccount(account.providerAccountId, account.provider)
      }),
    )
    assertRecord(stored, { access_token: "inside" }, "the account read inside the lock")
  },
})

/** The ids of session records, sorted, for comparing listings whatever order the store returns. */
function recordIds(records: readonly Pick<AdapterSessionRecord, "id">[]): string[] {
  return records.map((record) => record.id).sort()
}

/** Checks a record's listing: an array holding exactly `expected`, each with its fields. */
function assertListed(actual: unknown, expected: readonly AdapterSessionRecord[], what: string): void {
  assert.ok(Array.isArray(actual), `${what} returns an array`)
  const listed = actual as AdapterSessionRecord[]
  assert.deepEqual(recordIds(listed), recordIds(expected), `${what} lists these records`)
  for (const record of expected) assertRecord(listed.find((found) => found.id === record.id), record, `${what}: record ${record.id}`)
}

/**
 * Session records (`createSessionRecord`, `getSessionRecord`, `listSessionRecords`,
 * `updateSessionRecord`): this project's addition, which back-channel logout needs; skip the
 * group for a store without them (Auth.js's adapters).
 */
const sessionRecords = group("session records", {
  async "createSessionRecord stores every field, and getSessionRecord returns it with its Dates"(adapter) {
    const user = await adapter.createUser(newUser())
    const record = newSessionRecord(user.id, { revokedAt: fromNow(-MINUTE) })
    assertRecord(await adapter.createSessionRecord({ ...record }), record, "createSessionRecord()")
    assertRecord(await adapter.getSessionRecord(record.id), record, "getSessionRecord()")
  },

  async "createSessionRecord stores the optional fields left out as null"(adapter) {
    const user = await adapter.createUser(newUser())
    const { id, userId, createdAt, lastSeenAt, expires } = newSessionRecord(user.id)
    const record = { id, userId, createdAt, lastSeenAt, expires }
    const nulls = { sessionToken: null, provider: null, providerSid: null, userAgent: null, clientAddress: null, revokedAt: null, signedInAt: null, authTime: null, authMethods: null }
    assertRecord(await adapter.createSessionRecord(record), { ...record, ...nulls }, "createSessionRecord() of the required fields")
    assertRecord(await adapter.getSessionRecord(id), { ...record, ...nulls }, "getSessionRecord() of the required fields")
  },

  async "getSessionRecord returns null for an unknown id"(adapter) {
    const user = await adapter.createUser(newUser())
    await adapter.createSessionRecord(newSessionRecord(user.id))
    const what = "getSessionRecord() of an unknown id"
    assert.equal(await mustAnswer(() => adapter.getSessionRecord(unique()), what), null, what)
  },

  async "createSessionRecord throws for an id that exists, and keeps the first record"(adapter) {
    const owner = await adapter.createUser(newUser())
    const intruder = await adapter.createUser(newUser())
    const record = newSessionRecord(owner.id)
    await adapter.createSessionRecord(record)
    await assert.rejects(async () => adapter.createSessionRecord(newSessionRecord(intruder.id, { id: record.id })), "createSessionRecord() with a taken id")
    assertRecord(await adapter.getSessionRecord(record.id), record, "the first record")
  },

  async "createSessionRecord stores a record for a user the store does not keep (a credentials sign-in), listed by that id"(adapter) {
    // An `authorize` callback answers users from elsewhere, with ids of any shape.
    for (const userId of [`credentials-${unique()}`, `${String(Date.now())}${String(Math.floor(Math.random() * 1e6))}`, crypto.randomUUID()]) {
      const record = newSessionRecord(userId, { sessionToken: null })
      assertRecord(await adapter.createSessionRecord(record), record, `createSessionRecord() of user id ${userId}`)
      assertRecord(await adapter.getSessionRecord(record.id), record, `getSessionRecord() of user id ${userId}`)
      assertListed(await adapter.listSessionRecords({ userId }), [record], `listSessionRecords({ userId }) of user id ${userId}`)
    }
  },

  async "listSessionRecords by userId lists the user's records, revoked and expired ones included"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const mine = [
      newSessionRecord(user.id),
      newSessionRecord(user.id, { revokedAt: fromNow(-MINUTE), sessionToken: null }),
      newSessionRecord(user.id, { createdAt: fromNow(-2 * DAY), lastSeenAt: fromNow(-2 * DAY), expires: fromNow(-DAY) }),
    ]
    const theirs = newSessionRecord(other.id, { provider: mine[0]?.provider, providerSid: mine[0]?.providerSid })
    for (const record of [...mine, theirs]) await adapter.createSessionRecord(record)
    assertListed(await adapter.listSessionRecords({ userId: user.id }), mine, "listSessionRecords({ userId })")
    const lonely = await adapter.createUser(newUser())
    assertListed(await adapter.listSessionRecords({ userId: lonely.id }), [], "listSessionRecords() of a user without any")
    const what = "listSessionRecords() of an unknown user"
    assertListed(await mustAnswer(() => adapter.listSessionRecords({ userId: unique() }), what), [], what)
  },

  async "listSessionRecords by provider and providerSid lists that provider session's records only"(adapter) {
    const user = await adapter.createUser(newUser())
    const providerSid = unique()
    const started = [
      newSessionRecord(user.id, { providerSid }),
      newSessionRecord(user.id, { providerSid, revokedAt: fromNow(-MINUTE) }),
      newSessionRecord(user.id, { providerSid, expires: fromNow(-HOUR) }),
    ]
    const others = [
      newSessionRecord(user.id),
      newSessionRecord(user.id, { provider: "other-idp", providerSid }),
      newSessionRecord(user.id, { provider: null, providerSid: null }),
    ]
    for (const record of [...started, ...others]) await adapter.createSessionRecord(record)
    assertListed(await adapter.listSessionRecords({ provider: "idp", providerSid }), started, "listSessionRecords({ provider, providerSid })")
    const what = "listSessionRecords() of an unknown provider session"
    assertListed(await mustAnswer(() => adapter.listSessionRecords({ provider: "idp", providerSid: unique() }), what), [], what)
  },

  async "updateSessionRecord writes lastSeenAt, expires and revokedAt, and nothing else"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const record = newSessionRecord(user.id)
    const untouched = newSessionRecord(user.id)
    await adapter.createSessionRecord(record)
    await adapter.createSessionRecord(untouched)
    const seen = { ...record, lastSeenAt: fromNow(0) }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, lastSeenAt: seen.lastSeenAt }), seen, "updateSessionRecord({ lastSeenAt })")
    const extended = { ...seen, expires: fromNow(2 * DAY) }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, expires: extended.expires }), extended, "updateSessionRecord({ expires })")
    const revoked = { ...extended, revokedAt: fromNow(0) }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, revokedAt: revoked.revokedAt }), revoked, "updateSessionRecord({ revokedAt })")
    // Fields the contract does not let an update write, as a careless caller might pass them.
    const forged = { id: record.id, userId: other.id, createdAt: fromNow(-2 * DAY), sessionToken: "forged", provider: "forged", providerSid: "forged", userAgent: "forged", clientAddress: "forged" }
    assertRecord(await adapter.updateSessionRecord(forged), revoked, "updateSessionRecord() of fields it must not write")
    assertRecord(await adapter.getSessionRecord(record.id), revoked, "getSessionRecord() after the updates")
    assertRecord(await adapter.getSessionRecord(untouched.id), untouched, "another record after the updates")
  },

  async "updateSessionRecord writes a database session's assurance (signedInAt, authTime, authMethods), and a patch without it keeps it"(adapter) {
    const user = await adapter.createUser(newUser())
    // Written before the assurance existed: core fills it on the session's first read.
    const record = newSessionRecord(user.id, { signedInAt: null, authTime: null, authMethods: null })
    await adapter.createSessionRecord(record)
    const upgraded = { ...record, signedInAt: fromNow(0), authMethods: [] }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, signedInAt: upgraded.signedInAt, authMethods: [] }), upgraded, "updateSessionRecord({ signedInAt, authMethods: [] })")
    const raised = { ...upgraded, authTime: fromNow(0), authMethods: ["pwd", "otp", "mfa"] }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, authTime: raised.authTime, authMethods: raised.authMethods }), raised, "updateSessionRecord({ authTime, authMethods })")
    const seen = { ...raised, lastSeenAt: fromNow(0) }
    assertRecord(await adapter.updateSessionRecord({ id: record.id, lastSeenAt: seen.lastSeenAt }), seen, "updateSessionRecord({ lastSeenAt }) after the assurance")
    assertRecord(await adapter.getSessionRecord(record.id), seen, "getSessionRecord() after the assurance was written")
    assertListed(await adapter.listSessionRecords({ userId: user.id }), [seen], "listSessionRecords() after the assurance was written")
  },

  async "updateSessionRecord with revokedAt null un-revokes the record"(adapter) {
    const user = await adapter.createUser(newUser())
    const record = newSessionRecord(user.id, { revokedAt: fromNow(-MINUTE) })
    await adapter.createSessionRecord(record)
    assertRecord(await adapter.updateSessionRecord({ id: record.id, revokedAt: null }), { ...record, revokedAt: null }, "updateSessionRecord({ revokedAt: null })")
    assertRecord(await adapter.getSessionRecord(record.id), { ...record, revokedAt: null }, "getSessionRecord() after un-revoking")
  },

  async "updateSessionRecord returns null for an unknown id, and creates nothing"(adapter) {
    const id = unique()
    const what = "updateSessionRecord() of an unknown id"
    assert.equal(await mustAnswer(() => adapter.updateSessionRecord({ id, lastSeenAt: fromNow(0), expires: fromNow(DAY), revokedAt: null }), what), null, what)
    assert.equal(await adapter.getSessionRecord(id), null, "getSessionRecord() after the update")
  },

  async "deleteUser deletes the user's session records"(adapter) {
    const user = await adapter.createUser(newUser())
    const kept = await adapter.createUser(newUser())
    const doomed = newSessionRecord(user.id)
    const other = newSessionRecord(kept.id)
    await adapter.createSessionRecord(doomed)
    await adapter.createSessionRecord(other)
    await adapter.deleteUser(user.id)
    assert.equal(await adapter.getSessionRecord(doomed.id), null, "getSessionRecord() after deleteUser()")
    assertListed(await adapter.listSessionRecords({ userId: user.id }), [], "listSessionRecords({ userId }) after deleteUser()")
    assertListed(await adapter.listSessionRecords({ provider: "idp", providerSid: doomed.providerSid ?? "" }), [], "listSessionRecords({ provider, providerSid }) after deleteUser()")
    assertRecord(await adapter.getSessionRecord(other.id), other, "another user's record")
  },

  async "changing a session record passed in or returned does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const input = newSessionRecord(user.id, { revokedAt: fromNow(-MINUTE) })
    const expected = structuredClone(input)
    tamper(await adapter.createSessionRecord(input))
    tamper(input)
    tamper(await adapter.getSessionRecord(expected.id))
    for (const listed of await adapter.listSessionRecords({ userId: expected.userId })) tamper(listed)
    tamper(await adapter.updateSessionRecord({ id: expected.id, lastSeenAt: expected.lastSeenAt }))
    assertRecord(await adapter.getSessionRecord(expected.id), expected, "the stored record")
  },
})

/** How many callers race for one key in the atomicity case. */
const RACERS = 20

/** `useOnce`, the replay check of single-use values; skip the group for a store without it. */
const singleUseKeys = group("single-use keys", {
  async "useOnce answers true for a new key, then false for it"(adapter) {
    const key = `jti:${unique()}`
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), true, "useOnce() of a new key")
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), false, "useOnce() of the key again")
    assert.equal(await adapter.useOnce(key, fromNow(2 * HOUR)), false, "useOnce() of the key a third time")
  },

  async "useOnce answers true again once the key expired"(adapter) {
    // A key kept until a moment already past has expired by the next call, without a wait.
    const key = `jti:${unique()}`
    assert.equal(await adapter.useOnce(key, fromNow(-MINUTE)), true, "useOnce() of a new key, kept until a minute ago")
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), true, "useOnce() of the key after it expired")
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), false, "useOnce() of the key stored again")
  },

  async "useOnce keeps each key apart"(adapter) {
    const key = `jti:${unique()}`
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), true, "useOnce() of a key")
    for (const other of [`${key}x`, key.slice(0, -1), key.toUpperCase(), unique()]) {
      assert.equal(await adapter.useOnce(other, fromNow(HOUR)), true, `useOnce() of another key (${other})`)
    }
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), false, "useOnce() of the first key again")
  },

  async "useOnce is atomic: of concurrent uses of one key, exactly one answers true"(adapter) {
    const key = `jti:${unique()}`
    const answers = await within(10_000, `${RACERS} concurrent useOnce()`, Promise.all(Array.from({ length: RACERS }, async () => adapter.useOnce(key, fromNow(HOUR)))))
    assert.equal(answers.filter((answer) => answer).length, 1, `of ${RACERS} concurrent uses, the ones that answered true`)
    assert.equal(await adapter.useOnce(key, fromNow(HOUR)), false, "useOnce() of the key afterwards")
  },
})

/** A confirmed TOTP factor of `userId`, with every field set; `secret` shaped as core seals one. */
function newAuthFactor(userId: string, fields: Partial<AdapterAuthFactor> = {}): AdapterAuthFactor {
  return {
    id: unique(),
    userId,
    type: "totp",
    secret: `v1.k${unique()}.${"A-_z09".repeat(24)}`,
    createdAt: fromNow(-DAY),
    confirmedAt: fromNow(-HOUR),
    lastUsedStep: 59_000_000,
    failures: 3,
    lockedAt: null,
    ...fields,
  }
}

/** `count` backup codes of `userId`, each stored as a keyed hash. */
function newBackupCodes(userId: string, count = 10): AdapterAuthFactor[] {
  return Array.from({ length: count }, () => ({ id: unique(), userId, type: "backup" as const, secret: `h1.${unique()}`, createdAt: fromNow(-MINUTE) }))
}

/** The optional fields of a factor created without them. */
const FACTOR_DEFAULTS = { confirmedAt: null, lastUsedStep: null, failures: 0, lockedAt: null }

/** Checks a listing of factors: an array holding exactly `expected` (by id), each with its fields. */
function assertFactors(actual: unknown, expected: readonly AdapterAuthFactor[], what: string): void {
  assert.ok(Array.isArray(actual), `${what} returns an array`)
  const listed = actual as AdapterAuthFactor[]
  assert.deepEqual(listed.map((factor) => factor.id).sort(), expected.map((factor) => factor.id).sort(), `${what} lists these factors`)
  for (const factor of expected) assertRecord(listed.find((found) => found.id === factor.id), factor, `${what}: factor ${factor.id}`)
}

/** The one factor of `id` among the user's, as the store now has it. */
async function storedFactor(adapter: Required<StrictAdapter>, userId: string, id: string): Promise<AdapterAuthFactor | undefined> {
  return (await adapter.listAuthFactors(userId)).find((factor) => factor.id === id)
}

/**
 * Second factors (`AuthFactorMethods`): this project's addition, which `mfa` needs; skip the group
 * for a store without them (Auth.js's adapters). The atomic cases race {@link RACERS} callers.
 */
const authFactors = group("auth factors", {
  async "createAuthFactor stores every field, and listAuthFactors returns it with its Dates"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id, { lockedAt: fromNow(-MINUTE) })
    assertRecord(await adapter.createAuthFactor({ ...factor }), factor, "createAuthFactor()")
    assertFactors(await adapter.listAuthFactors(user.id), [factor], "listAuthFactors()")
  },

  async "createAuthFactor stores the optional fields left out as null, and failures as 0"(adapter) {
    const user = await adapter.createUser(newUser())
    const { id, userId, type, secret, createdAt } = newAuthFactor(user.id)
    const factor = { id, userId, type, secret, createdAt }
    assertRecord(await adapter.createAuthFactor(factor), { ...factor, ...FACTOR_DEFAULTS }, "createAuthFactor() of the required fields")
    assertFactors(await adapter.listAuthFactors(user.id), [{ ...factor, ...FACTOR_DEFAULTS }], "listAuthFactors() of the required fields")
  },

  async "createAuthFactor keeps the secret exactly as given"(adapter) {
    const user = await adapter.createUser(newUser())
    // What core hands the store: a sealed value, a tagged keyed hash, long and punctuated.
    const secrets = [`v1.${"a".repeat(400)}`, "h1.k7:Zm9v-YmFy_YmF6.==", " leading and trailing spaces ", "ÄÖÜ ünïcödé €"]
    const factors = secrets.map((secret) => newAuthFactor(user.id, { secret, type: "backup" }))
    for (const factor of factors) await adapter.createAuthFactor(factor)
    assertFactors(await adapter.listAuthFactors(user.id), factors, "listAuthFactors() of odd secrets")
  },

  async "createAuthFactor throws for an id that exists, and keeps the first factor"(adapter) {
    const owner = await adapter.createUser(newUser())
    const intruder = await adapter.createUser(newUser())
    const factor = newAuthFactor(owner.id)
    await adapter.createAuthFactor(factor)
    await assert.rejects(async () => adapter.createAuthFactor(newAuthFactor(intruder.id, { id: factor.id })), "createAuthFactor() with a taken id")
    assertFactors(await adapter.listAuthFactors(owner.id), [factor], "the owner's factors")
    assertFactors(await adapter.listAuthFactors(intruder.id), [], "the intruder's factors")
  },

  async "createAuthFactor stores a factor for a user id the store does not keep, listed by that id"(adapter) {
    // A credentials sign-in's user comes from the app's `authorize`, with an id of any shape.
    for (const userId of [`credentials-${unique()}`, String(Date.now()), crypto.randomUUID()]) {
      const factor = newAuthFactor(userId)
      assertRecord(await adapter.createAuthFactor(factor), factor, `createAuthFactor() of user id ${userId}`)
      assertFactors(await adapter.listAuthFactors(userId), [factor], `listAuthFactors() of user id ${userId}`)
    }
  },

  async "listAuthFactors lists the user's factors of every type, and no one else's"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const mine = [newAuthFactor(user.id), ...newBackupCodes(user.id, 3)]
    const theirs = [newAuthFactor(other.id), ...newBackupCodes(other.id, 2)]
    for (const factor of [...mine, ...theirs]) await adapter.createAuthFactor(factor)
    assertFactors(await adapter.listAuthFactors(user.id), mine, "listAuthFactors() of the user")
    const what = "listAuthFactors() of an unknown user"
    assertFactors(await mustAnswer(() => adapter.listAuthFactors(unique()), what), [], what)
  },

  async "updateAuthFactor writes confirmedAt and lockedAt, null clears them, and nothing else changes"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id, { confirmedAt: null })
    const untouched = newAuthFactor(user.id)
    await adapter.createAuthFactor(factor)
    await adapter.createAuthFactor(untouched)
    const confirmed = { ...factor, confirmedAt: fromNow(0) }
    assertRecord(await adapter.updateAuthFactor({ id: factor.id, confirmedAt: confirmed.confirmedAt }), confirmed, "updateAuthFactor({ confirmedAt })")
    const locked = { ...confirmed, lockedAt: fromNow(0) }
    assertRecord(await adapter.updateAuthFactor({ id: factor.id, lockedAt: locked.lockedAt }), locked, "updateAuthFactor({ lockedAt })")
    const unlocked = { ...locked, lockedAt: null }
    assertRecord(await adapter.updateAuthFactor({ id: factor.id, lockedAt: null }), unlocked, "updateAuthFactor({ lockedAt: null })")
    // Fields the contract does not let an update write, as a careless caller might pass them.
    const forged = { id: factor.id, userId: other.id, type: "backup", secret: "forged", createdAt: fromNow(-2 * DAY), lastUsedStep: 1, failures: 99 }
    assertRecord(await adapter.updateAuthFactor(forged), unlocked, "updateAuthFactor() of fields it must not write")
    assertFactors(await adapter.listAuthFactors(user.id), [unlocked, untouched], "listAuthFactors() after the updates")
    assertFactors(await adapter.listAuthFactors(other.id), [], "the other user's factors after the updates")
  },

  async "updateAuthFactor returns null for an unknown id, and creates nothing"(adapter) {
    const what = "updateAuthFactor() of an unknown id"
    const userId = unique()
    assert.equal(await mustAnswer(() => adapter.updateAuthFactor({ id: unique(), confirmedAt: fromNow(0), lockedAt: null }), what), null, what)
    assertFactors(await adapter.listAuthFactors(userId), [], "listAuthFactors() after the update")
  },

  async "deleteAuthFactor answers true once, then false, and deletes that factor only"(adapter) {
    const user = await adapter.createUser(newUser())
    const [doomed, ...kept] = newBackupCodes(user.id, 3)
    for (const factor of [doomed, ...kept]) if (factor) await adapter.createAuthFactor(factor)
    if (!doomed) throw new Error("newBackupCodes() made none")
    assert.equal(await adapter.deleteAuthFactor(doomed.id), true, "deleteAuthFactor() of a stored factor")
    assert.equal(await adapter.deleteAuthFactor(doomed.id), false, "deleteAuthFactor() of it again")
    const what = "deleteAuthFactor() of an unknown id"
    assert.equal(await mustAnswer(() => adapter.deleteAuthFactor(unique()), what), false, what)
    assertFactors(await adapter.listAuthFactors(user.id), kept, "listAuthFactors() after the delete")
  },

  async "deleteAuthFactor is atomic: of concurrent deletes of one factor, exactly one answers true (a backup code spent once)"(adapter) {
    const user = await adapter.createUser(newUser())
    const [code] = newBackupCodes(user.id, 1)
    if (!code) throw new Error("newBackupCodes() made none")
    await adapter.createAuthFactor(code)
    const answers = await within(10_000, `${RACERS} concurrent deleteAuthFactor()`, Promise.all(Array.from({ length: RACERS }, async () => adapter.deleteAuthFactor(code.id))))
    assert.equal(answers.filter((answer) => answer).length, 1, `of ${RACERS} concurrent deletes, the ones that answered true`)
    assertFactors(await adapter.listAuthFactors(user.id), [], "listAuthFactors() after the race")
  },

  async "useAuthFactorStep accepts a later step once, never the same or an earlier one, and resets failures (RFC 6238 §5.2)"(adapter) {
    const user = await adapter.createUser(newUser())
    const fresh = newAuthFactor(user.id, { lastUsedStep: null, failures: 4 })
    await adapter.createAuthFactor(fresh)
    assert.equal(await adapter.useAuthFactorStep(fresh.id, 100), true, "useAuthFactorStep() of a factor without a used step")
    assertRecord(await storedFactor(adapter, user.id, fresh.id), { lastUsedStep: 100, failures: 0 }, "the factor after its first step")
    await adapter.countAuthFactorFailure(fresh.id)
    assert.equal(await adapter.useAuthFactorStep(fresh.id, 100), false, "useAuthFactorStep() of the same step")
    assert.equal(await adapter.useAuthFactorStep(fresh.id, 99), false, "useAuthFactorStep() of an earlier step")
    assertRecord(await storedFactor(adapter, user.id, fresh.id), { lastUsedStep: 100, failures: 1 }, "the factor after refused steps")
    assert.equal(await adapter.useAuthFactorStep(fresh.id, 101), true, "useAuthFactorStep() of the next step")
    assertRecord(await storedFactor(adapter, user.id, fresh.id), { lastUsedStep: 101, failures: 0 }, "the factor after the next step")
    assert.equal(await adapter.useAuthFactorStep(fresh.id, 0), false, "useAuthFactorStep() of step 0")
    const what = "useAuthFactorStep() of an unknown id"
    assert.equal(await mustAnswer(() => adapter.useAuthFactorStep(unique(), 100), what), false, what)
  },

  async "useAuthFactorStep keeps each factor's steps apart"(adapter) {
    const user = await adapter.createUser(newUser())
    const first = newAuthFactor(user.id, { lastUsedStep: 500 })
    const second = newAuthFactor(user.id, { lastUsedStep: 500 })
    await adapter.createAuthFactor(first)
    await adapter.createAuthFactor(second)
    assert.equal(await adapter.useAuthFactorStep(first.id, 501), true, "step 501 of the first factor")
    assert.equal(await adapter.useAuthFactorStep(second.id, 501), true, "step 501 of the second factor")
  },

  async "useAuthFactorStep refuses a step that is not a non-negative integer"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id)
    await adapter.createAuthFactor(factor)
    for (const step of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "600" as unknown as number]) {
      await assert.rejects(async () => adapter.useAuthFactorStep(factor.id, step), TypeError, `useAuthFactorStep() of ${String(step)}`)
    }
    assertRecord(await storedFactor(adapter, user.id, factor.id), { lastUsedStep: factor.lastUsedStep }, "the factor after refused steps")
  },

  async "useAuthFactorStep is atomic: of concurrent uses of one step, exactly one answers true"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id)
    await adapter.createAuthFactor(factor)
    const step = (factor.lastUsedStep ?? 0) + 1
    const answers = await within(10_000, `${RACERS} concurrent useAuthFactorStep()`, Promise.all(Array.from({ length: RACERS }, async () => adapter.useAuthFactorStep(factor.id, step))))
    assert.equal(answers.filter((answer) => answer).length, 1, `of ${RACERS} concurrent uses of step ${step}, the ones that answered true`)
    assertRecord(await storedFactor(adapter, user.id, factor.id), { lastUsedStep: step }, "the factor after the race")
  },

  async "useAuthFactorStep is atomic: of concurrent earlier and later steps, none is accepted after a later one"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id)
    await adapter.createAuthFactor(factor)
    const base = (factor.lastUsedStep ?? 0) + 1
    // Each step twice, interleaved: the previous, current and next steps of a TOTP window.
    const steps = Array.from({ length: RACERS }, (_, i) => base + ((i * 7) % 3))
    const answers = await within(10_000, `${RACERS} concurrent useAuthFactorStep()`, Promise.all(steps.map(async (step) => adapter.useAuthFactorStep(factor.id, step))))
    const accepted = steps.filter((_, i) => answers[i])
    assert.equal(new Set(accepted).size, accepted.length, `each step accepted at most once (accepted: ${accepted.join(", ")})`)
    assert.ok(accepted.includes(base + 2), `the latest step is accepted (accepted: ${accepted.join(", ")})`)
    assertRecord(await storedFactor(adapter, user.id, factor.id), { lastUsedStep: base + 2 }, "the factor after the race")
    for (const step of [base, base + 1, base + 2]) assert.equal(await adapter.useAuthFactorStep(factor.id, step), false, `useAuthFactorStep() of step ${step} after the race`)
  },

  async "countAuthFactorFailure adds one and answers the new count"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id, { failures: 0 })
    const other = newAuthFactor(user.id, { failures: 0 })
    await adapter.createAuthFactor(factor)
    await adapter.createAuthFactor(other)
    assert.equal(await adapter.countAuthFactorFailure(factor.id), 1, "the first failure")
    assert.equal(await adapter.countAuthFactorFailure(factor.id), 2, "the second failure")
    assertRecord(await storedFactor(adapter, user.id, factor.id), { failures: 2 }, "the factor after two failures")
    assertRecord(await storedFactor(adapter, user.id, other.id), { failures: 0 }, "another factor")
    const what = "countAuthFactorFailure() of an unknown id"
    assert.equal(await mustAnswer(() => adapter.countAuthFactorFailure(unique()), what), 0, what)
  },

  async "countAuthFactorFailure is atomic: concurrent failures each count, each answering its own count"(adapter) {
    const user = await adapter.createUser(newUser())
    const factor = newAuthFactor(user.id, { failures: 0 })
    await adapter.createAuthFactor(factor)
    const counts = await within(10_000, `${RACERS} concurrent countAuthFactorFailure()`, Promise.all(Array.from({ length: RACERS }, async () => adapter.countAuthFactorFailure(factor.id))))
    assert.deepEqual([...counts].sort((a, b) => a - b), Array.from({ length: RACERS }, (_, i) => i + 1), `the counts ${RACERS} concurrent failures answered`)
    assertRecord(await storedFactor(adapter, user.id, factor.id), { failures: RACERS }, "the factor after the race")
  },

  async "replaceAuthFactors replaces the user's factors of that type only"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const totp = newAuthFactor(user.id)
    const old = newBackupCodes(user.id)
    const theirs = newBackupCodes(other.id, 2)
    for (const factor of [totp, ...old, ...theirs]) await adapter.createAuthFactor(factor)
    const fresh = newBackupCodes(user.id)
    await adapter.replaceAuthFactors(user.id, "backup", fresh.map((factor) => ({ ...factor })))
    assertFactors(await adapter.listAuthFactors(user.id), [totp, ...fresh.map((factor) => ({ ...factor, ...FACTOR_DEFAULTS }))], "listAuthFactors() after the replace")
    assertFactors(await adapter.listAuthFactors(other.id), theirs, "another user's factors")
    await adapter.replaceAuthFactors(user.id, "backup", [])
    assertFactors(await adapter.listAuthFactors(user.id), [totp], "listAuthFactors() after replacing with none")
  },

  async "replaceAuthFactors is all or nothing: a taken id leaves the user's factors as they were"(adapter) {
    const user = await adapter.createUser(newUser())
    const other = await adapter.createUser(newUser())
    const old = newBackupCodes(user.id, 3)
    const theirs = newAuthFactor(other.id)
    for (const factor of [...old, theirs]) await adapter.createAuthFactor(factor)
    const clash = [...newBackupCodes(user.id, 3), ...newBackupCodes(user.id, 1).map((factor) => ({ ...factor, id: theirs.id }))]
    await assert.rejects(async () => adapter.replaceAuthFactors(user.id, "backup", clash), "replaceAuthFactors() with an id another factor has")
    assertFactors(await adapter.listAuthFactors(user.id), old, "the user's factors after the failed replace")
    assertFactors(await adapter.listAuthFactors(other.id), [theirs], "the other user's factor after the failed replace")
  },

  async "replaceAuthFactors refuses factors of another user or type, and changes nothing"(adapter) {
    const user = await adapter.createUser(newUser())
    const old = newBackupCodes(user.id, 2)
    for (const factor of old) await adapter.createAuthFactor(factor)
    const strangers = [...newBackupCodes(user.id, 1), ...newBackupCodes(unique(), 1)]
    await assert.rejects(async () => adapter.replaceAuthFactors(user.id, "backup", strangers), "replaceAuthFactors() with another user's factor")
    await assert.rejects(async () => adapter.replaceAuthFactors(user.id, "backup", [newAuthFactor(user.id)]), "replaceAuthFactors() with a factor of another type")
    assertFactors(await adapter.listAuthFactors(user.id), old, "the user's factors after the refusals")
  },

  async "replaceAuthFactors is atomic: of concurrent replaces, exactly one's factors remain"(adapter) {
    const user = await adapter.createUser(newUser())
    const totp = newAuthFactor(user.id)
    for (const factor of [totp, ...newBackupCodes(user.id)]) await adapter.createAuthFactor(factor)
    const sets = Array.from({ length: 4 }, () => newBackupCodes(user.id))
    await within(10_000, "concurrent replaceAuthFactors()", Promise.all(sets.map(async (set) => adapter.replaceAuthFactors(user.id, "backup", set))))
    const backups = (await adapter.listAuthFactors(user.id)).filter((factor) => factor.type === "backup")
    const winner = sets.find((set) => set.some((factor) => factor.id === backups[0]?.id))
    assert.ok(winner !== undefined, "the remaining backup codes are one call's")
    assertFactors(backups, winner, "the backup codes after the race")
    assertRecord(await storedFactor(adapter, user.id, totp.id), totp, "the TOTP factor after the race")
  },

  async "deleteUser deletes the user's factors"(adapter) {
    const user = await adapter.createUser(newUser())
    const kept = await adapter.createUser(newUser())
    for (const factor of [newAuthFactor(user.id), ...newBackupCodes(user.id, 2)]) await adapter.createAuthFactor(factor)
    const other = newAuthFactor(kept.id)
    await adapter.createAuthFactor(other)
    await adapter.deleteUser(user.id)
    assertFactors(await adapter.listAuthFactors(user.id), [], "listAuthFactors() after deleteUser()")
    assertFactors(await adapter.listAuthFactors(kept.id), [other], "another user's factors")
  },

  async "changing a factor passed in or returned does not change the store"(adapter) {
    const user = await adapter.createUser(newUser())
    const input = newAuthFactor(user.id, { lockedAt: fromNow(-MINUTE) })
    const expected = structuredClone(input)
    tamper(await adapter.createAuthFactor(input))
    tamper(input)
    for (const listed of await adapter.listAuthFactors(user.id)) tamper(listed)
    tamper(await adapter.updateAuthFactor({ id: expected.id }))
    const codes = newBackupCodes(user.id, 2)
    const stored = structuredClone(codes)
    await adapter.replaceAuthFactors(user.id, "backup", codes)
    for (const code of codes) tamper(code)
    assertFactors(await adapter.listAuthFactors(user.id), [expected, ...stored], "the stored factors")
  },
})

/** A PHC string as core makes one (its salt and hash vary), with the characters a column must keep. */
function newPasswordHash(): string {
  const bytes = (length: number): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(length)))).replace(/=+$/u, "")
  return `$scrypt$ln=14,r=8,p=5$${bytes(16)}$${bytes(32)}`
}

/**
 * Password hashes (`PasswordMethods`): this project's addition, which `Password()` needs; skip the
 * group for a store without them (an app on such a store gives `Password({ store })` its own).
 */
const passwordHashes = group("password hashes", {
  async "setPasswordHash stores a hash that getPasswordHash returns exactly as given"(adapter) {
    const user = await adapter.createUser(newUser())
    const hash = newPasswordHash()
    await adapter.setPasswordHash(user.id, hash)
    assert.equal(await adapter.getPasswordHash(user.id), hash, "getPasswordHash() after setPasswordHash()")
    const long = `$scrypt$ln=14,r=8,p=5$${"A+/b".repeat(40)}$${"z9+/".repeat(60)}`
    await adapter.setPasswordHash(user.id, long)
    assert.equal(await adapter.getPasswordHash(user.id), long, "getPasswordHash() of a long hash with + and /")
  },

  async "getPasswordHash returns null for a user without one, and for an unknown user id"(adapter) {
    const user = await adapter.createUser(newUser())
    assert.equal(await adapter.getPasswordHash(user.id), null, "getPasswordHash() of a user without a hash")
    assert.equal(await adapter.getPasswordHash(unique()), null, "getPasswordHash() of an unknown user id")
  },

  async "setPasswordHash replaces the user's hash and no other user's"(adapter) {
    const [user, other] = [await adapter.createUser(newUser()), await adapter.createUser(newUser())]
    const [first, second, theirs] = [newPasswordHash(), newPasswordHash(), newPasswordHash()]
    await adapter.setPasswordHash(other.id, theirs)
    await adapter.setPasswordHash(user.id, first)
    await adapter.setPasswordHash(user.id, second)
    assert.equal(await adapter.getPasswordHash(user.id), second, "getPasswordHash() after a second setPasswordHash()")
    assert.equal(await adapter.getPasswordHash(other.id), theirs, "another user's hash")
  },

  async "setPasswordHash throws for an unknown user id, and stores nothing"(adapter) {
    const id = unique()
    await assert.rejects(async () => adapter.setPasswordHash(id, newPasswordHash()), "setPasswordHash() of an unknown user id")
    assert.equal(await adapter.getPasswordHash(id), null, "getPasswordHash() after the refused set")
  },

  async "setPasswordHash is atomic: of concurrent sets for one user, one hash remains whole"(adapter) {
    const user = await adapter.createUser(newUser())
    const hashes = Array.from({ length: 8 }, newPasswordHash)
    await within(10_000, "concurrent setPasswordHash()", Promise.all(hashes.map(async (hash) => adapter.setPasswordHash(user.id, hash))))
    const kept = await adapter.getPasswordHash(user.id)
    assert.ok(kept !== null && hashes.includes(kept), "the remaining hash is one call's, whole")
  },

  async "no user read carries the hash"(adapter, db) {
    const user = await adapter.createUser(newUser())
    const hash = newPasswordHash()
    await adapter.setPasswordHash(user.id, hash)
    const reads = { getUser: await adapter.getUser(user.id), getUserByEmail: await adapter.getUserByEmail(emailOf(user)), stored: await db?.user(user.id) }
    for (const [read, value] of Object.entries(reads)) assert.ok(!JSON.stringify(value ?? null).includes(hash.split("$")[5] ?? hash), `${read} holds the hash`)
  },

  async "deleteUser deletes the user's password hash"(adapter) {
    const [user, kept] = [await adapter.createUser(newUser()), await adapter.createUser(newUser())]
    const theirs = newPasswordHash()
    await adapter.setPasswordHash(user.id, newPasswordHash())
    await adapter.setPasswordHash(kept.id, theirs)
    await adapter.deleteUser(user.id)
    assert.equal(await adapter.getPasswordHash(user.id), null, "getPasswordHash() after deleteUser()")
    assert.equal(await adapter.getPasswordHash(kept.id), theirs, "another user's hash")
  },
})

/** Every conformance case, in order, grouped by the part of the contract it checks. */
export const cases: readonly AdapterTestCase[] = [
  ...users,
  ...accounts,
  ...userWithAccount,
  ...cascade,
  ...sessions,
  ...verificationTokens,
  ...verificationTokenDeletion,
  ...uniqueness,
  ...copies,
  ...authenticators,
  ...passkeyManagement,
  ...accountsByUser,
  ...accountRefresh,
  ...sessionRecords,
  ...singleUseKeys,
  ...authFactors,
  ...passwordHashes,
]
