/**
 * Who is asking: the client's address as core keys its per-client limits and shows it in the
 * list of signed-in sessions, and its user agent as session records and audit events keep it.
 * Loaded with those only, never with `Auth()`'s entry.
 */
import { recordedClientAddress } from "./client-address-tag.js"
import { Configuration } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"
import { clientAddressKey } from "./ip-address.js"

/**
 * The request's client address from the app's `clientAddress` hook (which wins) or the one an
 * integration recorded: IPv4 as itself, IPv6 as its /64; `undefined` when neither names one IP
 * address.
 *
 * @throws {Configuration} when the app's hook throws.
 */
export async function clientAddressOf(context: RequestContext): Promise<string | undefined> {
  const hook = context.config.clientAddress
  if (hook === undefined) return clientAddressKey(recordedClientAddress(context.request))
  try {
    return clientAddressKey(await hook(context.request))
  } catch (cause) {
    throw new Configuration("The `clientAddress` hook threw: it must answer the client's IP address, or `undefined` when it has none.", { cause })
  }
}

/** The longest user agent kept: enough to describe a device, too short to carry much else. */
const MAX_USER_AGENT = 256

/** The request's `User-Agent`, cut to 256 characters; `undefined` when it sends none (or an empty one). */
export function userAgentOf(request: Request): string | undefined {
  const agent = request.headers.get("user-agent")
  return agent === null || agent === "" ? undefined : agent.slice(0, MAX_USER_AGENT)
}
