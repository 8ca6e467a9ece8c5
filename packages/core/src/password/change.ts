/**
 * `{basePath}/password/change`: a signed-in user's new password, after a recent authentication
 * and with the current password typed again. Every other session of the user ends; the one that
 * changed it goes on; the user's address is mailed a notice.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html NIST SP 800-63B rev 4 §3.1.1.2 (a password changed on the subscriber's request)
 * @see https://github.com/OWASP/ASVS OWASP ASVS v5 6.2.3 (current and new password), 7.4.3 (other sessions end)
 */
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { answerRoute, redirect } from "../http/context.js"
import { csrfToken } from "../http/csrf.js"
import { signInPageUrl } from "../http/routes.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { readSession } from "../session/index.js"
import { revokeUserRecords } from "../session/records.js"
import { requireRecentSession } from "../session/recent.js"
import { SESSION_ID_CLAIM } from "../session/source.js"
import { failedPasswords, readPostedForm } from "./form.js"
import { hashPassword, verifyPassword } from "./hash.js"
import type { InternalPasswordProvider } from "./options.js"
import { changePage, routeUrl } from "./pages.js"
import { checkNewPassword } from "./rules.js"
import { passwordStore } from "./store.js"

/** `GET /password/change`: the form, for a signed-in user (`?done=1`: the page after); else the sign-in page. */
export async function changeForm(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const query = context.url.searchParams
  const requested = query.get("callbackUrl")
  const callbackUrl = requested === null ? undefined : await resolveCallbackUrl(context, requested)
  const current = await readSession(context)
  if (current?.userId === undefined) return redirect(context, signInPageUrl(context, { callbackUrl: routeUrl(context, "change", { callbackUrl }) }), 303)
  const { minLength, maxLength } = provider.options.rules
  return changePage(context, { csrfToken: await csrfToken(context), callbackUrl, rules: { minLength, maxLength }, error: query.get("error"), done: query.get("done") === "1" })
}

/**
 * `POST /password/change { csrfToken, currentPassword, newPassword, callbackUrl? }`.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 */
export async function change(context: RequestContext, provider: FlowProvider<InternalPasswordProvider>): Promise<Response> {
  const { config } = context
  const options = provider.options
  auditAs(context, "passwordChange", provider.id)
  const { fields, target, requested, malformed } = await readPostedForm(context, ["currentPassword", "newPassword"])
  const callbackUrl = requested ? target : undefined
  const form = routeUrl(context, "change", { callbackUrl })
  const recent = await requireRecentSession(context, { callbackUrl: form })
  if (!recent.ok) {
    if (recent.error === "SessionRequired") await auditFailure(context, "signInRequired")
    return recent.response
  }
  const userId = recent.current.userId
  auditUser(context, userId)
  if (malformed) {
    await auditFailure(context, "invalidRequest", userId)
    return answerRoute(context, { url: form, error: "invalidCredentials" })
  }
  const store = passwordStore(context, options.store)
  const user = config.adapter === undefined ? undefined : storedUser(await callAdapter(config.adapter, "getUser", userId))
  const stored = await store.get(userId)
  if (stored === null || user === undefined) {
    await auditFailure(context, "invalidRequest", userId)
    return answerRoute(context, { url: form, error: "noPassword" })
  }
  // A stolen session guessing at the current password is counted as any other guess.
  const attempts = typeof user.email === "string" ? await failedPasswords(context, provider.id, user.email) : undefined
  if (attempts !== undefined && (await attempts.store.hit(attempts.key, attempts.windowSeconds)).count > attempts.failures) {
    await auditFailure(context, "rateLimited", userId)
    return answerRoute(context, { url: form, error: "rateLimited", status: 429 })
  }
  const current = await verifyPassword(stored, fields.currentPassword ?? "", options.legacy === undefined ? undefined : { legacy: options.legacy })
  if (!current.ok) {
    await auditFailure(context, "invalidCredentials", userId)
    return answerRoute(context, { url: form, error: "invalidCredentials" })
  }
  if (attempts !== undefined) await attempts.store.reset(attempts.key)
  const checked = await checkNewPassword(context, options.rules, fields.newPassword ?? "", [user.email, user.name])
  if (!checked.ok) {
    await auditFailure(context, "passwordRefused", userId)
    return answerRoute(context, { url: form, error: checked.reason })
  }
  await store.set(userId, await hashPassword(checked.password))
  await revokeUserRecords(config, userId, "passwordChange", { recordId: recent.current.token?.[SESSION_ID_CLAIM], sessionToken: recent.current.sessionToken })
  await sendNotice(context, user.email, "passwordChanged")
  await auditSuccess(context, userId)
  return answerRoute(context, { url: routeUrl(context, "change", { done: "1", callbackUrl }) })
}
