/**
 * The Adapter contract: how `@portcullis/core` keeps users, accounts, sessions and verification
 * tokens in a store. Every method may be left out when the configured features never call it;
 * `Auth()` checks at configuration time that the ones it needs exist.
 *
 * @module adapters
 */
import type { Awaitable, ProviderType } from "./model.js"

export type { Awaitable } from "./model.js"

/**
 * What a delete, link or unlink of an {@link Adapter} may answer: the record, or nothing at all.
 * Auth.js's contract allows a `Promise<void>` there, and its adapters return one; a wrapper
 * that passes on another adapter's answer returns a `Promise<T | void>`, allowed too.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- `void` is the point: Auth.js's adapters answer `Promise<void>`.
export type AwaitableOrNothing<T> = Awaitable<T | void>

/** A user's fields, before the store assigns an id. */
export interface NewAdapterUser {
  /** `null` when the provider shared no email; such users are never matched by email. */
  email: string | null
  emailVerified: Date | null
  name?: string | null
  image?: string | null
  [claim: string]: unknown
}

/**
 * A user as the store keeps it, with whatever further claims it keeps. Apps declare the ones
 * they read by augmenting this interface.
 *
 * @example
 * ```ts
 * declare module "@portcullis/core/adapters" {
 *   interface AdapterUser { role?: "admin" | "member" }
 * }
 * ```
 */
export interface AdapterUser extends NewAdapterUser {
  id: string
}

/**
 * The user {@link Adapter}'s methods take and return: {@link AdapterUser}'s fields, with no index
 * signature, so Auth.js's `AdapterUser` (an interface without one) is one.
 *
 * A type alias on purpose, not an interface: TypeScript lets an object type alias stand for a
 * type with an index signature (so an adapter whose `createUser` takes a {@link NewAdapterUser},
 * as {@link StrictAdapter}'s does, is still an {@link Adapter}), but never an interface.
 */
export type AdapterUserFields = {
  id: string
  /** `null` when the provider shared no email (Auth.js types it `string`). */
  email: string | null
  emailVerified: Date | null
  name?: string | null
  image?: string | null
}

/** The kinds of provider an account can be linked through (credentials sign-ins keep no account). */
export type AdapterAccountType = Extract<ProviderType, "oauth" | "oidc" | "email" | "webauthn">

/** A link between a user and one account at a provider, with the tokens the provider issued. */
export interface AdapterAccount {
  userId: string
  type: AdapterAccountType
  provider: string
  providerAccountId: string
  access_token?: string
  refresh_token?: string
  id_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
  session_state?: string
  /** OAuth 1.0a accounts: the access token the provider issued. */
  oauth_token?: string
  /** OAuth 1.0a accounts: the secret that signs requests made with `oauth_token`. */
  oauth_token_secret?: string
  /**
   * When `refresh_token` stops working, in seconds since the epoch: recorded when the provider
   * answers a token request with `refresh_token_expires_in` (GitHub apps, Microsoft SPAs).
   */
  refresh_token_expires_at?: number
  [field: string]: unknown
}

/** Which account an account method is about: its provider and the id it has there. */
export type AdapterAccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/** A database session: the random token kept in the session cookie, and when it expires. */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
}

/** A single-use token for passwordless sign-in (stored hashed). */
export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

/**
 * A WebAuthn credential (a passkey) registered by a user, as the store keeps it.
 *
 * @see https://www.w3.org/TR/webauthn-3/#credential-record
 */
export interface AdapterAuthenticator {
  /** The credential id, base64url-encoded; unique across all users. */
  credentialID: string
  userId: string
  /** The `providerAccountId` of the `webauthn` account this credential signs in to. */
  providerAccountId: string
  /** The credential's COSE public key, base64url-encoded. */
  credentialPublicKey: string
  /** The signature counter last seen, to detect a cloned authenticator. */
  counter: number
  /** `"singleDevice"` or `"multiDevice"` (a synced passkey). */
  credentialDeviceType: string
  /** Whether the credential is backed up (synced) by its provider. */
  credentialBackedUp: boolean
  /** How the client can reach the authenticator, comma-separated (`"internal,hybrid"`), if known. */
  transports?: string | null
  /** The name the user gave the passkey, if any. */
  name?: string | null
  /** The authenticator model's AAGUID (names the password manager or key that holds it), if known. */
  aaguid?: string | null
  /** When the passkey was registered, if known. */
  createdAt?: Date | null
  /** When the passkey last signed in, if known. */
  lastUsedAt?: Date | null
}

