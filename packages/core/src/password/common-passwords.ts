/**
 * The built-in blocklist of common passwords (OWASP ASVS v5 6.2.4), kept as one newline-joined
 * string (its source and licence are named in `common-passwords.generated.ts`) and made into a set
 * on the first check, so an instance that never sets a password builds nothing.
 */
import { COMMON_PASSWORDS } from "./common-passwords.generated.js"

let blocklist: ReadonlySet<string> | undefined

/**
 * Whether `normalized` (the NFKC form) is on the blocklist, compared case-insensitively: the list
 * holds each entry NFKC and lower case, as the lookup makes its key.
 */
export function isCommonPassword(normalized: string): boolean {
  blocklist ??= new Set(COMMON_PASSWORDS.split("\n"))
  return blocklist.has(normalized.toLowerCase())
}
