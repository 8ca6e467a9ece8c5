import { InvalidProvider } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"

/**
 * `{basePath}/<route>/:id`: a route the provider's flow adds (such as `webauthn-options`),
 * answered by that flow; `405` for a method the route does not take.
 *
 * @throws {InvalidProvider} when no provider has the id, or its flow has no such route.
 * @throws {Configuration} when the provider was left out for a missing value.
 */
export function flowRoute(context: RequestContext, method: "GET" | "POST", providerId: string, name: string): Promise<Response> | Response {
  const provider = context.config.providersById.get(providerId)
  const route = provider?.flow.routes?.[name]
  if (provider === undefined || route === undefined) throw context.config.unavailable.get(providerId) ?? new InvalidProvider(`No provider with the id "${providerId}" serves /${name}.`)
  const handler = route[method]
  if (handler === undefined) {
    context.config.logger.debug(`/${name} of provider "${providerId}" does not take ${method}.`)
    // The answer loads with it, as every failure's does.
    return import("../http/failures.js").then((failures) => failures.methodNotAllowed(context, route.GET !== undefined, route.POST !== undefined))
  }
  return handler(context, provider)
}
