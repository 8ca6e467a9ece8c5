/**
 * Who signs in with an adapter: the account-linking rules decide whether an OAuth account signs
 * in its user, creates a new one, links to the signed-in user, or is refused. Loaded on first use:
 * an app without an adapter never needs them. The email flow's rules (a followed link signs in
 * its address's user) live in `email/accounts.ts`, loaded only with that flow.
 */
import type { Adapter, AdapterAccount, AdapterUser, NewAdapterUser } from "../adapters.js"
import { auditStep } from "../audit/trail.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import { AdapterError, OAuthAccountNotLinked } from "../errors/flow-errors.js"
import { emit } from "./events.js"
import type { Account, Profile, User } from "../model.js"
import { callAdapter, storedUser } from "../outbound/store.js"

/** The stored user an OAuth account already belongs to, or `null`. */
export async function findUser(adapter: Adapter, account: Account): Promise<AdapterUser | null> {
  const user = await callAdapter(adapter, "getUserByAccount", {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  })
  return storedUser(user) ?? null
}

/**
 * Creates a user with a fresh random id (an adapter may keep its own), checking that the adapter
 * answered with a stored user.
 *
 * @throws {AdapterError} when the adapter fails or answers without an id.
 */
export async function createUser(adapter: Adapter, fields: NewAdapterUser): Promise<AdapterUser> {
  // Checked as unknown: a third-party adapter may return anything.
  const created: unknown = await callAdapter(adapter, "createUser", { ...fields, id: crypto.randomUUID() })
  return answeredUser(created, "createUser")
}

function answeredUser(answer: unknown, method: string): AdapterUser {
  const user = storedUser(answer)
  if (user === undefined) throw new AdapterError(`The adapter's \`${method}\` returned no user with an id (a string or a number).`)
  return user
}

function toAdapterAccount(account: Account, userId: string): AdapterAccount {
  return { ...account, userId, type: account.type as AdapterAccount["type"] }
}

/**
 * Links `account` to an existing user: the `linkAccount` event, the audit trail's `accountLink`
 * inside the sign-in, and the owner's notice (the notices load only on this path).
 */
async function link(context: RequestContext, adapter: Adapter, user: AdapterUser, account: Account, profile: User): Promise<void> {
  await callAdapter(adapter, "linkAccount", toAdapterAccount(account, user.id))
  await emit(context.config, "linkAccount", { user, account, profile })
  await auditStep(context, "accountLink", user.id)
  const { sendNotice } = await import("../outbound/notices.js")
  await sendNotice(context, user.email, "accountLinked", { provider: context.config.providersById.get(account.provider)?.name ?? account.provider })
}

/** The user a sign-in signs in, and whether this sign-in created it. */
export interface ResolvedUser {
  user: AdapterUser
  isNewUser: boolean
}

/**
 * Writes a new user and, when the flow links one, its first account: in one call with the
 * adapter's `createUserWithAccount` (both or neither), else `createUser` then `linkAccount`,
 * deleting the user again when linking fails, so that a retry finds nothing half-done.
 */
async function writeNewUser(config: InternalConfig, adapter: Adapter, fields: NewAdapterUser, account: Account | undefined): Promise<AdapterUser> {
  if (account === undefined) return createUser(adapter, fields)
  if (typeof adapter.createUserWithAccount === "function") {
    const id = crypto.randomUUID()
    const created: unknown = await callAdapter(adapter, "createUserWithAccount", { ...fields, id }, toAdapterAccount(account, id))
    return answeredUser(created, "createUserWithAccount")
  }
  const created = await createUser(adapter, fields)
  try {
    await callAdapter(adapter, "linkAccount", toAdapterAccount(account, created.id))
  } catch (error) {
    // A concurrent sign-in of this same account may have found the user unlinked and finished
    // it (see `completeOrphan`): then it is linked, and deleting it would undo that sign-in.
    if ((await findUser(adapter, account).catch(() => null))?.id === created.id) return created
    try {
      await callAdapter(adapter, "deleteUser", created.id)
    } catch (cleanup) {
      config.logger.error(new AdapterError(`Could not remove user ${created.id} after linking their account failed.`, { cause: cleanup }))
    }
    throw error
  }
  return created
}

