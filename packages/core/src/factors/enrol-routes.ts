/**
 * Enrolling and removing second factors: `/mfa/setup` (the page), `/mfa/totp/setup`,
 * `/mfa/totp/confirm`, `/mfa/passkey/options`, `/mfa/passkey/register`, `/mfa/backup-codes` and
 * `/mfa/remove`. Each POST is CSRF-checked and acts
 * for one user: the signed-in user after a recent authentication (`session/recent.ts`; at level 2
 * once they have a confirmed factor, so a stolen first factor cannot change the second), or,
 * under `mfa.required`, a user without a factor whose sign-in waits for one (the pending state),
 * who may only set one up. A passkey is set up here only by that pending user: a signed-in user
 * adds one through the passkey provider's own routes, as before. What is written, and how two racing requests end, is `enrolment.ts`'s.
 */
import type { AdapterUser } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser } from "../audit/trail.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { answerRoute, html, json, readForm } from "../http/context.js"
import { admitScripts } from "../http/script-policy.js"
import { csrfToken, verifyCsrf } from "../http/csrf.js"
import { jsonError, methodNotAllowed, notFound } from "../http/failures.js"
import { MissingCSRF } from "../errors/flow-errors.js"
import type { FlowProvider, InternalMfa, RequestContext } from "../internal.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { homePage } from "../pages/layout.js"
import { signInPageUrl } from "../http/routes.js"
import { requireRecentSession } from "../session/recent.js"
import { raiseAssurance } from "../session/start.js"
import type { AuditReason } from "../types.js"
import { checkTotp, confirmedFactors, emailCodeAddress, type CodeCheck } from "./check-code.js"
import { mfaSetupPage, type SetupOffers } from "./enrol-page.js"
import { confirmedTotp, confirmTotp, issueBackupCodes, listFactors, pendingTotp, removeFactors, startTotp } from "./enrolment.js"
import { passkeyFactor } from "./gate.js"
import { backupCodesPage, totpSetupPage } from "./pages.js"
import { chargePending, completePending, endPending, lastAttempt, readPending, type PendingSignIn } from "./pending.js"

/** The routes served here, by their id under `/mfa`. */
const ROUTES = new Set(["setup", "totp/setup", "totp/confirm", "passkey/options", "passkey/register", "backup-codes", "remove"])
/** The routes that concern the authenticator app, served only when `mfa.factors` lists `"totp"`. */
const TOTP_ROUTES = new Set(["totp/setup", "totp/confirm"])
/** The routes that register a passkey for a pending sign-in, served only when `mfa.factors` lists `"passkey"`. */
const PASSKEY_ROUTES = new Set(["passkey/options", "passkey/register"])
/** The longest passkey registration read (its JSON): a real one, attestation included, is a few kilobytes. */
const MAX_CREDENTIAL = 16 * 1024

/** Who a request acts for, once allowed. */
interface Actor {
  user: AdapterUser
  /** The user has a confirmed factor (so the session proved level 2). */
  enrolled: boolean
  /** Set when the actor is a pending sign-in under `mfa.required`, not a session. */
  pending?: PendingSignIn
}

type Allowed = { ok: true; actor: Actor } | { ok: false; response: Response; reason: AuditReason }

/** A script asking for JSON (and not for a page). */
function asksJson(request: Request): boolean {
  const accept = request.headers.get("accept") ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}

/** The client reads data, not a page: the fetch-based client, or a script asking for JSON. */
function wantsData(request: Request): boolean {
  return request.headers.get("x-auth-return-redirect") === "1" || asksJson(request)
}

/** A user as `mfa.required` and the notices read it: the store's, else what the session or the pending sign-in names. */
async function userOf(context: RequestContext, id: string, named: { email?: string | null; name?: string | null } | undefined): Promise<AdapterUser> {
  const { adapter } = context.config
  const stored = typeof adapter?.getUser === "function" ? storedUser(await callAdapter(adapter, "getUser", id)) : undefined
  return stored ?? { id, email: named?.email ?? null, emailVerified: null, name: named?.name ?? null }
}