// An ISO 8601 date-time as `Date.prototype.toJSON()` writes it, with or without milliseconds,
// seconds, and with `Z` or a numeric offset.
const ISO_DATE_TIME = /^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-][0-2]\d:[0-5]\d)$/

/**
 * Whether a value is an ISO 8601 date-time string, as Dates become in JSON: for adapters that
 * store records as JSON and must turn such fields back into Dates when reading.
 *
 * @example
 * ```ts
 * import { isDate } from "@portcullis/core/adapters"
 * const user = JSON.parse(text, (_key, value: unknown) => (isDate(value) ? new Date(value) : value))
 * ```
 */
export function isDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
}

/**
 * The store behind users, accounts, sessions and verification tokens: what
 * `AuthConfig.adapter` accepts.
 *
 * It is Auth.js's `Adapter` contract (with this project's optional additions), so Auth.js's
 * published adapters (`PrismaAdapter(prisma)`, `DrizzleAdapter(db)`, `KyselyAdapter(db)`,
 * `PostgresAdapter(pool)` from `@auth/pg-adapter`, `UnstorageAdapter(storage)`...) and an adapter
 * written for Auth.js fit as they are: `deleteUser`, `linkAccount`, `unlinkAccount` and
 * `deleteSession` may answer nothing. To write a new adapter, implement {@link StrictAdapter},
 * which every answer is spelled out for and which `@portcullis/adapter-test` checks.
 *
 * Methods return `null` (lookups) or nothing (deletes, unlinks, updates of sessions) for "not
 * found", and throw only for real failures, which `Auth()` turns into an `AdapterError`.
 * Accounts and sessions always belong to an existing user. Every method may be left out when
 * the configured features never call it; `Auth()` checks at configuration time that the ones
 * it needs exist.
 *
 * @example
 * ```ts
 * import { PrismaAdapter } from "@auth/prisma-adapter"
 * Auth(request, { adapter: PrismaAdapter(prisma), providers, secret })
 * ```
 */
