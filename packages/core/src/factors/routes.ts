/**
 * The second factor's routes under `{basePath}/mfa`: the challenge page (`/mfa`), the code that
 * completes a pending sign-in (`/mfa/verify`) and the mailed code's sending (`/mfa/email`) here; enrolment and removal (`/mfa/setup`,
 * `/mfa/totp/setup`, `/mfa/totp/confirm`, `/mfa/backup-codes`, `/mfa/remove`) in `enrol-routes.ts`.
 * Loaded by `import()` from `Auth()`'s route table: an app without `mfa` loads none of it.
 */
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser } from "../audit/trail.js"
import { answerRoute, html, json, readFields, redirect } from "../http/context.js"
import { admitScripts } from "../http/script-policy.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { notFound } from "../http/failures.js"
import { signInPageUrl } from "../http/routes.js"
import type { RequestContext } from "../internal.js"
import type { AuditReason } from "../types.js"
import { checkBackupCode, checkTotp, emailCodeAddress, factorKind, isListed, listedFactors, type CodeCheck } from "./check-code.js"
import { mfaChallengePage, type ChallengeFactor } from "./pages.js"
import { passkeyFactor } from "./gate.js"
import { chargePending, completePending, endPending, lastAttempt, readPending, type PendingSignIn } from "./pending.js"

/** The longest code read: a backup code typed with spaces and hyphens is well under it. */
const MAX_CODE = 64
/** The longest passkey assertion read (its JSON): a real one is well under a few kilobytes. */
const MAX_CREDENTIAL = 16 * 1024

/** Answers a request to `{basePath}/mfa/{sub}`. */
export async function mfaRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  if (sub !== "" && sub !== "verify" && sub !== "email") return (await import("./enrol-routes.js")).enrolRoute(context, method, sub)
  if (context.config.mfa === undefined) return notFound(context.request, context.url, context.config)
  if (sub === "" && method === "GET") return challenge(context)
  if (sub === "verify" && method === "POST") return verify(context)
  if (sub === "email" && method === "POST" && context.config.mfa.factors.includes("email")) return (await import("./email-code.js")).emailCodeRoute(context)
  return notFound(context.request, context.url, context.config)
}

/** A fetch that asked for JSON (and not a page). */
function wantsJson(request: Request): boolean {
  const accept = request.headers.get("accept") ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}

/**
 * The factors of the kinds `mfa.factors` lists that the challenge offers the pending user: a
 * passkey other than the first factor's, an unlocked TOTP factor, and backup codes while any is left.
 */
async function offered(context: RequestContext, pending: PendingSignIn): Promise<ChallengeFactor[]> {
  const factors = await listedFactors(context, pending.signedIn.user.id)
  const offers: ChallengeFactor[] = (await passkeyFactor(context, pending.signedIn)) === undefined ? [] : ["passkey"]
  if (factors.some((factor) => factor.type === "totp" && factor.lockedAt == null)) offers.push("totp")
  if (factors.some((factor) => factor.type === "backup")) offers.push("backup")
  return offers
}

/**
 * `GET /mfa`: the challenge of the request's pending sign-in (JSON `{ factors }` for a fetch that
 * asks for JSON). Under `mfa.required`, a user with no factor yet is sent to `/mfa/setup`; without
 * a pending sign-in, to the sign-in page.
 */
async function challenge(context: RequestContext): Promise<Response> {
  const pending = await readPending(context)
  if (pending === null) {
    const url = signInPageUrl(context)
    return wantsJson(context.request) ? json(context, { error: "SessionRequired", url }, 401) : redirect(context, url, 303)
  }
  const factors = await offered(context, pending)
  if ((await emailCodeAddress(context, pending.signedIn)) !== undefined) factors.push("email")
  const setup = `${context.authUrl}/mfa/setup`
  if (wantsJson(context.request)) return json(context, factors.length === 0 ? { factors, setup } : { factors })
  if (factors.length === 0) return redirect(context, setup, 303)
  const { searchParams } = context.url
  const provider = factors.includes("passkey") ? await passkeyFactor(context, pending.signedIn) : undefined
  const passkey = provider?.flow.secondFactor?.control(context, provider)
  const response = html(context, mfaChallengePage(context, { factors, csrfToken: await csrfToken(context), error: searchParams.get("error") ?? undefined, factor: searchParams.get("factor") ?? undefined, passkey }))
  if (passkey !== undefined) {
    // The passkey's one script, from our origin and pinned by its hash, and its requests to our routes.
    admitScripts(response.headers, ["'self'", passkey.source], { connect: true })
  }
  return response
}

/** What a factor's check found: the method it adds to the session's assurance, or why it was refused. */
type FactorCheck = { ok: true; method: string } | { ok: false; reason: AuditReason }

/** The HTTP status of each refusal a JSON client gets (400 for any other). */
const STATUS: Readonly<Record<Exclude<CodeCheck, { ok: true }>["reason"] | "expired" | "invalidRequest", number>> = {
  invalidCode: 400,
  replayed: 400,
  invalidRequest: 400,
  expired: 401,
  locked: 403,
  rateLimited: 429,
}

