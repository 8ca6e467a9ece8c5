/**
 * The one definition of loopback: which host names are this machine. Two questions share it.
 * A browser origin is loopback for `localhost`, its subdomains, `127.0.0.0/8` and `[::1]`
 * (browsers resolve `*.localhost` to this machine themselves). A plain-http request the server
 * sends may only go to a host that cannot leave the machine: the same, except `*.localhost`,
 * which Node resolves through the system resolver and a DNS server may point anywhere.
 *
 * Both take a host name as `URL.hostname` gives it: lower case, IPv4 in dotted decimal
 * (`http://127.1` and `http://0x7f.0.0.1` arrive as `127.0.0.1`), IPv6 in brackets.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6761#section-6.3 Domain Name Reservation Considerations for "localhost."
 * @module
 */

const IPV4_LOOPBACK = /^127(?:\.\d{1,3}){3}$/

/**
 * Whether a host name is this machine as a browser sees it: `localhost` and its subdomains,
 * `127.0.0.0/8` and `[::1]`.
 *
 * @example
 * ```ts
 * isLoopbackHost(new URL("http://app.localhost:3000").hostname) // true
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname.endsWith(".localhost") || isLoopbackAddress(hostname)
}

/**
 * Whether a host name is this machine without help from DNS: `127.0.0.0/8`, `[::1]` and
 * `localhost` (the hosts file's), the only hosts a plain-http outbound request may reach.
 * `*.localhost` is not one.
 *
 * @example
 * ```ts
 * isLoopbackAddress(new URL("http://127.0.0.1:8080/token").hostname) // true
 * isLoopbackAddress(new URL("http://idp.localhost/token").hostname) // false
 * ```
 */
export function isLoopbackAddress(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || IPV4_LOOPBACK.test(hostname)
}
