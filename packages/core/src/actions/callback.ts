import { auditAs } from "../audit/audit.js"
import { InvalidProvider } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"

/**
 * `GET|POST /callback/:id`: completes a sign-in, answered by the provider's flow. OAuth
 * providers come back here from the provider; an email link opens its confirmation page here
 * (GET) and signs in on its button (POST); a credentials form posts here.
 *
 * @throws {InvalidProvider} when no provider has the id.
 * @throws {Configuration} when the provider was left out for a missing value.
 */
export async function callback(context: RequestContext, providerId: string): Promise<Response> {
  const provider = context.config.providersById.get(providerId)
  // Only a configured provider's id: the path's may be anything.
  auditAs(context, "signIn", provider?.id)
  if (provider === undefined) throw context.config.unavailable.get(providerId) ?? new InvalidProvider(`No provider has the id "${providerId}".`)
  return provider.flow.callback(context, provider)
}