/** Whether the user has a factor that gates their sign-in, a locked one included: it is theirs until they remove it. */
async function hasConfirmedFactor(context: RequestContext, userId: string): Promise<boolean> {
  return (await confirmedFactors(context, userId)).length > 0
}

/**
 * The request's actor: a recent enough session (level 2 once the user has a confirmed factor);
 * for enrolment, under `mfa.required`, a pending sign-in of a user who has no factor, a passkey
 * or an address an email code could go to included (else a stolen first factor could enrol its
 * own second in place of the user's).
 */
async function actorOf(context: RequestContext, mfa: InternalMfa, options: { enrolment: boolean; callbackUrl: string }): Promise<Allowed> {
  if (options.enrolment) {
    const pending = await readPending(context)
    if (pending !== null) {
      const user = await userOf(context, pending.signedIn.user.id, pending.signedIn.user)
      const unenrolled = !(await hasConfirmedFactor(context, user.id)) && (await passkeyFactor(context, pending.signedIn)) === undefined && (await emailCodeAddress(context, pending.signedIn)) === undefined
      if (unenrolled && (await mfa.required(user))) return { ok: true, actor: { user, enrolled: false, pending } }
    }
  }
  let recent = await requireRecentSession(context, { callbackUrl: options.callbackUrl })
  if (!recent.ok) return { ok: false, response: recent.response, reason: refusalReason(recent.error) }
  const { userId, session } = recent.current
  const enrolled = await hasConfirmedFactor(context, userId)
  if (enrolled && recent.current.assurance.level < 2) {
    recent = await requireRecentSession(context, { level: 2, callbackUrl: options.callbackUrl })
    if (!recent.ok) return { ok: false, response: recent.response, reason: refusalReason(recent.error) }
  }
  return { ok: true, actor: { user: recent.current.user ?? (await userOf(context, userId, session.user)), enrolled } }
}

function refusalReason(error: "SessionRequired" | "ReauthRequired"): AuditReason {
  return error === "ReauthRequired" ? "reauthRequired" : "signInRequired"
}

/** The name an authenticator app lists the account under: the user's address, else their name, else their id. */
function accountName(user: AdapterUser): string {
  return user.email ?? (typeof user.name === "string" && user.name !== "" ? user.name : user.id)
}

/** The HTTP status of a refused first code, for a JSON client (as `/mfa/verify` answers them). */
const CODE_STATUS: Readonly<Record<Exclude<CodeCheck, { ok: true }>["reason"], number>> = { invalidCode: 400, replayed: 400, locked: 403, rateLimited: 429 }

/**
 * Answers a request to `{basePath}/mfa/{sub}` for enrolment and removal: `404` as for an unknown
 * route when `mfa` is not configured (or `sub` names no route here, or a TOTP route when
 * `mfa.factors` leaves TOTP out).
 *
 * @throws {MissingCSRF} for a POST without a valid CSRF token.
 * @throws {UnknownAction} for an unreadable, oversized or unsupported body.
 * @throws {AdapterError} when the store fails.
 */
