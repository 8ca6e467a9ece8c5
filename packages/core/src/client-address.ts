/**
 * `@portcullis/core/client-address`: how the per-client limits (`rateLimit.perClient`) learn who
 * is asking. Integrations record the address their framework knows with `withClientAddress`; an
 * app behind proxies it controls can read it from a forwarded header with `forwardedFor`.
 * Nothing reads a request header unless the app says which one to trust.
 *
 * @module
 */
import { Configuration } from "./errors/errors.js"

export { withClientAddress } from "./limits/client-address-tag.js"

/** Options of {@link forwardedFor}. */
export interface ForwardedForOptions {
  /**
   * How many proxies you control stand in front of the app, each appending the address it was
   * reached from (a load balancer, then a CDN...). The client is the entry that many places from
   * the right; anything further left was written by the client and is not trusted.
   */
  proxies: number
  /** The header to read. Default `x-forwarded-for`; a platform's single-value header (`cf-connecting-ip`) is read with `proxies: 1`. */
  header?: string
}

/** One entry of the list without a port: `203.0.113.7:5000` and `[2001:db8::1]:5000` as proxies may write them. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(entry)
  if (bracketed !== null) return bracketed[1] ?? ""
  return /^[\d.]+:\d+$/.test(entry) ? (entry.split(":")[0] ?? "") : entry
}

/**
 * A `clientAddress` hook reading the client from `X-Forwarded-For` behind `proxies` proxies you
 * control: the entry `proxies` places from the right. A header with fewer entries than that
 * (the request did not pass through all of them) gives no address, and so does an entry that is
 * not an IP address; the per-client limits then do not apply to the request. Use it only when
 * every request reaches the app through those proxies: otherwise a client writes the header
 * itself and picks its own address.
 *
 * @throws {Configuration} when `proxies` is not a positive whole number or `header` not a header name.
 * @example
 * ```ts
 * import { forwardedFor } from "@portcullis/core/client-address"
 *
 * // One load balancer in front of the app.
 * export const config = { providers: [GitHub], clientAddress: forwardedFor({ proxies: 1 }) }
 * ```
 */
export function forwardedFor(options: ForwardedForOptions): (request: Request) => string | undefined {
  const { proxies, header = "x-forwarded-for" } = options as Partial<ForwardedForOptions>
  if (typeof proxies !== "number" || !Number.isInteger(proxies) || proxies < 1 || proxies > 100) {
    throw new Configuration("`forwardedFor({ proxies })` must be the number of proxies you control in front of the app: a whole number from 1.")
  }
  if (typeof header !== "string" || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(header)) {
    throw new Configuration("`forwardedFor({ header })` must be a header name such as \"x-forwarded-for\".")
  }
  return (request) => {
    const entries = (request.headers.get(header) ?? "").split(",").map((entry) => entry.trim())
    // Entries left of those the proxies wrote are the client's own: however many, they never count.
    if (entries.length < proxies) return undefined
    const entry = withoutPort(entries[entries.length - proxies] ?? "")
    return entry === "" ? undefined : entry
  }
}