export interface Adapter {
  /** Stores a new user; `user.id` is a fresh random id, which the store may keep or replace with its own. */
  createUser?(user: AdapterUserFields): Awaitable<AdapterUserFields>
  /**
   * Stores a new user and links its first account in one transaction: both are written, or,
   * when either write fails (an email another user has, an account already linked, a lost
   * connection), neither is. `user` is as for `createUser`; `account.userId` is `user.id`, and a
   * store that assigns its own user ids links the account to the id it assigned. Returns the user.
   *
   * Optional, and this project's extension (Auth.js's adapters do not have it): the first sign-in
   * with a provider account calls it instead of `createUser` then `linkAccount`, so a process
   * that dies between the two leaves no user without its account. Without it, core makes the
   * two calls; a user left without any account is completed by that person's next sign-in
   * through a provider that verifies the address (see the core README's "Adapters").
   */
  createUserWithAccount?(user: AdapterUserFields, account: AdapterAccount): Awaitable<AdapterUserFields>
  getUser?(id: string): Awaitable<AdapterUserFields | null>
  getUserByEmail?(email: string): Awaitable<AdapterUserFields | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUserFields | null>
  /** Returns the updated user; throws when no user has the id. */
  updateUser?(user: Partial<AdapterUserFields> & Pick<AdapterUserFields, "id">): Awaitable<AdapterUserFields>
  /** Deletes the user and, in cascade, their accounts, sessions and authenticators. */
  deleteUser?(userId: string): AwaitableOrNothing<AdapterUserFields | null | undefined>
  linkAccount?(account: AdapterAccount): AwaitableOrNothing<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): AwaitableOrNothing<AdapterAccount | undefined>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /**
   * Every account linked to the user (an empty array for none, or for an unknown user).
   *
   * Optional, and this project's extension (Auth.js's adapters do not have it): core calls it
   * to keep a user's last way to sign in before deleting a passkey (without it, core counts
   * only the user's other passkeys and a verified email, so it may refuse a deletion a linked
   * OAuth account would have allowed, never the reverse), for `getAccessToken` and
   * `revokeTokensOnSignOut`, and to list and unlink a user's accounts (`GET /accounts`,
   * `POST /accounts/unlink`), which answer a `Configuration` error without it.
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Stores new token fields on an account (after a refresh): each field given is written, a
   * field left out keeps its value. Returns the updated account, or `null` when no account has
   * that key.
   *
   * Optional, and this project's extension: `getAccessToken` calls it when it refreshes a
   * provider's access token, and throws a `Configuration` error naming it when it is missing.
   */
  updateAccount?(account: AdapterAccountKey & Partial<Omit<AdapterAccount, "userId" | "provider" | "providerAccountId">>): Awaitable<AdapterAccount | null>
  /**
   * Runs `critical` while holding a lock on the account that every instance sharing the store
   * respects, and answers what it answers (or rejects with what it rejects with). The lock is
   * released when `critical` settles, or when the holder dies (a lost connection): never held
   * for longer than one refresh.
   *
   * Optional, and this project's extension: `getAccessToken` runs a token refresh inside it, so
   * that only one instance spends a refresh token and the others read the tokens it stored.
   * Inside `critical`, core calls `getAccount` and `updateAccount`, which must not wait for this
   * lock (PostgreSQL: an advisory lock, not a row lock). Without it, refreshes are single-flight
   * within one process only, and core warns once.
   */
  withAccountLock?<T>(account: AdapterAccountKey, critical: () => Promise<T>): Promise<T>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUserFields } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): AwaitableOrNothing<AdapterSession | null | undefined>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, so it can be used once only. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /**
   * Deletes every token stored for `identifier` (expired ones included); answers how many it
   * deleted (`0` for none). This project's extension (Auth.js's adapters do not have it): an
   * email change (`POST /account/email`) calls it so that only the newest link works, and so do
   * "sign out everywhere" (a pending change ends) and account deletion (the address's outstanding
   * sign-in links end). Without it, `/account/email` answers a `Configuration` error naming it.
   */
  deleteVerificationTokens?(identifier: string): AwaitableOrNothing<number>
  /** Stores a new WebAuthn credential; throws when its `credentialID` exists. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /** Every credential of the user (an empty array for none, or for an unknown user). */
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /** Stores the signature counter of a sign-in; throws when no credential has the id. */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /**
   * Changes a credential's `name` or `lastUsedAt`; returns it, or `null` when no credential has
   * the id. This project's extension, as is `deleteAuthenticator`.
   */
  updateAuthenticator?(
    authenticator: Pick<AdapterAuthenticator, "credentialID"> & Partial<Pick<AdapterAuthenticator, "name" | "lastUsedAt">>,
  ): Awaitable<AdapterAuthenticator | null>
  /** Deletes a credential; returns it, or `null` when no credential has the id. */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createSessionRecord?: SessionRecordMethods["createSessionRecord"]
  getSessionRecord?: SessionRecordMethods["getSessionRecord"]
  listSessionRecords?: SessionRecordMethods["listSessionRecords"]
  updateSessionRecord?: SessionRecordMethods["updateSessionRecord"]
  useOnce?: SessionRecordMethods["useOnce"]
  createAuthFactor?: AuthFactorMethods["createAuthFactor"]
  listAuthFactors?: AuthFactorMethods["listAuthFactors"]
  updateAuthFactor?: AuthFactorMethods["updateAuthFactor"]
  deleteAuthFactor?: AuthFactorMethods["deleteAuthFactor"]
  useAuthFactorStep?: AuthFactorMethods["useAuthFactorStep"]
  countAuthFactorFailure?: AuthFactorMethods["countAuthFactorFailure"]
  replaceAuthFactors?: AuthFactorMethods["replaceAuthFactors"]
  getPasswordHash?: PasswordMethods["getPasswordHash"]
  setPasswordHash?: PasswordMethods["setPasswordHash"]
}