/**
 * `POST /mfa/verify { csrfToken, factor: "totp" | "backup" | "email", code }`: completes the pending
 * sign-in with a right code and sends the browser where the first factor would have. An email
 * code is refused as `InvalidFactor`, uncharged, for a sign-in that began with an email link; one
 * that expired or was spent answers `codeExpired` (the page asks for a new one). A factor of a kind
 * `mfa.factors` does not list is refused as `InvalidFactor` (400), uncharged; a wrong code counts
 * against the pending sign-in (the 5th ends it) and the user. Every attempt
 * is charged before its code is checked, so parallel guesses with one cookie are refused, not
 * each checked. Answers by the routes' conventions (`answerRoute`); audited as `secondFactor`.
 *
 * @throws {MissingCSRF} when the CSRF token is missing or wrong.
 * @throws {AdapterError} when the store fails.
 */
async function verify(context: RequestContext): Promise<Response> {
  const fields = await readFields(context.request)
  const field = (name: string): unknown => (fields instanceof URLSearchParams ? fields.get(name) : fields[name])
  const token = field("csrfToken")
  await verifyCsrf(context, typeof token === "string" ? token : null)
  const pending = await readPending(context)
  auditAs(context, "secondFactor", pending?.signedIn.account?.provider)
  if (pending === null) return refuse(context, "expired", signInPageUrl(context))
  const userId = pending.signedIn.user.id
  auditUser(context, userId)
  const factor = field("factor")
  const code = field("code")
  const page = `${context.authUrl}/mfa${factor === "backup" || factor === "email" ? `?factor=${factor}` : ""}`
  // A factor the app does not list is refused before it is charged: it could complete nothing.
  if (factorKind(factor) !== undefined && !isListed(context, factor)) return refuse(context, "invalidRequest", `${context.authUrl}/mfa`, "InvalidFactor")
  if (factor === "passkey") return verifyPasskey(context, pending, asText(field("credential")))
  if ((factor !== "totp" && factor !== "backup" && factor !== "email") || typeof code !== "string" || code.length > MAX_CODE) return refuse(context, "invalidRequest", page)
  // Never after an email link, nor for a user with no verified address: the code could complete nothing.
  if (factor === "email" && (await emailCodeAddress(context, pending.signedIn)) === undefined) return refuse(context, "invalidRequest", `${context.authUrl}/mfa`, "InvalidFactor")
  const charged = await chargePending(context, pending)
  if (charged === null) return refuse(context, "expired", signInPageUrl(context))
  const check =
    factor === "email" ? await (await import("./email-code.js")).checkEmailCode(context, charged, code) : factor === "totp" ? await checkTotp(context, userId, code) : await checkBackupCode(context, userId, code)
  // A mailed code that expired or was spent: the page asks for a new one (the sign-in goes on).
  return conclude(context, charged, check, page, factor === "email" && !check.ok && check.reason === "expired" ? "codeExpired" : undefined)
}

/**
 * `POST /mfa/verify { csrfToken, factor: "passkey", credential }`: the assertion (its JSON) of one
 * of the pending user's passkeys, not the first factor's, made for the challenge
 * `{basePath}/webauthn-options/:id?action=mfa` issued to this pending sign-in. Charged as a code
 * is; any refusal answers `passkeyFailed` (400), and the audit trail says why.
 */
async function verifyPasskey(context: RequestContext, pending: PendingSignIn, credential: unknown): Promise<Response> {
  const page = `${context.authUrl}/mfa`
  const provider = await passkeyFactor(context, pending.signedIn)
  const check = provider?.flow.secondFactor?.verify
  if (provider === undefined || check === undefined || typeof credential !== "string" || credential === "" || credential.length > MAX_CREDENTIAL) return refuse(context, "invalidRequest", page)
  const charged = await chargePending(context, pending)
  if (charged === null) return refuse(context, "expired", signInPageUrl(context))
  const { signedIn } = pending
  return conclude(context, charged, await check(context, provider, { id: pending.id, userId: signedIn.user.id, except: signedIn.credentialId }, credential), page, "passkeyFailed")
}

/** A posted credential as text: a JSON body may carry the assertion as an object rather than its JSON. */
function asText(value: unknown): unknown {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : value
}

/**
 * Ends an attempt after its check: a right one completes the pending sign-in with the method it
 * adds; a wrong one is refused (as `error` when named), and at the last attempt ends the sign-in.
 */
async function conclude(context: RequestContext, charged: PendingSignIn, check: FactorCheck, page: string, error?: string): Promise<Response> {
  if (!check.ok) {
    if (!lastAttempt(charged)) return refuse(context, check.reason, page, error)
    await endPending(context, charged)
    return refuse(context, check.reason, signInPageUrl(context), error)
  }
  await auditSuccess(context, charged.signedIn.user.id, undefined, [check.method])
  const completed = await completePending(context, charged, [check.method])
  if (completed === null) return refuse(context, "expired", signInPageUrl(context))
  return answerRoute(context, { url: completed.target })
}

/** Audits the refusal by `reason` and answers it by the routes' conventions, as `error` (the reason, unless named: then 400). */
async function refuse(context: RequestContext, reason: AuditReason, url: string, error?: string): Promise<Response> {
  await auditFailure(context, reason)
  const status = error === undefined && Object.hasOwn(STATUS, reason) ? STATUS[reason as keyof typeof STATUS] : 400
  return answerRoute(context, { url, error: error ?? reason, status })
}
