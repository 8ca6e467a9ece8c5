/**
 * A pending sign-in as the second factor's routes use it (made by the gate, `gate.ts`): read from
 * the request, a wrong code counted against it, or completed, once, into the session the first
 * factor would have started, at the level the second factor adds.
 */
import type { RequestContext } from "../internal.js"
import { completeAfterGate } from "../sign-in/sign-in.js"
import { PENDING_ATTEMPTS, clearPending, codesTried, countAttempt, openPending, takePending, type PendingSignIn } from "./gate.js"

export type { PendingSignIn } from "./gate.js"
export { PENDING_ATTEMPTS, PENDING_MAX_AGE } from "./gate.js"

/**
 * The request's pending sign-in: `null` when it has none, or one that is not ours, expired, made
 * on another origin or bound to another browser; one that ended or completed clears its cookie,
 * and an older copy of the cookie is refused by the store at its next use.
 */
export function readPending(context: RequestContext): Promise<PendingSignIn | null> {
  return openPending(context)
}

/**
 * Counts a wrong code against the pending sign-in, on the server by its id: `ended` at the
 * {@link PENDING_ATTEMPTS}th, or when the cookie names a row that is gone (consumed, ended, or
 * replaced by a newer cookie's); the cookie is then cleared.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function failPending(context: RequestContext, pending: PendingSignIn): Promise<{ ended: boolean }> {
  const next = await countAttempt(context, pending)
  if (next !== null && !lastAttempt(next)) return { ended: false }
  if (next !== null) await endPending(context, next)
  return { ended: true }
}

/**
 * Charges one attempt to the pending sign-in before its code is checked (`/mfa/verify` does): the
 * store's row is consumed and re-written with the count raised, so of parallel requests with one
 * cookie only one goes on to a code check. Answers the pending sign-in to check the code against
 * and complete (its cookie re-written), or `null` when it has ended; after a wrong code, end it at
 * {@link PENDING_ATTEMPTS} codes tried ({@link endPending}).
 *
 * @throws {AdapterError} when the store fails.
 */
export function chargePending(context: RequestContext, pending: PendingSignIn): Promise<PendingSignIn | null> {
  return countAttempt(context, pending)
}

/** Whether the pending sign-in has had its last try (a wrong code now ends it). */
export function lastAttempt(pending: PendingSignIn): boolean {
  return codesTried(pending) >= PENDING_ATTEMPTS
}

/**
 * Ends the pending sign-in now (its last code was wrong): its row consumed, its cookie cleared.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function endPending(context: RequestContext, pending: PendingSignIn): Promise<void> {
  await takePending(context, pending)
  clearPending(context)
}

/**
 * Completes the pending sign-in once, across instances: consumes its row, then starts the session
 * with the first factor's methods plus `add` and `"mfa"` (`jwt({ trigger: "signIn" })` with the
 * same account and profile, the session record, the `signIn` event and the audit trail's `signIn`
 * success, each once), queueing the cookies on `context`. Answers where the browser goes next, or
 * `null` when the sign-in was completed or ended already.
 *
 * @throws {AdapterError} when the store fails.
 * @throws {SessionTokenError} when the `jwt` callback fails.
 */
export async function completePending(context: RequestContext, pending: PendingSignIn, add: readonly string[]): Promise<{ target: string } | null> {
  const taken = await takePending(context, pending)
  clearPending(context)
  if (!taken) return null
  const methods = [...new Set([...pending.signedIn.methods, ...add, "mfa"])]
  return { target: await completeAfterGate(context, { ...pending.signedIn, methods }, pending.target) }
}
