/**
 * What every password route reads first: the posted form (its CSRF token checked, the page to go
 * on to resolved), each field once and of bounded size, the address folded as the email flow
 * folds it, and the counter of failed passwords per inbox (`rateLimit.credentials`).
 */
import { defaultNormalizeIdentifier, isSingleAddress } from "../email/address.js"
import { verifyFormTarget } from "../http/callback-url.js"
import { readForm } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey, type RateLimits } from "../limits/rate-limit.js"

/** The longest value read from one field: a password is bounded by the rules far below it. */
const MAX_VALUE = 1024

/** A posted form, read: its fields (each sent at most once, within bounds), and where the browser goes on to. */
export interface PostedForm {
  fields: Readonly<Record<string, string>>
  /** The resolved `callbackUrl` (the app's root when none was sent). */
  target: string
  /** Whether `callbackUrl` was sent. */
  requested: boolean
  /** A field repeated or over the bound: the form as a whole is refused. */
  malformed: boolean
}

/**
 * Reads the form, checks its CSRF token, and takes `names` from it; every value read joins the
 * request's redacted values.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {InvalidCallbackUrl} when `callbackUrl` is not the app's.
 */
export async function readPostedForm(context: RequestContext, names: readonly string[]): Promise<PostedForm> {
  const form = await readForm(context.request)
  const requested = form.get("callbackUrl")
  const target = await verifyFormTarget(context, form, requested)
  const fields: Record<string, string> = {}
  let malformed = false
  for (const name of names) {
    const values = form.getAll(name)
    if (values.length > 1 || (values[0]?.length ?? 0) > MAX_VALUE) malformed = true
    const [value] = values
    if (value === undefined) continue
    context.sensitive.add(value)
    fields[name] = value
  }
  return { fields, target, requested: requested !== null, malformed }
}

/** The address as accounts are keyed by it (trimmed, lower case), or `undefined` when it is not exactly one plain address. */
export function readAddress(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 320) return undefined
  const address = defaultNormalizeIdentifier(value)
  return isSingleAddress(address) ? address : undefined
}

/** The counter of failed passwords for the inbox `address` reaches, when the limit applies. */
export interface FailedPasswords {
  store: RateLimits["store"]
  key: string
  failures: number
  windowSeconds: number
}

/**
 * The counter of failed passwords for `address`'s inbox under provider `providerId`: every spelling
 * of one inbox (a `+tag`, case, full-width forms) shares one allowance, as credentials count it.
 */
export async function failedPasswords(context: RequestContext, providerId: string, address: string): Promise<FailedPasswords | undefined> {
  const limits = rateLimitsOf(context.config)
  const identifier = mailboxKey(address)
  if (limits === undefined || identifier === "") return undefined
  return { store: limits.store, key: await targetKey(`password ${providerId}`, identifier), failures: limits.credentials.failures, windowSeconds: limits.credentials.windowSeconds }
}