export async function enrolRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  const { mfa } = context.config
  if (mfa === undefined || !ROUTES.has(sub) || (TOTP_ROUTES.has(sub) && !mfa.factors.includes("totp")) || (PASSKEY_ROUTES.has(sub) && !mfa.factors.includes("passkey"))) {
    return notFound(context.request, context.url, context.config)
  }
  if (sub === "setup") return method === "GET" ? setupPage(context, mfa) : methodNotAllowed(context, true, false)
  if (method !== "POST") return methodNotAllowed(context, false, true)
  if (sub === "totp/confirm" || sub === "passkey/register") auditAs(context, "mfaEnrol")
  if (sub === "backup-codes") auditAs(context, "backupCodesRegenerate")
  if (sub === "remove") auditAs(context, "mfaRemove")
  const form = await readForm(context.request)
  try {
    await verifyCsrf(context, form.get("csrfToken"))
  } catch (error) {
    // A script asking for JSON hears the refusal as JSON (the routes' conventions); a form, or the
    // fetch-based client, gets the sign-in page's redirect every refused form gets.
    if (!(error instanceof MissingCSRF) || !asksJson(context.request)) throw error
    context.config.logger.error(error)
    await auditFailure(context, "invalidRequest")
    return jsonError(context, error.code, 403)
  }
  const callbackUrl = await resolveCallbackUrl(context, form.get("callbackUrl") ?? homePage(context.config.theme, context.origin))
  const allowed = await actorOf(context, mfa, { enrolment: TOTP_ROUTES.has(sub) || PASSKEY_ROUTES.has(sub), callbackUrl: setupUrl(context, callbackUrl) })
  if (!allowed.ok) {
    await auditFailure(context, allowed.reason)
    return allowed.response
  }
  const { actor } = allowed
  auditUser(context, actor.user.id)
  const step = { context, mfa, actor, callbackUrl }
  if (sub === "totp/setup") return setupTotp(step)
  if (sub === "totp/confirm") return confirm(step, form.get("code"))
  if (PASSKEY_ROUTES.has(sub)) return enrolPasskey(step, sub === "passkey/register" ? (form.get("credential") ?? "") : undefined)
  if (sub === "backup-codes") return regenerate(step)
  return remove(step, form.get("factor"))
}

interface Step {
  context: RequestContext
  mfa: InternalMfa
  actor: Actor
  callbackUrl: string
}

/** The set-up page's URL, carrying where the browser goes once done. */
function setupUrl(context: RequestContext, callbackUrl: string): string {
  const url = new URL(`${context.authUrl}/mfa/setup`, context.origin)
  url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}

/** `GET /mfa/setup`: the page, for a user who may enrol (else the sign-in or re-authentication page). */
async function setupPage(context: RequestContext, mfa: InternalMfa): Promise<Response> {
  const callbackUrl = await resolveCallbackUrl(context, context.url.searchParams.get("callbackUrl") ?? homePage(context.config.theme, context.origin))
  const allowed = await actorOf(context, mfa, { enrolment: true, callbackUrl: setupUrl(context, callbackUrl) })
  if (!allowed.ok) return allowed.response
  const { user, enrolled, pending } = allowed.actor
  const required = await mfa.required(user)
  const error = context.url.searchParams.get("error") ?? undefined
  const offers = setupOffers(context, mfa, pending)
  if (wantsData(context.request)) return json(context, { enrolled, required, factors: [...(offers.totp ? ["totp"] : []), ...(offers.passkey === undefined ? [] : ["passkey"])] })
  const page = html(context, mfaSetupPage(context, { enrolled, required, offers, csrfToken: await csrfToken(context), callbackUrl, error }))
  // The passkey flow's one script (same origin, pinned by its hash) and its requests to our routes.
  if (offers.passkey !== undefined) admitScripts(page.headers, ["'self'", offers.passkey.source], { connect: true })
  return page
}

/** The provider whose passkeys a pending user may register here (`SignInFlow.secondFactor.enrol`), when `mfa.factors` lists `"passkey"`. */
function enrollingProvider(context: RequestContext, mfa: InternalMfa): FlowProvider | undefined {
  return mfa.factors.includes("passkey") ? context.config.providers.find((each) => each.flow.secondFactor?.enrol !== undefined) : undefined
}

/**
 * What the set-up page offers, of the kinds `mfa.factors` lists: the authenticator app; a passkey
 * to a pending sign-in (its control); for a signed-in user, the word that a passkey added to the
 * account becomes a second step.
 */
function setupOffers(context: RequestContext, mfa: InternalMfa, pending: PendingSignIn | undefined): SetupOffers {
  const provider = enrollingProvider(context, mfa)
  const control = pending === undefined ? undefined : provider?.flow.secondFactor?.control(context, provider)
  return { totp: mfa.factors.includes("totp"), passkey: control, passkeyElsewhere: pending === undefined && provider !== undefined, email: mfa.factors.includes("email") }
}

