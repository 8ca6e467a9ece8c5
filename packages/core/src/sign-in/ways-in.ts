/**
 * The last way in: what counts as a way for a user to sign in, and the one check that a change
 * (unlinking an account, deleting a passkey) leaves the user at least one. Loaded only by the
 * routes that make such changes.
 *
 * A way in is one of:
 * - an account linked at a configured provider whose flow signs in with it (OAuth 2.0, OpenID
 *   Connect, OAuth 1.0a: the flow declares `accounts`), known when the adapter has
 *   `listAccountsByUserId`;
 * - a passkey, with a passkey provider configured;
 * - the user's email address, when it is verified and an email provider is configured;
 * - a password kept by `Password()` (its flow's `waysIn`).
 *
 * `Credentials()` never counts (core cannot know whether the user has a password there: server
 * code that knows says so with `unlinkAccount`'s `otherSignInMethod`), nor does an account at a provider
 * the app no longer configures. The reverse question, whether a user has no way in at all (a
 * first sign-in cut off before its account was linked), counts both, to be sure.
 */
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import { AdapterError } from "../errors/flow-errors.js"
import type { RequestContext, WayIn } from "../internal.js"
import { callAdapter, storedUser } from "../outbound/store.js"

/**
 * The accounts linked to the user; `undefined` when the adapter cannot list them.
 *
 * @throws {AdapterError} when the adapter fails or answers something that is not an array.
 */
export async function linkedAccounts(adapter: Adapter, userId: string): Promise<AdapterAccount[] | undefined> {
  if (typeof adapter.listAccountsByUserId !== "function") return undefined
  const listed: unknown = await callAdapter(adapter, "listAccountsByUserId", userId)
  if (!Array.isArray(listed)) throw new AdapterError("The adapter's `listAccountsByUserId` did not return an array.")
  return listed as AdapterAccount[]
}

/** Every way the user has to sign in, as the configured providers tell. */
async function waysOf(context: RequestContext, adapter: Adapter, user: AdapterUser): Promise<WayIn[]> {
  const { providers, providersById } = context.config
  const ways: WayIn[] = []
  for (const { provider, providerAccountId } of (await linkedAccounts(adapter, user.id)) ?? []) {
    if (providersById.get(provider)?.flow.accounts !== undefined) ways.push({ kind: "account", account: { provider, providerAccountId } })
  }
  for (const provider of providers) if (provider.flow.waysIn !== undefined) ways.push(...(await provider.flow.waysIn(context, provider, user)))
  return ways
}

/**
 * Every way the user has to sign in (none for an unknown user).
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function waysIn(context: RequestContext, adapter: Adapter, userId: string): Promise<WayIn[]> {
  const user = storedUser(await callAdapter(adapter, "getUser", userId))
  return user === undefined ? [] : waysOf(context, adapter, user)
}

/** Whether `ways` hold one other than `removed`. */
export function keepsOneWithout(ways: readonly WayIn[], removed: WayIn): boolean {
  return ways.some((way) => !sameWay(way, removed))
}

function sameWay(a: WayIn, b: WayIn): boolean {
  if (a.kind === "account" && b.kind === "account") return a.account.provider === b.account.provider && a.account.providerAccountId === b.account.providerAccountId
  if (a.kind === "passkey" && b.kind === "passkey") return a.credentialID === b.credentialID
  if (a.kind === "password" && b.kind === "password") return a.provider === b.provider
  return a.kind === "email" && b.kind === "email" && a.provider === b.provider
}

/**
 * Whether the user can still sign in some other way than `removed`. Read from the store as it is
 * now: a caller removing a way runs it before and again after the removal (see the callers), so
 * that of two concurrent removals at least one sees the other's done.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function keepsAWayIn(context: RequestContext, adapter: Adapter, userId: string, removed: WayIn): Promise<boolean> {
  return keepsOneWithout(await waysIn(context, adapter, userId), removed)
}

/**
 * Whether nothing signs the user in, nor ever did: no account at any provider (configured or not),
 * no passkey, no way in through a configured flow (a verified address with an email provider), and
 * no credentials provider whose passwords core cannot see (`Password()` shows its own). Such a user was left by a first
 * sign-in that died between creating it and linking its account; `false` when the adapter cannot
 * list the user's accounts, since then core cannot tell.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function hasNoWayIn(context: RequestContext, adapter: Adapter, user: AdapterUser): Promise<boolean> {
  const { providers } = context.config
  if (providers.some((provider) => provider.type === "credentials" && provider.flow.waysIn === undefined)) return false
  const accounts = await linkedAccounts(adapter, user.id)
  if (accounts === undefined || accounts.length > 0) return false
  if (typeof adapter.listAuthenticatorsByUserId === "function") {
    const passkeys: unknown = await callAdapter(adapter, "listAuthenticatorsByUserId", user.id)
    if (!Array.isArray(passkeys) || passkeys.length > 0) return false
  }
  return (await waysOf(context, adapter, user)).length === 0
}
