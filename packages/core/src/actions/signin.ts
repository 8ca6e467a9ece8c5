import { auditAs } from "../audit/audit.js"
import { verifyFormTarget } from "../http/callback-url.js"
import { readForm } from "../http/context.js"
import { InvalidProvider } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"

/**
 * `POST /signin/:id`: CSRF-checked, then started by the provider's flow (to the OAuth provider's
 * authorization URL, a sign-in link sent, ...). Query parameters other than `callbackUrl` go to
 * the flow (an OAuth flow adds them to the authorization URL).
 *
 * @throws {InvalidProvider} when no provider has the id.
 * @throws {Configuration} when the provider was left out for a missing value.
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 */
export async function signIn(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  // Only a configured provider's id: the path's may be anything.
  auditAs(context, provider?.flow.startsAs ?? "signIn", provider?.id)
  if (provider === undefined) throw context.config.unavailable.get(providerId) ?? new InvalidProvider(`No provider has the id "${providerId}".`)
  const form = await readForm(context.request)
  const query = new URLSearchParams(context.url.searchParams)
  const requested = form.get("callbackUrl") ?? query.get("callbackUrl")
  const target = await verifyFormTarget(context, form, requested)
  query.delete("callbackUrl")
  return provider.flow.signIn(context, provider, { form, callbackUrl: target, query })
}
