/**
 * The Adapter contract: how `@auth/core` keeps users, accounts, sessions and verification
 * tokens in a store. Every method may be left out when the configured features never call it;
 * `Auth()` checks at configuration time that the ones it needs exist.
 *
 * @module adapters
 */
import type { ProviderType } from "./providers/index.js"

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** A user's fields, before the store assigns an id. */
export interface NewAdapterUser {
  /** `null` when the provider shared no email; such users are never matched by email. */
  email: string | null
  emailVerified: Date | null
  name?: string | null
  image?: string | null
  [claim: string]: unknown
}

/** A user as the store keeps it. */
export interface AdapterUser extends NewAdapterUser {
  id: string
}

/** A link between a user and one account at a provider, with the tokens the provider issued. */
export interface AdapterAccount {
  userId: string
  type: Extract<ProviderType, "oauth" | "oidc" | "email" | "webauthn">
  provider: string
  providerAccountId: string
  access_token?: string
  refresh_token?: string
  id_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
  session_state?: string
  [field: string]: unknown
}

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
 * The store behind users, accounts, sessions and verification tokens.
 *
 * Methods return `null` (lookups) or nothing (deletes, unlinks, updates of sessions) for "not
 * found", and throw only for real failures, which `Auth()` turns into an `AdapterError`.
 * Accounts and sessions always belong to an existing user.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "@auth/adapter-memory"
 * Auth(request, { adapter: MemoryAdapter(), providers, secret })
 * ```
 */
export interface Adapter {
  createUser?(user: NewAdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  /** Returns the updated user; throws when no user has the id. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes the user and, in cascade, their accounts and sessions; answers nothing for an unknown id. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterAccount | undefined>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, so it can be used once only. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
}

/** Names of the adapter's methods. */
export type AdapterMethod = keyof Adapter
