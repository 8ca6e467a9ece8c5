/**
 * Email addresses as sign-in identifiers: what the user typed, normalised, then checked to be
 * exactly one plain address (no display name, no list, no comment, no quoted local part), so
 * a link is only ever sent to one mailbox and stored under one identifier.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.5.3.1 Size limits
 * @see https://www.rfc-editor.org/rfc/rfc5322#section-3.4.1 addr-spec
 */
import { EmailSignInError } from "../errors/errors.js"
import type { InternalEmailProvider } from "./provider.js"

/** The longest address SMTP carries (a 256-octet path, less its angle brackets). */
const MAX_ADDRESS = 254
/** The longest input read at all: longer is refused before any work is done on it. */
const MAX_INPUT = 320
const MAX_LOCAL = 64

/** A dot-atom local part: letters and digits of any script and the unquoted specials, no `"`, `,`, `<`, `(`, `@` or space. */
const LOCAL_PART = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u
/** One DNS label: letters and digits (of any script), inner hyphens, at most 63 characters. */
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u

/** The default normaliser: surrounding space removed, lowercased. */
export function defaultNormalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase()
}

/** Whether `value` is exactly one plain address `local@domain.tld`. */
export function isSingleAddress(value: string): boolean {
  if (value.length > MAX_ADDRESS) return false
  const at = value.indexOf("@")
  if (at <= 0 || at !== value.lastIndexOf("@")) return false
  const local = value.slice(0, at)
  const labels = value.slice(at + 1).split(".")
  return local.length <= MAX_LOCAL && LOCAL_PART.test(local) && labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label))
}

/**
 * The identifier to sign in with, from the submitted `email` field: normalised by the
 * provider's `normalizeIdentifier` (or the default), then checked.
 *
 * @throws {EmailSignInError} when the field is missing, repeated, too long, or not exactly one address.
 */
export function readIdentifier(provider: InternalEmailProvider, submitted: readonly string[]): string {
  if (submitted.length !== 1) throw new EmailSignInError(`The sign-in form must send exactly one \`email\` field (got ${submitted.length}).`)
  const raw = submitted[0] as string
  if (raw.length > MAX_INPUT) throw new EmailSignInError(`The submitted email is ${raw.length} characters long; at most ${MAX_INPUT} are read.`)
  let identifier: unknown
  try {
    identifier = (provider.normalizeIdentifier ?? defaultNormalizeIdentifier)(raw)
  } catch (cause) {
    throw new EmailSignInError(`The \`normalizeIdentifier\` of provider "${provider.id}" refused the submitted email.`, { cause })
  }
  if (typeof identifier !== "string" || !isSingleAddress(identifier)) {
    throw new EmailSignInError("The submitted email is not exactly one plain address (no display name, list, comment or quotes).")
  }
  return identifier
}