/**
 * `POST /mfa/passkey/options` answers the registration options for the pending user (JSON, as the
 * page's script asks); `POST /mfa/passkey/register { credential }` checks the passkey made with
 * them and, once it is stored, completes the pending sign-in with `"hwk"` (see the core README's
 * "Second factors" for why a passkey just registered counts). Only a pending sign-in under
 * `mfa.required` enrols here (`400 PendingSignInOnly` for a session). The registration is charged
 * to the pending sign-in as a code is: its fifth refusal ends it.
 */
async function enrolPasskey({ context, mfa, actor, callbackUrl }: Step, credential: string | undefined): Promise<Response> {
  const provider = enrollingProvider(context, mfa)
  const enrol = provider?.flow.secondFactor?.enrol
  const { pending } = actor
  if (pending === undefined || provider === undefined || enrol === undefined) {
    await auditFailure(context, "invalidRequest", actor.user.id)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "PendingSignInOnly" })
  }
  const factor = { id: pending.id, userId: actor.user.id, except: pending.signedIn.credentialId }
  if (credential === undefined) return enrol.options(context, provider, factor)
  if (credential === "" || credential.length > MAX_CREDENTIAL) {
    await auditFailure(context, "invalidRequest", actor.user.id)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "passkeyFailed" })
  }
  const waiting = await chargePending(context, pending)
  if (waiting === null) {
    await auditFailure(context, "expired", actor.user.id)
    return answerRoute(context, { url: signInPageUrl(context), error: "expired", status: 401 })
  }
  const check = await enrol.register(context, provider, factor, credential)
  if (!check.ok) {
    await auditFailure(context, check.reason, actor.user.id)
    if (!lastAttempt(waiting)) return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "passkeyFailed" })
    await endPending(context, waiting)
    return answerRoute(context, { url: signInPageUrl(context), error: "passkeyFailed" })
  }
  await auditSuccess(context, actor.user.id, undefined, [check.method])
  const completed = await completePending(context, waiting, [check.method])
  if (completed === null) return answerRoute(context, { url: signInPageUrl(context), error: "expired", status: 401 })
  return answerRoute(context, { url: completed.target })
}

/** `POST /mfa/totp/setup`: a new secret to scan, `409 FactorExists` when an authenticator is confirmed already. */
async function setupTotp({ context, actor, callbackUrl }: Step): Promise<Response> {
  if (confirmedTotp(await listFactors(context, actor.user.id)) !== undefined) {
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "FactorExists", status: 409 })
  }
  const setup = await startTotp(context, actor.user.id, accountName(actor.user))
  if (wantsData(context.request)) return json(context, setup)
  return html(context, totpSetupPage(context, { ...setup, csrfToken: await csrfToken(context), callbackUrl }))
}

/**
 * `POST /mfa/totp/confirm`: the first code of the newest set-up; once accepted (its step counted
 * as used), the authenticator is confirmed, ten backup codes are made and shown once, the user is
 * mailed a notice, and a pending sign-in completes (its session at level 2) or the session is
 * raised to level 2 with `"otp"`.
 */
