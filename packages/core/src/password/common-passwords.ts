/**
 * The built-in blocklist of common passwords (OWASP ASVS v5 6.2.4, NIST SP 800-63B rev 4
 * §3.1.1.2): the list shipped in `common-passwords.generated.ts` (which names its source and
 * licence), kept as one newline-joined string and made into a set on the first check, so an
 * instance that never sets a password builds nothing; the repetitive and sequential passwords NIST
 * names, which no list can hold at every length (a 15-code-point minimum is met by `aaaaaaaaaaaaaaa`
 * and by any short password typed twice); and the values the app expects (the user's address).
 * Every comparison is of NFKC forms, case-insensitive.
 */
import { COMMON_PASSWORDS } from "./common-passwords.generated.js"

let blocklist: ReadonlySet<string> | undefined

/**
 * Whether `normalized` (the NFKC form) is a password an attacker tries first: on the list, one
 * short run repeated, one steady sequence (`abcdefghijklmnop`, `987654321098765`), or one of
 * `expected` (values tied to the account, such as its email address).
 */
export function isCommonPassword(normalized: string, expected: readonly (string | null | undefined)[] = []): boolean {
  const key = normalized.toLowerCase()
  blocklist ??= new Set(COMMON_PASSWORDS.split("\n"))
  if (blocklist.has(key) || isRepeated(key) || isSequence(key)) return true
  return expected.some((value) => typeof value === "string" && value !== "" && value.normalize("NFKC").toLowerCase() === key)
}

/** One run typed over and over: `aaaaaaaa`, `abcabcabc`, `iloveyouiloveyou`. */
function isRepeated(key: string): boolean {
  return /^(.+?)\1+$/su.test(key)
}

/**
 * Each code point one above (or each one below) the one before it, digits wrapping from 9 to 0
 * (or 0 to 9): `abcdefghijklmno`, `1234567890123456`, `zyxwvutsrqponml`.
 */
function isSequence(key: string): boolean {
  const points = Array.from(key, (char) => char.codePointAt(0) ?? 0)
  return [1, -1].some((step) => points.every((point, index) => index === 0 || nextInSequence(points[index - 1] ?? 0, step) === point))
}

const ZERO = 0x30
const NINE = 0x39

function nextInSequence(point: number, step: number): number {
  if (point >= ZERO && point <= NINE) return ZERO + ((point - ZERO + step + 10) % 10)
  return point + step
}
