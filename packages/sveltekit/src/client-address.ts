/**
 * The client's address for core's per-client limits (`rateLimit.perClient`), as SvelteKit's
 * adapter knows it: `event.getClientAddress()` (the socket's address, or what the adapter is
 * told to trust, such as adapter-node's `ADDRESS_HEADER` and `XFF_DEPTH`).
 */
import { withClientAddress } from "@portcullis/core/client-address"
import type { RequestEvent } from "@sveltejs/kit"

/**
 * `event.request` with its client address recorded for core. An adapter that cannot tell the
 * address throws from `getClientAddress()`: the request then goes without one, and core's
 * per-client limits leave it alone (and say once how to supply it).
 */
export function addressedRequest(event: RequestEvent): Request {
  let address: string | undefined
  try {
    address = event.getClientAddress()
  } catch {
    address = undefined
  }
  return withClientAddress(event.request, address)
}
