import { auditAs, auditSuccess } from "../audit/audit.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { readForm, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { verifyCsrf } from "../http/csrf.js"
import { InvalidProvider } from "../errors/errors.js"
import { endSession, type EndedSession } from "../session/index.js"

/**
 * Ends the session, then sends the browser to `target`, or first to the provider's own sign-out
 * when the provider this browser signed in with asks for it (see `SignInFlow.signOut`).
 */
export async function completeSignOut(context: RequestContext, target: string): Promise<Response> {
  return leave(context, target, await endSession(context))
}

/** Sends the browser on after the session `ended`: to the provider's own sign-out when it has one, else to `target`. */
async function leave(context: RequestContext, target: string, ended: EndedSession): Promise<Response> {
  for (const provider of context.config.providers) {
    const atProvider = await provider.flow.signOut?.(context, provider, { callbackUrl: target, ended })
    if (atProvider !== undefined) return atProvider
  }
  return redirect(context, target)
}

/** `POST /signout`: CSRF-checked; ends the session and redirects to `callbackUrl` (through the provider's sign-out, when it has one). */
export async function signOut(context: RequestContext): Promise<Response> {
  auditAs(context, "signOut")
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  const target = await resolveCallbackUrl(context, form.get("callbackUrl"))
  const ended = await endSession(context)
  await auditSuccess(context, ended.userId)
  return leave(context, target, ended)
}

/**
 * `GET /signout/callback/:id`: the provider's sign-out sends the browser back here; its flow
 * checks it and sends the browser on.
 *
 * @throws {InvalidProvider} when no provider has the id, or its flow signs out nowhere else.
 * @throws {Configuration} when the provider was left out for a missing value.
 */
export async function signOutCallback(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  const handler = provider?.flow.signOutCallback
  if (provider === undefined || handler === undefined) throw context.config.unavailable.get(providerId) ?? new InvalidProvider(`No provider with the id "${providerId}" signs out at the provider.`)
  return handler(context, provider)
}