/**
 * The user of a first sign-in, for every flow: a new user (with the flow's account, `linked`,
 * when it links one), or, when the store refuses to write it, the user a concurrent first sign-in
 * of the same person wrote meanwhile, as `winner` reads it. Two links to one new address followed
 * at once, or two tabs finishing one provider's first sign-in, both end signed in as one user:
 * the store's unique keys (the email, the account) pick the winner, and the loser re-reads it.
 * Sends the `createUser` (and `linkAccount`) events for a user it created.
 *
 * @throws {AdapterError} when the store fails and `winner` finds no user.
 * @throws what `winner` throws (a linking rule refusing the winner's user).
 */
export async function createUserOrWinner(
  config: InternalConfig,
  adapter: Adapter,
  params: { fields: NewAdapterUser; linked?: { account: Account; profile: User }; winner: () => Promise<ResolvedUser | null> },
): Promise<ResolvedUser> {
  let created: AdapterUser
  try {
    created = await writeNewUser(config, adapter, params.fields, params.linked?.account)
  } catch (error) {
    const won = await params.winner()
    if (won !== null) return won
    throw error
  }
  await emit(config, "createUser", { user: created })
  if (params.linked !== undefined) await emit(config, "linkAccount", { user: created, account: params.linked.account, profile: params.linked.profile })
  return { user: created, isNewUser: true }
}

/**
 * Applies the account-linking rules and returns the user to sign in.
 *
 * - A known account signs in its user (when someone is signed in, only if it is theirs).
 * - While signed in (in a flow that user started), a new account is linked to the signed-in user.
 * - Otherwise, an email already used by another user is refused (rule R1), unless the provider
 *   verified that email and sets `allowDangerousEmailAccountLinking`: an unverified email never
 *   links. Nor is a user with that verified email and no way in at all refused: a first sign-in
 *   that died before linking its account left it, and this sign-in finishes it.
 * - Otherwise a user is created (its `emailVerified` set when the provider verified the email)
 *   and the account linked; if linking fails the new user is deleted again, so nothing half-done
 *   is left and a retry works.
 *
 * @throws {OAuthAccountNotLinked} when the rules refuse the account.
 * @throws {AdapterError} when the store fails.
 */
export async function resolveUser(
  context: RequestContext,
  adapter: Adapter,
  params: {
    /** The user the account already belongs to, from {@link findUser}. */
    accountUser: AdapterUser | null
    profileUser: User & { id: string }
    account: Account
    profile: Profile
    /** Whether the provider vouched for `profileUser.email`. */
    emailVerified: boolean
    allowEmailLinking: boolean
    /** The signed-in user who started this flow, if any. */
    signedInUserId: string | undefined
  },
): Promise<ResolvedUser> {
  const { config } = context
  const { accountUser, profileUser, account, signedInUserId } = params
  if (signedInUserId !== undefined) {
    if (accountUser !== null) {
      if (accountUser.id === signedInUserId) return { user: accountUser, isNewUser: false }
      throw new OAuthAccountNotLinked(`The ${account.provider} account is already linked to another user.`)
    }
    const current = storedUser(await callAdapter(adapter, "getUser", signedInUserId))
    if (current !== undefined) {
      await link(context, adapter, current, account, profileUser)
      return { user: current, isNewUser: false }
    }
    // The session points at a user that no longer exists: continue as a fresh sign-in.
  }
  if (accountUser !== null) return { user: accountUser, isNewUser: false }

  const email = profileUser.email
  if (typeof email === "string" && email !== "") {
    const found = await findUserByEmail(adapter, email)
    // A password sign-up never confirmed is no one's account yet: a provider vouching for the address replaces it.
    const byEmail = found !== null && params.emailVerified && (await replaceUnproven(context, adapter, found)) ? null : found
    if (byEmail !== null) {
      // Both ends must be proven: the provider vouches for the address, and the stored user
      // verified it (a user made by a passkey sign-up or an unverified provider only claimed it).
      if (!params.allowEmailLinking || !params.emailVerified || byEmail.emailVerified == null) {
        // A concurrent first sign-in of this same account (a double click, two tabs) may have
        // created that user and linked the account meanwhile: then this is a returning sign-in.
        const linked = await findUser(adapter, account)
        if (linked !== null) return { user: linked, isNewUser: false }
        if (params.emailVerified && byEmail.emailVerified != null) {
          const completed = await completeOrphan(context, adapter, byEmail, account, profileUser)
          if (completed !== null) return completed
        }
        throw new OAuthAccountNotLinked(
          !params.allowEmailLinking
            ? `A user with this email already signed in with another provider; ${account.provider} does not allow linking by email.`
            : params.emailVerified
              ? "A user with this email exists whose email was never verified, so the account is not linked to it."
              : `A user with this email already exists; ${account.provider} did not say it verified the email, so it is not linked.`,
        )
      }
      await link(context, adapter, byEmail, account, profileUser)
      return { user: byEmail, isNewUser: false }
    }
  }

  const { id: _providerId, ...fields } = profileUser
  return createUserOrWinner(config, adapter, {
    fields: { ...fields, email: email ?? null, emailVerified: params.emailVerified ? new Date() : null },
    linked: { account, profile: profileUser },
    winner: async () => {
      const linked = await findUser(adapter, account)
      return linked === null ? null : { user: linked, isNewUser: false }
    },
  })
}