/**
 * The contract to write a new adapter against: {@link Adapter} with every answer spelled out.
 * Users come back as {@link AdapterUser}s with all the claims the store keeps; deletes, unlinks
 * and links answer what they removed or stored (or nothing for "not found"), never a bare
 * `Promise<void>`. `@portcullis/adapter-memory` and `@portcullis/adapter-pg` implement it, and
 * `@portcullis/adapter-test` checks those answers at run time. Every `StrictAdapter` is an
 * `Adapter`, so it goes in `AuthConfig.adapter` as it is.
 *
 * @example
 * ```ts
 * import type { StrictAdapter } from "@portcullis/core/adapters"
 *
 * export function MyAdapter(client: MyClient): StrictAdapter {
 *   return {
 *     async deleteSession(sessionToken) {
 *       return (await client.sessions.delete(sessionToken)) ?? null
 *     },
 *   }
 * }
 * ```
 */
export interface StrictAdapter extends Adapter {
  /** Stores a new user under an id of the store's choice (or the `id` passed, if it keeps it); returns it. */
  createUser?(user: NewAdapterUser): Awaitable<AdapterUser>
  /** Stores a new user and links its first account in one transaction (both, or neither); returns the user. */
  createUserWithAccount?(user: NewAdapterUser, account: AdapterAccount): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  /** Returns the updated user; throws when no user has the id. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes the user and, in cascade, their accounts, sessions and authenticators; answers nothing for an unknown id. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterAccount | undefined>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined>
  /** Deletes every token stored for `identifier`; answers how many it deleted. */
  deleteVerificationTokens?(identifier: string): Awaitable<number>
}

/**
 * One signed-in session as the user and core track it, whatever the session strategy: created at
 * each sign-in when the adapter has `createSessionRecord`. A JWT session carries its `id` (the
 * `sessionId` claim) and is refused once the record is revoked; a database session's record
 * names its `sessionToken`, whose row is deleted on revocation.
 */
export interface AdapterSessionRecord {
  /** Random and opaque: never the session token. */
  id: string
  userId: string
  createdAt: Date
  /** When the session was last seen (at sign-in, then as it rolls). */
  lastSeenAt: Date
  expires: Date
  /** A database session's token: the row a revocation deletes. `null` for a JWT session. */
  sessionToken?: string | null
  /** The provider the user signed in with. */
  provider?: string | null
  /** The provider's session id (OpenID Connect `sid`) at sign-in, which back-channel logout names. */
  providerSid?: string | null
  /** The device's user agent (at most 256 characters), described in the user's list of sessions. */
  userAgent?: string | null
  /** The client's address at sign-in, when the app resolves one; `null` otherwise. */
  clientAddress?: string | null
  /** When the session was revoked; a revoked session is refused from then on. */
  revokedAt?: Date | null
  /**
   * A database session's assurance (`session.assurance`), kept on its record: when it began, which
   * never moves (for a session that predates the field, its first read after the upgrade). `null`
   * for a JWT session, which carries its assurance in its cookie, and for a record written before
   * the field existed.
   */
  signedInAt?: Date | null
  /** When the user last authenticated in that session (the sign-in, or a later re-authentication); `null` when unknown. */
  authTime?: Date | null
  /** How the user authenticated (`session.assurance.methods`: `"fed"`, `"pwd"`, `"otp"`, `"mfa"`...), in order. */
  authMethods?: string[] | null
}

/** What `updateSessionRecord` may write: the record's id, and any of these fields. */
export type SessionRecordUpdate = Pick<AdapterSessionRecord, "id"> &
  Partial<Pick<AdapterSessionRecord, "lastSeenAt" | "expires" | "revokedAt" | "signedInAt" | "authTime" | "authMethods">>

/** Which session records to list: a user's, or those started in one provider session. */
export type SessionRecordFilter = { userId: string } | { provider: string; providerSid: string }

