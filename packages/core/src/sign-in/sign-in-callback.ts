/**
 * The app's `signIn` callback, which every flow asks before a sign-in goes on. Apart from the
 * account-linking rules (`accounts.ts`), which only an app with an adapter loads.
 */
import { auditFailure } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { AccessDenied, CallbackRouteError } from "../errors/flow-errors.js"
import type { RequestContext } from "../internal.js"
import type { CallbacksOptions } from "../types.js"

/**
 * Asks the app's `signIn` callback about a sign-in: `undefined` to go on, or the URL it
 * redirects to instead (the operation under way then ends, `denied`, in the audit trail).
 *
 * @throws {AccessDenied} when the callback answers `false` (or anything but `true` or a URL).
 * @throws {CallbackRouteError} when the callback throws.
 */
export async function askSignIn(context: RequestContext, params: Parameters<NonNullable<CallbacksOptions["signIn"]>>[0]): Promise<string | undefined> {
  const callback = context.config.callbacks.signIn
  if (callback === undefined) return undefined
  let answer: boolean | string
  try {
    answer = await callback(params)
  } catch (cause) {
    throw new CallbackRouteError("The `signIn` callback threw.", { cause })
  }
  if (answer === true) return undefined
  if (typeof answer === "string") {
    await auditFailure(context, "denied")
    return resolveCallbackUrl(context, answer)
  }
  throw new AccessDenied("The `signIn` callback refused this sign-in.")
}
