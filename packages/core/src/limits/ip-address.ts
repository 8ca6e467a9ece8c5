/**
 * A client's IP address as a counter key: IPv4 as its four numbers, an IPv4-mapped IPv6 address
 * as the IPv4 address it maps, any other IPv6 address as its /64 prefix (one host commonly holds
 * the whole /64, so counting single IPv6 addresses would give one client 2^64 allowances).
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

function ipv4(text: string): string | undefined {
  const parts = IPV4.exec(text)?.slice(1).map(Number)
  return parts !== undefined && parts.every((part) => part <= 255) ? parts.join(".") : undefined
}

/** The eight 16-bit groups of an IPv6 address in the URL standard's serialisation (lower-case, one `::` at most). */
function groups(serialized: string): number[] {
  const [head = "", tail] = serialized.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const zeros: string[] = Array.from({ length: 8 - left.length - right.length }, () => "0")
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) => parseInt(group, 16))
}

/**
 * The counter key of an address (`"203.0.113.7"`, `"2001:db8:1:2::/64"`), or `undefined` for
 * anything that is not one IP address: a host name, a list, a port, a zone, an empty string.
 * Brackets around an IPv6 address are accepted.
 */
export function clientAddressKey(address: unknown): string | undefined {
  if (typeof address !== "string" || address.length > 64) return undefined
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const four = ipv4(text)
  if (four !== undefined) return four
  if (!text.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(text)) return undefined
  let serialized: string
  try {
    // The URL standard's IPv6 parser: `::`, embedded IPv4 and every other spelling, one output.
    serialized = new URL(`http://[${text}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
  const words = groups(serialized)
  if (words.length !== 8 || words.some((word) => Number.isNaN(word))) return undefined
  if (words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff) {
    const [high = 0, low = 0] = words.slice(6)
    return [high >> 8, high & 255, low >> 8, low & 255].join(".")
  }
  return `${words.slice(0, 4).map((word) => word.toString(16)).join(":")}::/64`
}