/**
 * What core keeps in the adapter's store to track sessions across instances: their records,
 * and the single-use keys a replay check needs. Optional, and this project's extension
 * (Auth.js's adapters have none): back-channel logout needs all of them, and `Auth()` refuses
 * `backchannelLogout` at start, naming the missing ones.
 */
export interface SessionRecordMethods {
  /** Stores a new session record; answers it. */
  createSessionRecord(record: AdapterSessionRecord): Awaitable<AdapterSessionRecord>
  /** The record with that id, or `null`. */
  getSessionRecord(id: string): Awaitable<AdapterSessionRecord | null>
  /**
   * The records matching the filter, revoked and expired ones included (an empty array for none).
   * A user's records need not belong to a stored user: a credentials sign-in the store does not
   * keep gets one too, so a user id matches by value, without a foreign key.
   */
  listSessionRecords(filter: SessionRecordFilter): Awaitable<AdapterSessionRecord[]>
  /**
   * Writes the fields given (`lastSeenAt`, `expires`, `revokedAt`, and a database session's
   * assurance: `signedInAt`, `authTime`, `authMethods`), leaving the others as they are; answers
   * the record, or `null` when no record has the id.
   */
  updateSessionRecord(record: SessionRecordUpdate): Awaitable<AdapterSessionRecord | null>
  /**
   * Stores `key` until `expires` if no unexpired one is stored, atomically across instances;
   * answers `true` when it was stored now, `false` when it was already there. The replay check of
   * single-use values (a logout token's `jti`).
   */
  useOnce(key: string, expires: Date): Awaitable<boolean>
}

/**
 * A user's second factor as the store keeps it (see {@link AuthFactorMethods}): a TOTP
 * authenticator, or one backup code.
 */
export interface AdapterAuthFactor {
  /** Random and opaque, chosen by core. */
  id: string
  /** Matched by value, without a foreign key to users (as session records are). */
  userId: string
  /** `"totp"`: an RFC 6238 authenticator app; `"backup"`: one single-use backup code. */
  type: "totp" | "backup"
  /**
   * Opaque to the store: a TOTP secret sealed by core, or a backup code's keyed hash. Core never
   * hands the store either in the clear; the store keeps the string exactly as given.
   */
  secret: string
  createdAt: Date
  /** When the user confirmed the factor with a first code; a TOTP factor gates sign-in only once confirmed. `null` until then. */
  confirmedAt?: Date | null
  /** TOTP: the last RFC 6238 time step accepted, so that no step is accepted twice. `null` before the first. */
  lastUsedStep?: number | null
  /** Wrong codes since the last accepted one. `0` for a new factor. */
  failures?: number
  /** When the factor was locked after too many wrong codes; `null` when it is not. */
  lockedAt?: Date | null
}

/**
 * What core keeps in the adapter's store for second factors (`AuthConfig.mfa`): TOTP
 * authenticators and backup codes, with the counters that make each code count once across
 * instances. Optional, and this project's extension (Auth.js's adapters have none): `Auth()`
 * refuses `mfa` at start with an adapter that lacks any of them (or the
 * {@link SessionRecordMethods}), naming the missing ones. An app on an Auth.js adapter adds them
 * from `@portcullis/adapter-pg` on the same database (see the core README's "Second factors").
 *
 * The atomic methods (`deleteAuthFactor`, `useAuthFactorStep`, `countAuthFactorFailure`,
 * `replaceAuthFactors`) must hold across every instance sharing the store: of concurrent callers,
 * each answer is what one caller alone would have got, one after the other.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2 (a time step is accepted once)
 */
