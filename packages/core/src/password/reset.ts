/**
 * `{basePath}/password/reset-request` and `/password/reset`: a link mailed to the address, valid
 * once within 15 minutes, whose page sets a new password. A request for an unknown address
 * answers exactly as one for a known address. A reset signs nobody in (so it never skips a second
 * factor): it ends every session of the user, stops the old password working, confirms the
 * address the link went to, and is how a user who signs in only through a provider sets a first
 * password.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html NIST SP 800-63B rev 4 §4.2 (account recovery)
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 6.4.1 (recovery does not reveal accounts), 7.4.3 (sessions end after a reset)
 */
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { answerRoute } from "../http/context.js"
import { csrfToken } from "../http/csrf.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { revokeUserRecords } from "../session/records.js"
import { findUserByEmail } from "../sign-in/accounts.js"
import { emit } from "../sign-in/events.js"
import { failedPasswords, readAddress, readPostedForm } from "./form.js"
import { hashPassword } from "./hash.js"
import { isLinkToken, linkUser, mailLink, spendLinkCost, useLink } from "./links.js"
import type { InternalPasswordProvider } from "./options.js"
import { forgotPage, resetPage, routeUrl } from "./pages.js"
import { checkNewPassword } from "./rules.js"
import { passwordStore } from "./store.js"

/** `GET /password/reset-request`: the forgot-password form (`?sent=1`: what happens next). */
export async function forgotForm(context: RequestContext): Promise<Response> {
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const callbackUrl = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  return forgotPage(context, { csrfToken: await csrfToken(context), callbackUrl, error: query.get("error"), sent: query.get("sent") === "1" })
}

/**
 * `POST /password/reset-request { csrfToken, email }`: mails a reset link to the address's account,
 * if there is one; the answer is the same either way, and leaves before the mail does.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 */
export async function requestReset(context: RequestContext): Promise<Response> {
  const adapter = context.config.adapter
  const { fields, target, requested, malformed } = await readPostedForm(context, ["email"])
  const callbackUrl = requested ? target : undefined
  const address = readAddress(fields.email)
  if (malformed || address === undefined) return answerRoute(context, { url: routeUrl(context, "reset-request", { callbackUrl }), error: "invalidEmail" })
  const user = adapter === undefined ? null : await findUserByEmail(adapter, address)
  // The unknown address does the link's work too; neither waits on the store's write or the mail.
  await spendLinkCost(context)
  if (user !== null) void mailLink(context, "reset", user)
  return answerRoute(context, { url: routeUrl(context, "reset-request", { sent: "1", callbackUrl }) })
}

/** `GET /password/reset?token=`: the new-password form of a mailed link (`?done=1`: the page after). */
export async function resetForm(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const query = context.url.searchParams
  const token = query.get("token")
  const { minLength, maxLength } = provider.options.rules
  return resetPage(context, { csrfToken: await csrfToken(context), token: isLinkToken(token) ? token : undefined, rules: { minLength, maxLength }, error: query.get("error"), done: query.get("done") === "1" })
}

/**
 * `POST /password/reset { csrfToken, token, password }`: sets the new password of the link's user.
 * The rules are asked before the link is used, so a refused password leaves the link usable.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 */
export async function reset(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const { config } = context
  const options = provider.options
  auditAs(context, "passwordReset", provider.id)
  const { fields, malformed } = await readPostedForm(context, ["token", "password"])
  const token = fields.token
  if (malformed || !isLinkToken(token ?? null) || token === undefined) {
    await auditFailure(context, "invalidCode")
    return answerRoute(context, { url: routeUrl(context, "reset", {}), error: "invalidToken" })
  }
  // The link's user, read (not used) first: its address is among what the password must not be.
  const named = await linkUser(context, token)
  const checked = await checkNewPassword(context, options.rules, fields.password ?? "", [named?.email, named?.name])
  if (!checked.ok) {
    await auditFailure(context, "passwordRefused")
    return answerRoute(context, { url: routeUrl(context, "reset", { token }), error: checked.reason })
  }
  const hash = await hashPassword(checked.password)
  const user = await useLink(context, "reset", token)
  if (user === undefined) {
    await auditFailure(context, "invalidCode")
    return answerRoute(context, { url: routeUrl(context, "reset", {}), error: "invalidToken" })
  }
  auditUser(context, user.id)
  await passwordStore(context, options.store).set(user.id, hash)
  const adapter = config.adapter
  // The link went to the address and came back: it is proven, as a followed sign-in link proves it.
  if (user.emailVerified == null && adapter !== undefined) {
    const now = new Date()
    const updated = storedUser(await callAdapter(adapter, "updateUser", { id: user.id, emailVerified: now })) ?? { ...user, emailVerified: now }
    await emit(config, "updateUser", { user: updated })
  }
  // Whoever held a session (or guessed at the old password) is shut out: the reset is a fresh start.
  await revokeUserRecords(config, user.id, "passwordChange")
  const attempts = typeof user.email === "string" ? await failedPasswords(context, provider.id, user.email) : undefined
  if (attempts !== undefined) await attempts.store.reset(attempts.key)
  await sendNotice(context, user.email, "passwordReset")
  await auditSuccess(context, user.id)
  return answerRoute(context, { url: routeUrl(context, "reset", { done: "1" }) })
}
