/**
 * `{basePath}/password/<route>`: the routes of the configured `Password()` provider (sign-up,
 * address confirmation, reset, change), answered by its flow; `404` when no provider serves them,
 * so an app without password accounts answers those paths as any unknown one.
 */
import { methodNotAllowed, notFound } from "../http/failures.js"
import type { FlowProvider, RequestContext } from "../internal.js"

/** The provider whose flow serves the `password` action (the first, when several would). */
export function passwordProvider(context: RequestContext): FlowProvider | undefined {
  return context.config.providers.find((provider) => provider.flow.actionRoutes?.action === "password")
}

/** Answers `{basePath}/password/{sub}`. */
export async function passwordRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  const provider = passwordProvider(context)
  const routes = provider?.flow.actionRoutes?.routes
  // Own names only: `/password/constructor` names no route.
  const route = routes !== undefined && Object.hasOwn(routes, sub) ? routes[sub] : undefined
  if (provider === undefined || route === undefined) return notFound(context.request, context.url, context.config)
  const handler = route[method]
  if (handler === undefined) return methodNotAllowed(context, route.GET !== undefined, route.POST !== undefined)
  return handler(context, provider)
}