export interface AuthFactorMethods {
  /**
   * Stores a new factor: the optional fields left out as `null` (`failures` as `0`). Answers it;
   * throws when a factor with its `id` exists.
   */
  createAuthFactor(factor: AdapterAuthFactor): Awaitable<AdapterAuthFactor>
  /** The user's factors of every type, in any order (an empty array for none, or for an unknown user). */
  listAuthFactors(userId: string): Awaitable<AdapterAuthFactor[]>
  /**
   * Writes the fields given (`confirmedAt`, `lockedAt`; `null` clears one) and nothing else;
   * answers the factor, or `null` when no factor has the id.
   */
  updateAuthFactor(patch: Pick<AdapterAuthFactor, "id"> & Partial<Pick<AdapterAuthFactor, "confirmedAt" | "lockedAt">>): Awaitable<AdapterAuthFactor | null>
  /**
   * Deletes the factor; answers `true` only to the one call that removed it (`false` for an
   * unknown id, or when another call removed it first): consuming a backup code once, whichever
   * instance asks first.
   */
  deleteAuthFactor(id: string): Awaitable<boolean>
  /**
   * Atomically: when `step` is greater than the factor's `lastUsedStep` (or it has none), stores
   * `step` as its `lastUsedStep`, sets `failures` to `0` and answers `true`; otherwise (an equal or
   * lower step, an unknown id) changes nothing and answers `false`. So of concurrent calls with
   * one step, one answers `true`, and a step is never accepted after a later one.
   *
   * @throws {TypeError} when `step` is not a non-negative integer.
   */
  useAuthFactorStep(id: string, step: number): Awaitable<boolean>
  /**
   * Atomically adds one to the factor's `failures` and answers the new count (`0` for an unknown
   * id): of concurrent calls, each counts, and each answers a different count.
   */
  countAuthFactorFailure(id: string): Awaitable<number>
  /**
   * In one transaction: deletes the user's factors of `type` and stores `factors` (regenerating
   * backup codes). All or nothing: when any write fails (a taken id), the user's factors stay as
   * they were; of concurrent calls for one user and type, the factors of exactly one remain.
   *
   * @throws {Error} when a factor of `factors` is of another user or type, or its id is taken.
   */
  replaceAuthFactors(userId: string, type: AdapterAuthFactor["type"], factors: AdapterAuthFactor[]): Awaitable<void>
}

/**
 * Where the `Password()` provider keeps each user's password hash, apart from the user, its
 * accounts and every other record: a PHC string (`$scrypt$ln=14,r=8,p=5$<salt>$<hash>`) that is
 * opaque to the store, which keeps it exactly as given. So the hash never travels with a user, an
 * account, a callback's or event's arguments, or `GET /accounts`.
 *
 * Optional, and this project's extension (Auth.js's adapters have none): an app on an Auth.js
 * adapter gives `Password({ store })` its own `get` and `set` on a table of its database instead
 * (see the core README's "Password accounts"). `deleteUser` deletes the user's hash with the user.
 */
export interface PasswordMethods {
  /** The user's stored hash, or `null` when the user has none (or is unknown). */
  getPasswordHash(userId: string): Awaitable<string | null>
  /**
   * Stores `hash` as the user's, replacing any they had (a reset, a change, a re-hash at a new
   * cost): of concurrent calls for one user, one hash remains whole. Throws when no user has the id.
   */
  setPasswordHash(userId: string, hash: string): Awaitable<void>
}

/** The adapter methods password storage needs (see {@link PasswordMethods}). */
export const PASSWORD_METHODS: readonly AdapterMethod[] = ["getPasswordHash", "setPasswordHash"]

/** Names of the adapter's methods. */
export type AdapterMethod = keyof Adapter

/** The adapter methods a sign-in with a provider account calls (the linking rules of `signInAccount`): what an OAuth or OAuth 1.0a flow declares. */
export const ACCOUNT_SIGN_IN_METHODS: readonly AdapterMethod[] = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser", "linkAccount"]

/** The adapter methods session records need (see {@link SessionRecordMethods}). */
export const SESSION_RECORD_METHODS: readonly AdapterMethod[] = ["createSessionRecord", "getSessionRecord", "listSessionRecords", "updateSessionRecord", "useOnce"]

/** Whether the adapter keeps session records: it has every method of {@link SessionRecordMethods}. */
export function keepsSessionRecords(adapter: Adapter | undefined): adapter is Adapter & SessionRecordMethods {
  return adapter !== undefined && SESSION_RECORD_METHODS.every((method) => typeof adapter[method] === "function")
}
