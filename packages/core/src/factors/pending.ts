/**
 * A pending sign-in as the second factor's routes use it (made by the gate, `gate.ts`): read from
 * the request, a wrong code counted against it, or completed, once, into the session the first
 * factor would have started, at the level the second factor adds.
 */
import type { RequestContext } from "../internal.js"
import { completeSignIn } from "../sign-in/sign-in.js"
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
  if (next !== null && codesTried(next) < PENDING_ATTEMPTS) return { ended: false }
  if (next !== null) await endPending(context, next)
  return { ended: true }
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
  return { target: await completeSignIn(context, { ...pending.signedIn, methods }, pending.target) }
}
