/**
 * The client address an integration read from its framework (Express's `req.ip`, SvelteKit's
 * `getClientAddress()`), kept beside the `Request` it built: configurations are resolved once
 * and cached, so the address of each request cannot travel in the configuration.
 */

const addresses = new WeakMap<Request, string>()

/**
 * Records the client address of `request` for `Auth()`'s per-client limits and answers the same
 * request. For integrations, which read the address from their framework; an app's own
 * `clientAddress` option, when set, is asked instead. A missing address is not recorded.
 *
 * @example
 * ```ts
 * import { withClientAddress } from "@portcullis/core/client-address"
 *
 * const response = await Auth(withClientAddress(request, socket.remoteAddress), config)
 * ```
 */
export function withClientAddress(request: Request, address: string | null | undefined): Request {
  if (typeof address === "string" && address !== "") addresses.set(request, address)
  return request
}

/** The address an integration recorded for `request`, if any. */
export function recordedClientAddress(request: Request): string | undefined {
  return addresses.get(request)
}
