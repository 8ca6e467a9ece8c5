/**
 * Who signs in: with an adapter, the account-linking rules decide whether an OAuth account
 * signs in its user, creates a new one, links to the signed-in user, or is refused.
 */
import type { Adapter, AdapterAccount, AdapterUser } from "./adapters.js"
import type { InternalConfig } from "./config.js"
import { AdapterError, OAuthAccountNotLinked } from "./errors.js"
import { emit } from "./events.js"
import type { Account, Profile, User } from "./providers/index.js"
import { callAdapter } from "./store.js"

/** The outcome of {@link findUser}: the stored user, if the account or email is known. */
export interface KnownUser {
  /** The user the account already belongs to. */
  accountUser: AdapterUser | null
}

/** Looks up the user an OAuth account already belongs to. */
export async function findUser(adapter: Adapter, account: Account): Promise<KnownUser> {
  const accountUser = await callAdapter(adapter, "getUserByAccount", {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  })
  return { accountUser: accountUser ?? null }
}

function isStoredUser(value: unknown): value is AdapterUser {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
}

function toAdapterAccount(account: Account, userId: string): AdapterAccount {
  return { ...account, userId, type: account.type as AdapterAccount["type"] }
}

async function link(config: InternalConfig, adapter: Adapter, user: AdapterUser, account: Account, profile: User): Promise<void> {
  await callAdapter(adapter, "linkAccount", toAdapterAccount(account, user.id))
  await emit(config, "linkAccount", { user, account, profile })
}

/**
 * Applies the account-linking rules and returns the user to sign in.
 *
 * - A known account signs in its user (when someone is signed in, only if it is theirs).
 * - While signed in, a new account is linked to the signed-in user.
 * - Otherwise, an email already used by another user is refused (rule R1) unless the
 *   provider sets `allowDangerousEmailAccountLinking`.
 * - Otherwise a user is created and the account linked; if linking fails the new user is
 *   deleted again, so nothing half-done is left and a retry works.
 *
 * @throws {OAuthAccountNotLinked} when the rules refuse the account.
 * @throws {AdapterError} when the store fails.
 */
export async function resolveUser(
  config: InternalConfig,
  adapter: Adapter,
  params: {
    known: KnownUser
    profileUser: User & { id: string }
    account: Account
    profile: Profile
    allowEmailLinking: boolean
    signedInUserId: string | undefined
  },
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const { known, profileUser, account, signedInUserId } = params
  if (signedInUserId !== undefined) {
    if (known.accountUser !== null) {
      if (known.accountUser.id === signedInUserId) return { user: known.accountUser, isNewUser: false }
      throw new OAuthAccountNotLinked(`The ${account.provider} account is already linked to another user.`)
    }
    const current = await callAdapter(adapter, "getUser", signedInUserId)
    if (current !== null) {
      await link(config, adapter, current, account, profileUser)
      return { user: current, isNewUser: false }
    }
    // The session points at a user that no longer exists: continue as a fresh sign-in.
  }
  if (known.accountUser !== null) return { user: known.accountUser, isNewUser: false }

  const email = profileUser.email
  if (typeof email === "string" && email !== "") {
    const byEmail = await callAdapter(adapter, "getUserByEmail", email)
    if (byEmail !== null) {
      if (!params.allowEmailLinking) {
        throw new OAuthAccountNotLinked(
          `A user with this email already signed in with another provider; ${account.provider} does not allow linking by email.`,
        )
      }
      await link(config, adapter, byEmail, account, profileUser)
      return { user: byEmail, isNewUser: false }
    }
  }

  const { id: _providerId, ...fields } = profileUser
  // Checked as unknown: a third-party adapter may return anything.
  const created: unknown = await callAdapter(adapter, "createUser", { ...fields, email: email ?? null, emailVerified: null })
  if (!isStoredUser(created)) {
    throw new AdapterError("The adapter's `createUser` returned no user with an id.")
  }
  try {
    await callAdapter(adapter, "linkAccount", toAdapterAccount(account, created.id))
  } catch (error) {
    try {
      await callAdapter(adapter, "deleteUser", created.id)
    } catch (cleanup) {
      config.logger.error(new AdapterError(`Could not remove user ${created.id} after linking their account failed.`, { cause: cleanup }))
    }
    throw error
  }
  await emit(config, "createUser", { user: created })
  await emit(config, "linkAccount", { user: created, account, profile: profileUser })
  return { user: created, isNewUser: true }
}
