/**
 * The links a password account is mailed: one to confirm its address after sign-up (valid a day)
 * and one to reset its password (valid 15 minutes). Each is random, single use, and stored only
 * as an HMAC keyed by the secret in a verification-token row, so a leaked token table resets no
 * password. A link's token names its user (`<user id, base64url>.<random>`), so the form it opens
 * carries one field.
 */
import type { AdapterUser } from "../adapters.js"
import { base64url, deriveKeys, fromBase64url, hmac, randomString } from "../crypto/crypto.js"
import { AuthError, EmailSignInError } from "../errors/errors.js"
import { sanitizeError } from "../errors/logger.js"
import { publicOrigin } from "../http/outbound-urls.js"
import type { RequestContext } from "../internal.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import { sendMail } from "../outbound/mail.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { escapeHtml } from "../pages/layout.js"

/** What a link does. */
export type LinkKind = "verify" | "reset"

const SALT = "@portcullis/core password links"

/** How long a link stays usable, in seconds: a reset only briefly (NIST SP 800-63B rev 4 §3.1.1.2 asks for short-lived recovery). */
const LIFETIME: Readonly<Record<LinkKind, number>> = { verify: 24 * 60 * 60, reset: 15 * 60 }

/** The longest token read from a form or a URL: far above a real one, far below the body limit. */
const MAX_TOKEN = 512

const ROUTE: Readonly<Record<LinkKind, string>> = { verify: "verify", reset: "reset" }

const MAILS: Readonly<Record<LinkKind, { kind: "passwordVerify" | "passwordReset"; subject: string; lead: string; action: string; tail: string }>> = {
  verify: {
    kind: "passwordVerify",
    subject: "Confirm your email address",
    lead: "Someone created an account with this address. Open the link to confirm it is yours; it works once, within a day.",
    action: "Confirm my address",
    tail: "If you did not sign up, ignore this mail: without the link, the account cannot sign in.",
  },
  reset: {
    kind: "passwordReset",
    subject: "Reset your password",
    lead: "Someone asked to reset the password of the account with this address. Open the link to choose a new one; it works once, within 15 minutes.",
    action: "Choose a new password",
    tail: "If you did not ask, ignore this mail: your password stays as it is.",
  },
}

/** A link's row is keyed by its user and the address it was mailed to: once the address changes, the link proves nothing. */
function identifierOf(kind: LinkKind, userId: string, address: string): string {
  return `password-${kind}:${userId}:${address.toLowerCase()}`
}

async function linkKeys(context: RequestContext) {
  return deriveKeys(context.config.secrets, SALT, "hmac")
}

/** A new token for `userId`, with its HMAC under the current secret. */
async function newToken(context: RequestContext, userId: string): Promise<{ token: string; mac: string }> {
  const token = `${base64url(new TextEncoder().encode(userId))}.${randomString(32)}`
  const [key] = await linkKeys(context)
  return { token, mac: await hmac(token, key as NonNullable<typeof key>) }
}

/**
 * Whether the address may be mailed now (`rateLimit.mailPerAddress`, counted per inbox); past the
 * limit nothing is sent and the caller answers as usual, telling nobody anything.
 */
export async function mayMail(context: RequestContext, address: string): Promise<boolean> {
  const limits = rateLimitsOf(context.config)
  if (limits === undefined) return true
  const { count } = await limits.store.hit(await targetKey("mail", mailboxKey(address)), limits.mail.windowSeconds)
  if (count <= limits.mail.limit) return true
  context.config.logger.warn("MailLimit", `An address was sent ${String(limits.mail.limit)} mails within ${String(limits.mail.windowSeconds)} s; no more is sent until then (\`rateLimit.mailPerAddress\`).`)
  return false
}

/**
 * Stores a `kind` link for `user` and mails it to the user's address, within the address's mail
 * allowance. Never throws: a failure is logged, and the page the person sees is the same.
 */
export async function mailLink(context: RequestContext, kind: LinkKind, user: AdapterUser): Promise<void> {
  const { config } = context
  const to = user.email
  try {
    if (typeof to !== "string" || to === "" || !(await mayMail(context, to))) return
    const adapter = config.adapter
    if (adapter === undefined) return
    const { token, mac } = await newToken(context, user.id)
    context.sensitive.add(token)
    await callAdapter(adapter, "createVerificationToken", { identifier: identifierOf(kind, user.id, to), token: mac, expires: new Date(Date.now() + LIFETIME[kind] * 1000) })
    const origin = publicOrigin(config.origins, context.origin, context.url, "A password account's mailed link")
    const url = `${origin}${config.basePath}/password/${ROUTE[kind]}?${new URLSearchParams({ token }).toString()}`
    const mail = MAILS[kind]
    await sendMail(context, {
      to,
      kind: mail.kind,
      subject: mail.subject,
      url,
      text: `${mail.lead}\n\n${url}\n\n${mail.tail}`,
      html: `<p>${escapeHtml(mail.lead)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(mail.action)}</a></p><p>${escapeHtml(mail.tail)}</p>`,
    })
  } catch (error) {
    const failure = error instanceof AuthError ? error : new EmailSignInError(`A password account's "${kind}" link was not sent.`, { cause: error })
    config.logger.error(sanitizeError(failure, context.sensitive))
  }
}

/**
 * The work of {@link mailLink} up to its store call, done for nobody: the path for an unknown
 * address takes as long as the known one's.
 */
export async function spendLinkCost(context: RequestContext): Promise<void> {
  await newToken(context, crypto.randomUUID())
}

/** The user id a token names, when it is shaped as one of ours. */
function userIdOf(token: string): string | undefined {
  if (token.length > MAX_TOKEN) return undefined
  const dot = token.indexOf(".")
  if (dot <= 0) return undefined
  const bytes = fromBase64url(token.slice(0, dot))
  if (bytes === undefined) return undefined
  try {
    const id = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    return id === "" ? undefined : id
  } catch {
    return undefined
  }
}

/**
 * The stored user a token names (nothing is used or checked beyond its shape): what a new
 * password must not be is known before the link is spent.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function linkUser(context: RequestContext, token: string): Promise<AdapterUser | undefined> {
  const adapter = context.config.adapter
  const userId = userIdOf(token)
  if (adapter === undefined || userId === undefined) return undefined
  return storedUser(await callAdapter(adapter, "getUser", userId))
}

/**
 * Uses (deletes) the token of a `kind` link: the user it was made for, when it was stored for the
 * user's address as it is now and has not expired; else `undefined`. A token stored under an
 * older secret is found while that secret is listed.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function useLink(context: RequestContext, kind: LinkKind, token: string): Promise<AdapterUser | undefined> {
  const adapter = context.config.adapter
  if (adapter === undefined) return undefined
  context.sensitive.add(token)
  const user = await linkUser(context, token)
  if (user === undefined || typeof user.email !== "string" || user.email === "") return undefined
  for (const key of await linkKeys(context)) {
    const found = await callAdapter(adapter, "useVerificationToken", { identifier: identifierOf(kind, user.id, user.email), token: await hmac(token, key) })
    if (found === null || typeof found !== "object") continue
    // A third-party adapter may hand back an expired row; it is used up either way.
    const expires = new Date(found.expires).getTime()
    return Number.isFinite(expires) && expires > Date.now() ? user : undefined
  }
  return undefined
}

/** Whether a token is shaped as one of ours, for the page a link opens (nothing is used). */
export function isLinkToken(token: string | null): token is string {
  return token !== null && userIdOf(token) !== undefined
}
