/**
 * The signed-in user's linked accounts: `GET {basePath}/accounts` lists the ones they may unlink,
 * `POST {basePath}/accounts/unlink` unlinks one (CSRF-checked; form or JSON `provider`, and
 * `providerAccountId` when they linked several accounts at that provider). Loaded on first use:
 * an app whose users never look at their accounts loads none of it.
 *
 * The user's last way to sign in is never unlinked (the rule is `ways-in.ts`'s). An account of
 * another user, an unknown one, or one at a provider whose accounts are not unlinked here (email,
 * passkeys) all get the same answer, so the route tells nothing about other users' accounts.
 */
import type { Adapter, AdapterAccount, AdapterMethod } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditUser } from "../audit/trail.js"
import { json, readForm } from "../http/context.js"
import { methodNotAllowed } from "../http/failures.js"
import { verifyCsrf } from "../http/csrf.js"
import { Configuration, UnknownAction } from "../errors/errors.js"
import { LastSignInMethod, SignInRequired, UnknownAccount } from "../errors/flow-errors.js"
import { emit } from "../sign-in/events.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { readSession } from "../session/index.js"
import { requireRecentSession } from "../session/recent.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { keepsAWayIn, keepsOneWithout, linkedAccounts, waysIn } from "../sign-in/ways-in.js"

/** What the adapter needs for unlinking: find the user's accounts, remove one, and put it back when the unlink must be undone. */
const UNLINK_METHODS: readonly AdapterMethod[] = ["getUser", "listAccountsByUserId", "unlinkAccount", "linkAccount"]

/** The longest `provider` or `providerAccountId` read: far above any real one, well below the body limit. */
const MAX_FIELD_LENGTH = 1024

/** What is asked to be unlinked. */
export interface UnlinkRequest {
  provider: string | null
  /** Which of the user's accounts at the provider; may be left out when they have one there. */
  providerAccountId: string | null
  /**
   * Server code vouches that the user can sign in another way that core cannot see (a password
   * that a credentials provider checks): the last-way-in check is skipped. Never read from a request.
   */
  otherSignInMethod?: boolean
}

/** One account as `GET /accounts` lists it: no token, nothing the user could not see at the provider. */
export interface LinkedAccount {
  provider: string
  providerAccountId: string
  type: string
  /** Unlinking it would be refused: it is the user's last way to sign in. */
  lastSignInMethod: boolean
}

/** What `GET /accounts` answers. */
export interface LinkedAccounts {
  accounts: LinkedAccount[]
}

/** What `POST /accounts/unlink` answers once the account is unlinked. */
export interface UnlinkAnswer {
  unlinked: { provider: string; providerAccountId: string }
}

function unlinkingAdapter(context: RequestContext): Adapter {
  const { adapter } = context.config
  const missing = UNLINK_METHODS.filter((method) => typeof adapter?.[method] !== "function")
  if (adapter === undefined || missing.length > 0) {
    const what = adapter === undefined ? "no `adapter` is configured" : `the adapter has no ${missing.map((method) => `\`${method}\``).join(", ")}`
    throw new Configuration(`Unlinking an account (\`POST /accounts/unlink\`, \`unlinkAccount()\`) needs an adapter with ${UNLINK_METHODS.map((method) => `\`${method}\``).join(", ")}: ${what}.`)
  }
  return adapter
}

/** The one field value read, or `null` for none, an empty one or one too long to be real. */
function field(value: string | null): string | null {
  return value === null || value === "" || value.length > MAX_FIELD_LENGTH ? null : value
}

/**
 * The user's account the request names, at a provider whose flow keeps accounts a user unlinks.
 *
 * @throws {UnknownAccount} for anything else, with the reason in the log only.
 */
async function findAccount(context: RequestContext, adapter: Adapter, userId: string, request: UnlinkRequest): Promise<{ provider: FlowProvider; account: AdapterAccount }> {
  const providerId = field(request.provider)
  const providerAccountId = field(request.providerAccountId)
  const provider = providerId === null ? undefined : context.config.providersById.get(providerId)
  if (provider?.flow.accounts === undefined) throw new UnknownAccount("`provider` names no configured provider whose accounts a user can unlink.")
  const candidates = ((await linkedAccounts(adapter, userId)) ?? []).filter(
    (account) => account.provider === provider.id && (providerAccountId === null || account.providerAccountId === providerAccountId),
  )
  const [account] = candidates
  if (account === undefined) throw new UnknownAccount(`The signed-in user has no such account at provider "${provider.id}".`)
  if (candidates.length > 1) throw new UnknownAccount(`The signed-in user has several accounts at provider "${provider.id}": name one with \`providerAccountId\`.`)
  return { provider, account }
}

function refuseLastWayIn(provider: FlowProvider): LastSignInMethod {
  return new LastSignInMethod(
    `The account at provider "${provider.id}" is the user's last way to sign in: link another account, add a passkey or verify the email (with an email provider) first.`,
  )
}

