/**
 * Where a user's pending email change waits: the verification tokens stored under one identifier
 * per user, so that a newer request, "sign out everywhere" and account deletion each end it with
 * one `deleteVerificationTokens` call, whatever link it was sent with. A leaf of the account room,
 * small on purpose: the sessions route fetches it to cancel a change without loading the rest.
 */
import type { InternalConfig } from "../internal.js"
import { callAdapter } from "../outbound/store.js"

/**
 * The identifier a user's pending email change is stored under. No address is ever stored under
 * it (a sign-in link's identifier is an address), so no sign-in link can use its token.
 */
export function emailChangeIdentifier(userId: string): string {
  return `email-change:${userId}`
}

/**
 * Ends the user's pending email change, if any (its link then answers as a used one). Nothing
 * when the adapter cannot delete tokens: such an adapter never stores a change (the route
 * refuses it), so there is nothing to end.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function cancelEmailChange(config: InternalConfig, userId: string): Promise<void> {
  const { adapter } = config
  if (typeof adapter?.deleteVerificationTokens !== "function") return
  await callAdapter(adapter, "deleteVerificationTokens", emailChangeIdentifier(userId))
}