async function confirm({ context, actor, callbackUrl }: Step, code: string | null): Promise<Response> {
  const userId = actor.user.id
  const factors = await listFactors(context, userId)
  if (confirmedTotp(factors) !== undefined) {
    await auditFailure(context, "invalidRequest", userId)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "FactorExists", status: 409 })
  }
  const pending = await pendingTotp(context, userId, accountName(actor.user))
  if (pending === undefined) {
    await auditFailure(context, "expired", userId)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "SetupExpired" })
  }
  // A waiting sign-in's codes are charged before they are checked, as `/mfa/verify` charges them:
  // its fifth wrong code ends it, whichever route the codes came through.
  const waiting = actor.pending === undefined ? undefined : await chargePending(context, actor.pending)
  if (waiting === null) {
    await auditFailure(context, "expired", userId)
    return answerRoute(context, { url: signInPageUrl(context), error: "expired", status: 401 })
  }
  const check = await checkTotp(context, userId, code ?? "", { factorId: pending.factor.id })
  if (!check.ok) {
    await auditFailure(context, check.reason, userId)
    if (waiting !== undefined && lastAttempt(waiting)) {
      await endPending(context, waiting)
      return answerRoute(context, { url: signInPageUrl(context), error: check.reason, status: CODE_STATUS[check.reason] })
    }
    if (wantsData(context.request)) return answerRoute(context, { url: setupUrl(context, callbackUrl), error: check.reason, status: CODE_STATUS[check.reason] })
    return html(context, totpSetupPage(context, { secret: pending.secret, uri: pending.uri, csrfToken: await csrfToken(context), callbackUrl, error: check.reason }), 400)
  }
  if (!(await confirmTotp(context, userId, pending.factor))) {
    // Another confirmation of this user won the race (its factor and its backup codes stand), or a
    // newer set-up replaced this one while its code was checked.
    const taken = confirmedTotp(await listFactors(context, userId)) !== undefined
    await auditFailure(context, taken ? "invalidRequest" : "expired", userId)
    return answerRoute(context, taken ? { url: setupUrl(context, callbackUrl), error: "FactorExists", status: 409 } : { url: setupUrl(context, callbackUrl), error: "SetupExpired" })
  }
  const backupCodes = await issueBackupCodes(context, userId)
  context.sensitive.add(backupCodes.join("\n"))
  for (const backupCode of backupCodes) context.sensitive.add(backupCode)
  await auditSuccess(context, userId)
  await sendNotice(context, actor.user.email, "totpAdded")
  let continueUrl = callbackUrl
  if (waiting !== undefined) {
    const completed = await completePending(context, waiting, ["otp"])
    continueUrl = completed?.target ?? continueUrl
  } else {
    await raiseAssurance(context, { add: ["otp", "mfa"] })
  }
  if (wantsData(context.request)) return json(context, { backupCodes, url: continueUrl })
  return html(context, backupCodesPage(context, { codes: backupCodes, continueUrl }))
}

/** `POST /mfa/backup-codes`: ten new codes replace the old ones, shown once; needs a confirmed authenticator. */
async function regenerate({ context, actor, callbackUrl }: Step): Promise<Response> {
  const userId = actor.user.id
  if (confirmedTotp(await listFactors(context, userId)) === undefined) {
    await auditFailure(context, "invalidRequest", userId)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "NoFactor", status: 409 })
  }
  const backupCodes = await issueBackupCodes(context, userId)
  for (const backupCode of backupCodes) context.sensitive.add(backupCode)
  await auditSuccess(context, userId)
  await sendNotice(context, actor.user.email, "backupCodesRegenerated")
  if (wantsData(context.request)) return json(context, { backupCodes, url: callbackUrl })
  return html(context, backupCodesPage(context, { codes: backupCodes, continueUrl: callbackUrl }))
}

/**
 * `POST /mfa/remove { factor }`: `"totp"` removes the authenticator and the backup codes with it
 * (they back it up; left alone they would gate every sign-in on a code the user no longer has a
 * way to renew), `"backup"` the backup codes only. Refused (`409 LastFactor`) when the user would
 * be left with no factor while `mfa.required` names them.
 */
async function remove({ context, mfa, actor, callbackUrl }: Step, factor: string | null): Promise<Response> {
  const userId = actor.user.id
  if (factor !== "totp" && factor !== "backup") {
    await auditFailure(context, "invalidRequest", userId)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "InvalidFactor" })
  }
  const factors = await listFactors(context, userId)
  const left = factors.filter((other) => (other.confirmedAt ?? null) !== null && (factor === "totp" ? false : other.type !== "backup"))
  if (left.length === 0 && (await mfa.required(actor.user))) {
    await auditFailure(context, "lastSignInMethod", userId)
    return answerRoute(context, { url: setupUrl(context, callbackUrl), error: "LastFactor", status: 409 })
  }
  if (factor === "totp") await removeFactors(context, userId, "totp")
  await removeFactors(context, userId, "backup")
  await auditSuccess(context, userId)
  await sendNotice(context, actor.user.email, factor === "totp" ? "totpRemoved" : "backupCodesRemoved")
  return answerRoute(context, { url: callbackUrl })
}