/**
 * Unlinks the signed-in user's account, unless it is their last way to sign in; then the flow
 * hears of it (OAuth 2.0 revokes the tokens under `revokeTokensOnSignOut`, a failure there is
 * logged and ends nothing) and the `unlinkAccount` event is sent.
 *
 * Two requests unlinking a user's last two ways at once could each see the other's still there,
 * so the check runs again after the unlink, and the account is linked again when nothing is
 * left: the re-check that runs last sees every removal done, so at worst both are refused.
 *
 * @throws {Configuration} when the adapter lacks a method unlinking needs.
 * @throws {SignInRequired} when nobody is signed in.
 * @throws {UnknownAccount} when the user has no such account (see {@link findAccount}).
 * @throws {LastSignInMethod} when it is the user's last way to sign in.
 * @returns `ReauthRequired` (403 JSON or a 303, see `requireRecentSession`) when the user last
 * authenticated longer than `session.reauthAge` ago.
 */
export async function unlinkAccount(context: RequestContext, request: UnlinkRequest): Promise<Response> {
  auditAs(context, "accountUnlink")
  const adapter = unlinkingAdapter(context)
  const recent = await requireRecentSession(context)
  if (!recent.ok && recent.error === "SessionRequired") throw new SignInRequired("Unlinking an account needs a signed-in user.")
  if (!recent.ok) return recent.response
  const { userId } = recent.current
  auditUser(context, userId)
  const { provider, account } = await findAccount(context, adapter, userId, request)
  auditUser(context, userId, provider.id)
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  const removed = { kind: "account", account: key } as const
  const vouched = request.otherSignInMethod === true
  if (!vouched && !(await keepsAWayIn(context, adapter, userId, removed))) throw refuseLastWayIn(provider)
  // An Auth.js adapter may answer nothing: the account as listed is what left the store.
  const answered: unknown = await callAdapter(adapter, "unlinkAccount", key)
  const unlinked: AdapterAccount = typeof answered === "object" && answered !== null ? { ...account, ...(answered as Partial<AdapterAccount>) } : account
  if (!vouched && !(await keepsAWayIn(context, adapter, userId, removed))) {
    await callAdapter(adapter, "linkAccount", unlinked)
    throw refuseLastWayIn(provider)
  }
  await provider.flow.accounts?.unlinked?.(context, provider, unlinked)
  const user = storedUser(await callAdapter(adapter, "getUser", userId))
  if (user !== undefined) await emit(context.config, "unlinkAccount", { user, account: unlinked })
  await auditSuccess(context, userId)
  await sendNotice(context, user?.email, "accountUnlinked", { provider: provider.name })
  const answer: UnlinkAnswer = { unlinked: key }
  return json(context, answer)
}

/**
 * The signed-in user's accounts at providers whose accounts a user unlinks, each with whether it
 * is their last way to sign in (so a page can say so before the user tries).
 *
 * @throws {Configuration} when the adapter lacks a method unlinking needs.
 * @throws {SignInRequired} when nobody is signed in.
 */
async function listAccounts(context: RequestContext): Promise<Response> {
  const adapter = unlinkingAdapter(context)
  const userId = (await readSession(context))?.userId
  if (userId === undefined) throw new SignInRequired("Listing the linked accounts needs a signed-in user.")
  const ways = await waysIn(context, adapter, userId)
  const accounts: LinkedAccount[] = ((await linkedAccounts(adapter, userId)) ?? [])
    .filter((account) => context.config.providersById.get(account.provider)?.flow.accounts !== undefined)
    .map(({ provider, providerAccountId, type }) => ({
      provider,
      providerAccountId,
      type,
      lastSignInMethod: !keepsOneWithout(ways, { kind: "account", account: { provider, providerAccountId } }),
    }))
  const answer: LinkedAccounts = { accounts }
  return json(context, answer)
}

/**
 * `GET {basePath}/accounts` and `POST {basePath}/accounts/unlink`.
 *
 * @throws {UnknownAction} for another path, or an unreadable, oversized or unsupported body.
 * @throws {MissingCSRF} without a valid CSRF token.
 */
export async function accountsRoute(context: RequestContext, action: string | undefined): Promise<Response> {
  const post = context.request.method === "POST"
  if (action === undefined) return post ? methodNotAllowed(context, true, false) : listAccounts(context)
  if (action !== "unlink") throw new UnknownAction(`Nothing is served at /accounts/${action}: \`POST /accounts/unlink\` unlinks an account.`)
  if (!post) return methodNotAllowed(context, false, true)
  auditAs(context, "accountUnlink")
  // Checked before the body is read: a set-up that cannot unlink says so to every caller alike.
  unlinkingAdapter(context)
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  return unlinkAccount(context, { provider: form.get("provider"), providerAccountId: form.get("providerAccountId") })
}
