/**
 * Deleting the account (issue 38): `POST {basePath}/account/delete`, for a recently authenticated
 * user. Everything core keeps of the user goes, in an order where a failure half-way leaves the
 * user signed out rather than signed in: the provider tokens (revoked at the provider under
 * `revokeTokensOnSignOut`, as unlinking does), every session (database ones at once, JWT ones on
 * every instance within `session.revocationCheckInterval`), the pending email change and the
 * address's sign-in links, the second factors, the passkeys, then the user with their accounts.
 */
import type { Adapter, AdapterAccount, AdapterMethod } from "../adapters.js"
import { SESSION_RECORD_METHODS } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditUser } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, json, readFields } from "../http/context.js"
import { admitScripts } from "../http/script-policy.js"
import { verifyCsrf } from "../http/csrf.js"
import type { RequestContext } from "../internal.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { revokeUserRecords } from "../session/records.js"
import { clearSessionCookie } from "../session/source.js"
import { adapterWith, answersJson, recentActor } from "./actor.js"
import { accountDeletedPage, signalScriptSource, type DeletedPasskeys } from "./pages.js"
import { cancelEmailChange } from "./pending.js"

/** What deletion needs: the user read and deleted, and session records to end every session with. */
const DELETE_METHODS: readonly AdapterMethod[] = ["getUser", "deleteUser", ...SESSION_RECORD_METHODS]

/** A list the adapter answers when it has the method, else none. */
async function listed<T>(adapter: Adapter, method: "listAccountsByUserId" | "listAuthenticatorsByUserId" | "listAuthFactors", userId: string): Promise<T[]> {
  if (typeof adapter[method] !== "function") return []
  const answer: unknown = await callAdapter(adapter, method, userId)
  return Array.isArray(answer) ? (answer as T[]) : []
}

/** The relying party id the user's passkeys were made for: the passkey provider's `relyingParty.id`, else the app's host. */
function rpIdOf(context: RequestContext): string {
  for (const provider of context.config.providers) {
    if (provider.type !== "webauthn") continue
    const id = (provider.options as { relyingParty?: { id?: unknown } } | undefined)?.relyingParty?.id
    if (typeof id === "string" && id !== "") return id
  }
  return new URL(context.origin).hostname
}

/** Each linked account's flow hears it is gone (OAuth 2.0 revokes its tokens under `revokeTokensOnSignOut`; a failure is logged there). */
async function endAccounts(context: RequestContext, accounts: readonly AdapterAccount[]): Promise<void> {
  for (const account of accounts) {
    const provider = context.config.providersById.get(account.provider)
    if (provider !== undefined) await provider.flow.accounts?.unlinked?.(context, provider, account)
  }
}

/**
 * Deletes what the adapter's `deleteUser` may not cascade to (second factors, passkeys: stores
 * written for Auth.js know nothing of factors), so no such row outlives its user.
 */
async function deleteBelongings(adapter: Adapter, userId: string, passkeys: readonly { credentialID: string }[]): Promise<void> {
  if (typeof adapter.deleteAuthFactor === "function") {
    for (const factor of await listed<{ id: string }>(adapter, "listAuthFactors", userId)) await callAdapter(adapter, "deleteAuthFactor", factor.id)
  }
  if (typeof adapter.deleteAuthenticator === "function") {
    for (const passkey of passkeys) await callAdapter(adapter, "deleteAuthenticator", passkey.credentialID)
  }
}

/** The page after a deletion, its policy admitting only the signal script. */
async function deletedPage(context: RequestContext, passkeys: DeletedPasskeys): Promise<Response> {
  const response = html(context, accountDeletedPage(context, passkeys))
  if (passkeys.credentialIds.length === 0) return response
  admitScripts(response.headers, [await signalScriptSource()])
  return response
}

/**
 * `POST {basePath}/account/delete` (`{ csrfToken, callbackUrl? }`): deletes the request's user and
 * everything core keeps of them (see the room's opening), clears the session cookie, and answers
 * `{ ok: true, passkeys: { rpId, credentialIds } }` (for the client's `signalUnknownCredential`)
 * or the "account deleted" page, which signals them itself. The address's outstanding sign-in
 * links are deleted when the adapter has `deleteVerificationTokens` (see the core README).
 *
 * @throws {Configuration} when the adapter lacks `deleteUser` or the session record methods (503; the message names them).
 * @throws {MissingCSRF} without a valid CSRF token.
 * @throws {AdapterError} when the store fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1 (re-authentication before deletion)
 * @see https://w3c.github.io/webauthn/#sctn-signal-methods WebAuthn Level 3 (signalUnknownCredential)
 */
export async function deleteAccount(context: RequestContext): Promise<Response> {
  const { config } = context
  auditAs(context, "accountDelete")
  const adapter = adapterWith(context, DELETE_METHODS, "Deleting an account (`POST /account/delete`, `deleteAccount()`)")
  const fields = await readFields(context.request)
  const field = (name: string): string | null => {
    const value = fields instanceof URLSearchParams ? fields.get(name) : fields[name]
    return typeof value === "string" ? value : null
  }
  await verifyCsrf(context, field("csrfToken"))
  const recent = await recentActor(context, await resolveCallbackUrl(context, field("callbackUrl")))
  if (!recent.ok) return recent.response
  const { userId } = recent.current
  auditUser(context, userId)
  const user = storedUser(await callAdapter(adapter, "getUser", userId))
  const passkeys = await listed<{ credentialID: string }>(adapter, "listAuthenticatorsByUserId", userId)
  await endAccounts(context, await listed<AdapterAccount>(adapter, "listAccountsByUserId", userId))
  await revokeUserRecords(config, userId, "accountDeleted")
  await cancelEmailChange(config, userId)
  if (typeof user?.email === "string" && user.email !== "" && typeof adapter.deleteVerificationTokens === "function") {
    await callAdapter(adapter, "deleteVerificationTokens", user.email)
  }
  await deleteBelongings(adapter, userId, passkeys)
  await callAdapter(adapter, "deleteUser", userId)
  clearSessionCookie(context)
  await auditSuccess(context, userId)
  const signal: DeletedPasskeys = { rpId: rpIdOf(context), credentialIds: passkeys.map((passkey) => passkey.credentialID) }
  return answersJson(context) ? json(context, { ok: true, passkeys: signal }) : deletedPage(context, signal)
}
