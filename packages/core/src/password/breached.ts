/**
 * The breached-password check (`breachedPasswords`, OWASP ASVS v5 6.2.12) through a Pwned
 * Passwords range API, by k-anonymity: only the first 5 hex characters of the password's SHA-1
 * leave the server, and the answer lists every known suffix under that prefix. The check is an
 * addition to the rules, never a gate on them: within its budget it can refuse a password, but a
 * slow, failed or unreadable answer accepts the password with one warning.
 *
 * @see https://haveibeenpwned.com/API/v3#SearchingPwnedPasswordsByRange Searching by range
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver NIST SP 800-63B rev 4 §3.1.1.2
 */
import type { RequestContext } from "../internal.js"
import { fetchWithin, withDeadline } from "../outbound/deadline.js"
import { readLimitedText } from "../outbound/limited-body.js"

/** The whole check, the answer's body included. */
const BUDGET_MS = 2_000
/** A padded range answer is some 40 KB: far more is not one. */
const MAX_BODY_BYTES = 1 << 20
const PREFIX_LENGTH = 5
/** One line of a range answer: the other 35 hex characters of a SHA-1, and how often it was seen (0 on a padding line). */
const RANGE_LINE = /^([0-9A-F]{35}):(\d+)$/i

/** A Pwned Passwords range API: its address without the `/range/` path, and the fetch that reaches it. */
export interface RangeApi {
  url: string
  fetch: typeof fetch
}

/** Why the check gave no verdict; named in the warning, which never holds the password or its hash. */
class NoVerdict extends Error {}

/**
 * Whether the range API knows `normalized` (the NFKC form) as breached: `false` when it does not,
 * and when the check fails or runs out of time (one warning logged).
 */
export async function isBreachedPassword(context: RequestContext, api: RangeApi, normalized: string): Promise<boolean> {
  const hash = await sha1Hex(normalized)
  const suffix = hash.slice(PREFIX_LENGTH)
  try {
    const body = await withDeadline(BUDGET_MS, new NoVerdict(`no answer within ${String(BUDGET_MS)} ms`), async (signal) => {
      // Padding makes every answer about the same size, so its length tells an observer nothing of the prefix.
      const response = await fetchWithin(api.fetch, `${api.url}/range/${hash.slice(0, PREFIX_LENGTH)}`, { signal, headers: { "add-padding": "true" } })
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined)
        throw new NoVerdict(`the API answered HTTP ${String(response.status)}`)
      }
      return readLimitedText(response, MAX_BODY_BYTES, () => new NoVerdict("the answer was larger than 1 MiB"))
    })
    return knownSuffix(body, suffix)
  } catch (error) {
    const reason = error instanceof NoVerdict ? error.message : `the request failed (${error instanceof Error ? error.name : "not an Error"})`
    context.config.logger.warn("BreachedPasswordCheck", `The breached-password check gave no verdict (${reason}): the new password was accepted without it.`)
    return false
  }
}

/**
 * Whether the range answer `body` lists `suffix` with a count above 0.
 *
 * @throws {NoVerdict} when a line is not `SUFFIX:COUNT`, or there is none: that is not a range answer.
 */
function knownSuffix(body: string, suffix: string): boolean {
  let lines = 0
  let known = false
  for (const line of body.split(/\r?\n/)) {
    if (line === "") continue
    const match = RANGE_LINE.exec(line)
    if (match === null) throw new NoVerdict("the answer was not a range list")
    lines++
    if (match[1]?.toUpperCase() === suffix && Number(match[2]) > 0) known = true
  }
  if (lines === 0) throw new NoVerdict("the answer was empty")
  return known
}

/** The SHA-1 of the UTF-8 bytes of `text`, in upper-case hex as the range API writes it. */
async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)))
  let hex = ""
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0")
  return hex.toUpperCase()
}
