/**
 * Where `Auth()` (and the server-side calls) hand a request to the per-client limits
 * (`rateLimit.perClient`). The limiter itself loads only when a client address can be known, or
 * once to warn that none is: an app that supplies no address carries this check and nothing more.
 */
import { recordedClientAddress } from "./client-address-tag.js"
import type { RequestContext } from "../internal.js"
import type { Route } from "../http/routes.js"

/** The limits (one object per configuration) already warned about: no client address was known. */
const warned = new WeakSet<object>()

/** The actions a per-client rule may count (`client-limit.ts` tells which rule, if any): a session read is never one. */
const COUNTED = new Set(["signin", "callback", "flow", "session", "reauth", "account", "mfa", "password"])

let loaded: typeof import("./client-limit.js") | undefined

/**
 * Counts the request against its client's allowance for its route group and answers `429` when
 * it is over; `undefined` lets the request through (a route no rule covers, no address, limits off).
 *
 * @throws {Configuration} when the app's `clientAddress` hook throws.
 */
export async function limitClient(context: RequestContext, route: Route): Promise<Response | undefined> {
  const { rateLimit, clientAddress } = context.config
  if (rateLimit?.perClient === false || rateLimit === undefined) return undefined
  if (!COUNTED.has(route.action) || (route.action === "session" && context.request.method !== "POST")) return undefined
  if (clientAddress === undefined && recordedClientAddress(context.request) === undefined && warned.has(rateLimit)) return undefined
  // Fetched once: an `import()` on every request would cost more than a session read.
  loaded ??= await import("./client-limit.js")
  return loaded.countClient(context, route, warned)
}