/**
 * Finishes the first sign-in of a user left without its account (the process died between
 * `createUser` and `linkAccount`, with an adapter lacking `createUserWithAccount`), which would
 * otherwise refuse its owner for good: links the account when the user has no way in at all.
 * The caller checked that the provider verified the address and that the user's own address is
 * verified and the same. Anything with a way in keeps rule R1: it may be someone else's. `null`
 * when the user is not such an orphan.
 *
 * @throws {AdapterError} when the store fails.
 */
async function completeOrphan(context: RequestContext, adapter: Adapter, user: AdapterUser, account: Account, profile: User): Promise<ResolvedUser | null> {
  // Loaded on this refusal path only.
  const { hasNoWayIn } = await import("./ways-in.js")
  if (!(await hasNoWayIn(context, adapter, user))) return null
  try {
    await callAdapter(adapter, "linkAccount", toAdapterAccount(account, user.id))
  } catch (error) {
    // Two sign-ins finishing the same user at once: the account's unique key picks one.
    const linked = await findUser(adapter, account)
    if (linked !== null) return { user: linked, isNewUser: false }
    throw error
  }
  // The first sign-in never got to tell the app about its user.
  await emit(context.config, "createUser", { user })
  await emit(context.config, "linkAccount", { user, account, profile })
  await auditStep(context, "accountLink", user.id)
  return { user, isNewUser: true }
}

/**
 * Deletes `user` when it is an unproven claim on its address (a flow's `unproven`: a password
 * sign-up whose address was never confirmed) with no way in at all, so that the sign-in which has
 * just proven the address creates its owner's user in its place; `true` when it did. The claimant
 * never gains the owner's account, and the owner is never refused for the claimant's sign-up.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function replaceUnproven(context: RequestContext, adapter: Adapter, user: AdapterUser): Promise<boolean> {
  if (user.emailVerified != null) return false
  let claim = false
  for (const provider of context.config.providers) if (provider.flow.unproven !== undefined && (await provider.flow.unproven(context, provider, user))) claim = true
  if (!claim) return false
  // Loaded on this path only.
  const { hasNoWayIn } = await import("./ways-in.js")
  if (!(await hasNoWayIn(context, adapter, user))) return false
  await callAdapter(adapter, "deleteUser", user.id)
  context.config.logger.debug(`User ${user.id}, a password sign-up whose address was never confirmed, was replaced by a sign-in that proved the address.`)
  return true
}

/** The stored user with this email address, if any. */
export async function findUserByEmail(adapter: Adapter, email: string): Promise<AdapterUser | null> {
  const user = storedUser(await callAdapter(adapter, "getUserByEmail", email))
  // A store whose email index lags behind (a key-value adapter that kept the old address's key
  // after an update) would hand a sign-in link for an old address the account that left it.
  if (user === undefined || typeof user.email !== "string" || user.email.toLowerCase() !== email.toLowerCase()) return null
  return user
}
