/**
 * Changing the account's email address (issue 38): `POST {basePath}/account/email` mails a link to
 * the new address and answers the same whatever the address is; the link opens a page whose form
 * applies the change (`POST {basePath}/account/email/confirm`), in any browser, signed in or not.
 * The address is stored on the user only then, verified, so an address nobody confirmed never
 * reaches the user record, the account-linking rules or a sign-in link.
 *
 * The link carries a sealed value naming the user, the new address and a random nonce; the store
 * keeps the nonce's keyed hash (bound to the address) as a verification token under the user's
 * pending-change identifier (`pending.ts`), for one hour. Using it deletes it (single use); a newer
 * request, "sign out everywhere" and account deletion delete it first, so only the newest link of
 * a live account works.
 */
import type { Adapter, AdapterMethod, AdapterUser } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser, endOperation } from "../audit/trail.js"
import { deriveKeys, hmac, randomString, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { defaultNormalizeIdentifier, isSingleAddress } from "../email/address.js"
import { EmailSignInError } from "../errors/errors.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { html, json, readFields } from "../http/context.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { publicOrigin } from "../http/outbound-urls.js"
import type { RequestContext } from "../internal.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import { mailBody, sendMail } from "../outbound/mail.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { adapterWith, answersJson, recentActor } from "./actor.js"
import { checkInboxPage, confirmEmailPage, emailChangedPage, LINK_LIFETIME_WORDS, linkRefusedPage } from "./pages.js"
import { cancelEmailChange, emailChangeIdentifier } from "./pending.js"

/** How long a change's link works, in seconds (the pages say it in words: `LINK_LIFETIME_WORDS`). */
export const EMAIL_CHANGE_MAX_AGE = 60 * 60

/** What a change needs of the adapter: the user read, the address looked up and written, the link stored, used and cancelled. */
const CHANGE_METHODS: readonly AdapterMethod[] = ["getUser", "getUserByEmail", "updateUser", "createVerificationToken", "useVerificationToken", "deleteVerificationTokens"]

/** The longest `email` field read at all (as the email flow reads it). */
const MAX_INPUT = 320
/** The longest link token read: a sealed value of a user id, an address and a nonce is far shorter. */
const MAX_TOKEN = 2048

const TOKEN_SALT = "@portcullis/core email change token"
const LINK_SALT = "@portcullis/core email change link"

/** What a change's link carries, sealed: the user, the new address, the nonce whose hash the store keeps, the expiry (epoch seconds). */
interface ChangeLink {
  u: string
  e: string
  n: string
  x: number
}

function changeAdapter(context: RequestContext): Adapter {
  return adapterWith(context, CHANGE_METHODS, "Changing the email address (`POST /account/email`, `changeEmail()`)")
}

/** A string field of a form or JSON body; `null` for none or another type. */
function stringField(fields: Record<string, unknown> | URLSearchParams, name: string): string | null {
  if (fields instanceof URLSearchParams) return fields.getAll(name).length === 1 ? fields.get(name) : null
  const value = fields[name]
  return typeof value === "string" ? value : null
}

/**
 * The new address, as the email flow reads an address: trimmed, lower-cased, exactly one plain address.
 *
 * @throws {EmailSignInError} for anything else.
 */
function readNewAddress(submitted: string | null): string {
  if (submitted === null || submitted.length > MAX_INPUT) throw new EmailSignInError(`An email change sends one \`email\` field of at most ${String(MAX_INPUT)} characters.`)
  const address = defaultNormalizeIdentifier(submitted)
  if (!isSingleAddress(address)) throw new EmailSignInError("The new email is not exactly one plain address (no display name, list, comment or quotes).")
  return address
}

/** The stored hash of a link's nonce, bound to its address. */
function storedToken(key: SecretKey, link: Pick<ChangeLink, "n" | "e">): Promise<string> {
  return hmac(`${link.n}\u0000${link.e}`, key)
}

/** The answer every accepted request gets, whatever was done: nothing in it tells whether the address is anyone's. */
function sameAnswer(context: RequestContext): Response {
  return answersJson(context) ? json(context, { ok: true }) : html(context, checkInboxPage(context))
}

/** Whether this mail to `address` is over the address's mail allowance (`rateLimit.mailPerAddress`), keyed by its mailbox. */
async function overMailLimit(context: RequestContext, address: string): Promise<boolean> {
  const limits = rateLimitsOf(context.config)
  if (limits === undefined) return false
  const { count } = await limits.store.hit(await targetKey("mail", mailboxKey(address)), limits.mail.windowSeconds)
  if (count <= limits.mail.limit) return false
  context.config.logger.warn("MailLimit", `An address was sent ${String(limits.mail.limit)} mails within ${String(limits.mail.windowSeconds)} s; no email change link is sent to it until then (\`rateLimit.mailPerAddress\`).`)
  return true
}

/** The mail to an address another account has: no link, only what happened and what to do if it was them. */
async function mailTaken(context: RequestContext, to: string): Promise<void> {
  const body = mailBody([
    "Someone asked to move an account to this email address, but another account already uses it, so nothing was changed.",
    "If it was you, sign in with this address instead. If it was not, you can ignore this message.",
  ])
  await sendMail(context, { to, kind: "emailChange", subject: "This address already has an account", ...body })
}

/** The mail with the link to the new address. */
async function mailLink(context: RequestContext, to: string, url: string): Promise<void> {
  const body = mailBody([`Open this link within ${LINK_LIFETIME_WORDS} to use this address for your account:`, url, "If you did not ask for this, ignore this message: nothing changes."])
  await sendMail(context, { to, kind: "emailChange", url, subject: "Confirm your new email address", ...body })
}

/**
 * Stores the change's token (after ending any older one) and mails its link to `address`.
 *
 * @throws {Configuration} when the app configured no origin to build the link on.
 * @throws {AdapterError} when the store fails.
 */
async function sendChangeLink(context: RequestContext, adapter: Adapter, userId: string, address: string): Promise<void> {
  const { config } = context
  // Built first: a link on an origin taken from a forged Host header would hand the token to that host.
  const route = `${publicOrigin(config.origins, context.origin, context.url, "An email change's link")}${config.basePath}/account/email/confirm`
  const link: ChangeLink = { u: userId, e: address, n: randomString(32), x: Math.floor(Date.now() / 1000) + EMAIL_CHANGE_MAX_AGE }
  const [tokenKey] = await deriveKeys(config.secrets, TOKEN_SALT, "hmac")
  const [linkKey] = await deriveKeys(config.secrets, LINK_SALT, "jwe")
  const token = await storedToken(tokenKey as SecretKey, link)
  await callAdapter(adapter, "createVerificationToken", { identifier: emailChangeIdentifier(userId), token, expires: new Date(link.x * 1000) })
  const url = `${route}?${new URLSearchParams({ token: await sealJwe(link, linkKey as SecretKey) }).toString()}`
  await mailLink(context, address, url)
}

/**
 * `POST {basePath}/account/email` (`{ csrfToken, email, callbackUrl? }`, a form or JSON): for a
 * recently authenticated user (see `recentActor`), ends any pending change and mails a link to
 * the new address, or, when another account has that address, a mail saying so, with no link.
 * Answers the same either way (`{ ok: true }`, or the "check your inbox" page), also when the
 * address's mail allowance is spent or it is the user's own.
 *
 * @throws {Configuration} when the adapter lacks a method the change needs.
 * @throws {MissingCSRF} without a valid CSRF token.
 * @throws {EmailSignInError} when `email` is not one plain address.
 * @throws {AdapterError} when the store fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 7.5.1 (re-authentication before changing the address), 6.3.7 (the old address is told)
 */
export async function requestEmailChange(context: RequestContext): Promise<Response> {
  auditAs(context, "emailChange")
  const adapter = changeAdapter(context)
  const fields = await readFields(context.request)
  await verifyCsrf(context, stringField(fields, "csrfToken"))
  const recent = await recentActor(context, await resolveCallbackUrl(context, stringField(fields, "callbackUrl")))
  if (!recent.ok) return recent.response
  const { userId } = recent.current
  auditUser(context, userId)
  const address = readNewAddress(stringField(fields, "email"))
  const user = storedUser(await callAdapter(adapter, "getUser", userId))
  if (user === undefined || user.email === address) {
    await auditFailure(context, "invalidRequest", userId)
    return sameAnswer(context)
  }
  // A newer request ends the older one, even when this one sends no link.
  await cancelEmailChange(context.config, userId)
  if (await overMailLimit(context, address)) {
    await auditFailure(context, "rateLimited", userId)
    return sameAnswer(context)
  }
  const owner = storedUser(await callAdapter(adapter, "getUserByEmail", address))
  if (owner !== undefined && owner.id !== userId) {
    await mailTaken(context, address)
    await auditFailure(context, "addressTaken", userId)
    return sameAnswer(context)
  }
  await sendChangeLink(context, adapter, userId, address)
  // Asked, not applied: the link's post ends it with the `emailChange` success.
  await endOperation(context, "pending", undefined, userId, undefined)
  return sameAnswer(context)
}

/** The link's sealed value, when it opens under one of the app's secrets, is well formed and has not expired; `undefined` otherwise. */
async function openLink(context: RequestContext, token: string | null): Promise<ChangeLink | undefined> {
  if (token === null || token === "" || token.length > MAX_TOKEN) return undefined
  const opened: unknown = await openJwe(token, await deriveKeys(context.config.secrets, LINK_SALT, "jwe")).catch(() => undefined)
  if (typeof opened !== "object" || opened === null) return undefined
  const { u, e, n, x } = opened as Partial<Record<keyof ChangeLink, unknown>>
  if (typeof u !== "string" || typeof e !== "string" || typeof n !== "string" || typeof x !== "number") return undefined
  return x * 1000 > Date.now() ? { u, e, n, x } : undefined
}

/** Refuses a link: the page (or `403 { error: "Verification" }` for a script), audited as a used or unknown code. */
async function refuseLink(context: RequestContext, userId?: string): Promise<Response> {
  await auditFailure(context, "invalidCode", userId)
  return answersJson(context) ? json(context, { error: "Verification" }, 403) : html(context, linkRefusedPage(context), 403)
}

/**
 * `GET {basePath}/account/email/confirm?token=`: the page that asks to confirm the new address,
 * with a form whose post applies it. Changes nothing: a mail scanner that opens the link cannot
 * apply the change.
 */
export async function showConfirmPage(context: RequestContext): Promise<Response> {
  const token = context.url.searchParams.get("token")
  const link = await openLink(context, token)
  if (link === undefined || token === null) return html(context, linkRefusedPage(context), 403)
  return html(context, confirmEmailPage(context, { email: link.e, token, csrfToken: await csrfToken(context) }))
}

/** Uses (deletes) the link's stored token: `true` when it was the user's pending change, unexpired, for this address. */
async function useLink(context: RequestContext, adapter: Adapter, link: ChangeLink): Promise<boolean> {
  for (const key of await deriveKeys(context.config.secrets, TOKEN_SALT, "hmac")) {
    const found = await callAdapter(adapter, "useVerificationToken", { identifier: emailChangeIdentifier(link.u), token: await storedToken(key, link) })
    if (found === null || typeof found !== "object") continue
    const expires = new Date(found.expires).getTime()
    return Number.isFinite(expires) && expires > Date.now()
  }
  return false
}

/**
 * Writes the new address, verified now, unless another user took it since the link was sent (the
 * store's own uniqueness answers a race lost after this check).
 *
 * @throws {AdapterError} when the store fails (an address taken in a lost race included).
 */
async function applyChange(adapter: Adapter, user: AdapterUser, address: string): Promise<AdapterUser | undefined> {
  const owner = storedUser(await callAdapter(adapter, "getUserByEmail", address))
  if (owner !== undefined && owner.id !== user.id) return undefined
  return storedUser(await callAdapter(adapter, "updateUser", { id: user.id, email: address, emailVerified: new Date() })) ?? { ...user, email: address }
}

/**
 * `POST {basePath}/account/email/confirm` (`{ csrfToken, token }`): applies the change the link
 * names, once, in any browser: the new address verified now, the old one told (a notice with
 * neither link nor code). A link that is unreadable, expired, used, replaced by a newer request or
 * ended by "sign out everywhere", or whose address another account took since, changes nothing.
 *
 * @throws {Configuration} when the adapter lacks a method the change needs.
 * @throws {MissingCSRF} without a valid CSRF token (the confirm page sets it).
 * @throws {AdapterError} when the store fails.
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 6.3.7 (a notice after the change)
 */
export async function confirmEmailChange(context: RequestContext): Promise<Response> {
  auditAs(context, "emailChange")
  const adapter = changeAdapter(context)
  const fields = await readFields(context.request)
  await verifyCsrf(context, stringField(fields, "csrfToken"))
  const link = await openLink(context, stringField(fields, "token"))
  if (link === undefined) return refuseLink(context)
  auditUser(context, link.u)
  if (!(await useLink(context, adapter, link))) return refuseLink(context, link.u)
  const user = storedUser(await callAdapter(adapter, "getUser", link.u))
  if (user === undefined) return refuseLink(context, link.u)
  const changed = await applyChange(adapter, user, link.e)
  if (changed === undefined) {
    await auditFailure(context, "addressTaken", link.u)
    return answersJson(context) ? json(context, { error: "Verification" }, 403) : html(context, linkRefusedPage(context), 403)
  }
  await sendNotice(context, user.email, "emailChanged")
  await auditSuccess(context, user.id)
  return answersJson(context) ? json(context, { ok: true }) : html(context, emailChangedPage(context, link.e))
}
