/**
 * Re-authentication with an authenticator app's code (`POST {basePath}/reauth/totp`), offered to a
 * user with a confirmed TOTP factor when the app's `mfa.factors` lists `"totp"` (a passkey is offered
 * only as the passkey way, `ways.ts`). The code is
 * checked by the second factors' own check (`factors/check-code.ts`: a time step accepted once,
 * wrong codes counted per user and per factor), so a re-authentication is no easier a way to guess
 * one than a sign-in. Loaded only when `mfa` is set.
 */
import { auditAs } from "../audit/audit.js"
import { auditFailure } from "../audit/trail.js"
import { checkTotp, confirmedFactors, type CodeCheck } from "../factors/check-code.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { answerRoute, readForm } from "../http/context.js"
import { verifyCsrf } from "../http/csrf.js"
import type { RequestContext } from "../internal.js"
import { reauthUrl } from "../session/recent.js"
import type { AuditReason } from "../types.js"
import { finishReauth } from "./ending.js"
import { TOTP_WAY, type ReauthWay } from "./ways.js"

/** The longest code read: six digits, with the spaces people type. */
const MAX_CODE = 16

/** The authenticator app, when the user has a confirmed TOTP factor that is not locked; none otherwise. */
export async function totpWays(context: RequestContext, userId: string): Promise<ReauthWay[]> {
  if (context.config.mfa?.factors.includes("totp") !== true || context.config.adapter === undefined) return []
  const factors = await confirmedFactors(context, userId)
  return factors.some((factor) => factor.type === "totp" && factor.lockedAt == null) ? [{ kind: "totp" }] : []
}

/** How a refused code is audited: a locked factor is one whose codes are paused. */
function auditReason(check: Extract<CodeCheck, { ok: false }>): AuditReason {
  return check.reason === "locked" ? "rateLimited" : check.reason
}

/**
 * `POST /reauth/totp { csrfToken, callbackUrl, code }`: a right code raises the session (methods
 * `otp` and `mfa`: level 2); a wrong, replayed or rate-limited one sends the browser back to the
 * page with its reason (`error=invalidCode` ...), the session unchanged.
 *
 * @throws {MissingCSRF} when the form's CSRF token does not check out.
 * @throws {AdapterError} when the store fails.
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2 (one use per time step; throttling)
 */
export async function reauthWithTotp(context: RequestContext, userId: string): Promise<Response> {
  auditAs(context, "reauth", TOTP_WAY)
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  const callbackUrl = await resolveCallbackUrl(context, form.get("callbackUrl"))
  context.returnTo = callbackUrl
  const code = form.get("code") ?? ""
  const check: CodeCheck = code === "" || code.length > MAX_CODE ? { ok: false, reason: "invalidCode" } : await checkTotp(context, userId, code)
  if (!check.ok) {
    await auditFailure(context, auditReason(check), userId)
    return answerRoute(context, { url: reauthUrl(context, callbackUrl), error: check.reason, status: check.reason === "rateLimited" ? 429 : 400 })
  }
  return finishReauth(context, { provider: TOTP_WAY, startedBy: userId, proves: { userId }, methods: ["otp", "mfa"] }, callbackUrl)
}
