/**
 * Which inbox an address reaches, as one key for counting. A mail system delivers many spellings
 * to one mailbox (a `+tag`, upper case, full-width forms, a domain in Unicode or in punycode, and
 * at Gmail any dots), so a limit counted per spelling is a fresh allowance per spelling. A leaf
 * with no imports, below the flows: the email flow keys its mail limit by it, the credentials
 * flow its lockout, and `@portcullis/core/email` exports it without loading either.
 */

/** Domains whose mailboxes ignore dots in the local part, each with the one name it is counted under. */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([
  ["gmail.com", "gmail.com"],
  ["googlemail.com", "gmail.com"],
])

/**
 * Characters that would end a URL's host or be dropped from it: a domain holding one is not read
 * through `URL`, which would otherwise key `a/b` as `a` or `ex\nample` as `example`.
 */
const NOT_IN_HOST = /[\p{Cc}\s#%/:<>?@[\\\]^|]/u

/** Unicode compatibility forms folded and case dropped, folded again: lower-casing can undo NFKC. */
function foldCase(text: string): string {
  return text.toLowerCase().normalize("NFKC")
}

/**
 * The domain in ASCII, as a mail system resolves it: UTS #46 through the WHATWG URL parser, so
 * `bücher.example` and `xn--bcher-kva.example` are one domain. A domain `URL` cannot read is kept
 * as written, case folded: still one stable key, and no mail is ever sent to it.
 *
 * @see https://www.unicode.org/reports/tr46/#ToASCII UTS #46 ToASCII
 * @see https://url.spec.whatwg.org/#concept-host-parser WHATWG host parser
 */
function asciiDomain(domain: string): string {
  if (domain === "" || NOT_IN_HOST.test(domain)) return foldCase(domain)
  let ascii: string
  try {
    ascii = new URL(`http://${domain}`).hostname
  } catch {
    return foldCase(domain)
  }
  // The root's dot names the same domain.
  return foldCase(ascii.endsWith(".") ? ascii.slice(0, -1) : ascii)
}

/**
 * The key of the inbox `address` reaches, for counting what is sent to it or tried against it:
 * NFKC, the domain to ASCII (IDNA, UTS #46), lower case, NFKC again, a `+tag` dropped from the
 * local part, and for `gmail.com` (and `googlemail.com`, counted as `gmail.com`) the local part's
 * dots dropped. A value without `@` (a user name) is only folded (NFKC, lower case, NFKC).
 *
 * Keys are for counting, never for sending: mail still goes to the address as given. A key may
 * join two addresses that a mail system keeps apart (a host where case or `+` matters); that only
 * makes a limit count them together, never lets more through. It never throws: an empty,
 * malformed or hostile value gets a stable key of its own (surrounding space trimmed).
 *
 * @example
 * ```ts
 * import { mailboxKey } from "@portcullis/core/email"
 *
 * mailboxKey("Ada.Lovelace+news@GoogleMail.com") // "adalovelace@gmail.com"
 * mailboxKey("ａｄａ@bücher.example") // "ada@xn--bcher-kva.example"
 * ```
 * @see https://www.unicode.org/reports/tr15/ Unicode normalisation forms (NFKC)
 * @see https://www.rfc-editor.org/rfc/rfc5233 Sieve subaddress extension (`user+detail`)
 */
export function mailboxKey(address: string): string {
  const text = address.normalize("NFKC").trim()
  const at = text.lastIndexOf("@")
  if (at < 0) return foldCase(text)
  let local = foldCase(text.slice(0, at))
  let domain = asciiDomain(text.slice(at + 1))
  const tag = local.indexOf("+")
  if (tag >= 0) local = local.slice(0, tag)
  const dotless = DOTLESS_DOMAINS.get(domain)
  if (dotless !== undefined) {
    local = local.replaceAll(".", "")
    domain = dotless
  }
  return `${local}@${domain}`
}
