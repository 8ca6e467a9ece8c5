/**
 * Who an email sign-in signs in: the `signIn` callback asked about the address's user (or a
 * stand-in for a new address), and the user a followed link signs in. Loaded only with the
 * email flow (and passkey sign-up by link).
 */
import { createUserOrWinner, findUserByEmail, replaceUnproven, type ResolvedUser } from "../sign-in/accounts.js"
import { askSignIn } from "../sign-in/sign-in-callback.js"
import type { Adapter, AdapterUser } from "../adapters.js"
import type { InternalConfig } from "../internal.js"
import type { RequestContext } from "../internal.js"
import { OAuthAccountNotLinked } from "../errors/flow-errors.js"
import { emit } from "../sign-in/events.js"
import type { Account } from "../model.js"
import { callAdapter, storedUser } from "../outbound/store.js"

/**
 * Asks the `signIn` callback about an email sign-in of `identifier`, as its stored user or, for
 * a new address, a stand-in carrying the address. Both steps of the flow ask: sending the link
 * (with `email.verificationRequest`) and using it.
 *
 * @throws {AccessDenied} when the callback refuses.
 */
export async function askEmailSignIn(
  context: RequestContext,
  params: { adapter: Adapter; providerId: string; identifier: string; verificationRequest?: true },
): Promise<{ existing: AdapterUser | null; account: Account; redirectTo: string | undefined }> {
  const { adapter, providerId, identifier } = params
  const existing = await findUserByEmail(adapter, identifier)
  const account: Account = { provider: providerId, type: "email", providerAccountId: identifier }
  const redirectTo = await askSignIn(context, {
    user: existing ?? { id: identifier, email: identifier, emailVerified: null },
    account,
    ...(params.verificationRequest === true ? { email: { verificationRequest: true } } : {}),
  })
  return { existing, account, redirectTo }
}

/**
 * The user a followed sign-in link signs in: the user with the address if that address was
 * verified (by an earlier link, or by the provider it signed up with), or a new user with
 * `emailVerified` set. Rule R1 does not apply: following the link proved the address. Links to
 * one new address followed at once (two instances, several mails) all end in the one user the
 * first of them created.
 *
 * A user whose address was never verified may have been created by someone who merely claimed
 * it at some provider: signing its owner into that user would hand them the claimant's linked
 * accounts and the claimant a way into the owner's data. Such a sign-in is refused, unless the
 * email provider sets `allowDangerousEmailAccountLinking`; a password sign-up never confirmed is
 * replaced instead (see `replaceUnproven`).
 *
 * @throws {OAuthAccountNotLinked} when the address belongs to a user whose email was never verified.
 * @throws {AdapterError} when the store fails.
 */
export async function resolveEmailUser(
  context: RequestContext,
  adapter: Adapter,
  identifier: string,
  found: AdapterUser | null,
  allowUnverified: boolean,
): Promise<ResolvedUser> {
  const { config } = context
  // A password sign-up never confirmed is no one's account yet: the followed link replaces it.
  const existing = found !== null && (await replaceUnproven(context, adapter, found)) ? null : found
  if (existing !== null) return signInExisting(config, adapter, identifier, existing, allowUnverified)
  return createUserOrWinner(config, adapter, {
    fields: { email: identifier, emailVerified: new Date() },
    winner: async () => {
      const won = await findUserByEmail(adapter, identifier)
      return won === null ? null : signInExisting(config, adapter, identifier, won, allowUnverified)
    },
  })
}

async function signInExisting(config: InternalConfig, adapter: Adapter, identifier: string, existing: AdapterUser, allowUnverified: boolean): Promise<ResolvedUser> {
  if (existing.emailVerified != null) return { user: existing, isNewUser: false }
  if (!allowUnverified) {
    throw new OAuthAccountNotLinked(
      `The address ${identifier} belongs to a user whose email was never verified: sign in the way that user signed up (the email provider's \`allowDangerousEmailAccountLinking\` allows it).`,
    )
  }
  const now = new Date()
  const updated = storedUser(await callAdapter(adapter, "updateUser", { id: existing.id, emailVerified: now }))
  const user = updated ?? { ...existing, emailVerified: now }
  await emit(config, "updateUser", { user })
  return { user, isNewUser: false }
}
