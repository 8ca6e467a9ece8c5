/**
 * Checking a code a user typed for their second factor: a TOTP code against their TOTP factor, a
 * backup code against their stored hashes. What holds whatever route asks (the pending sign-in's
 * `/mfa/verify`, enrolment's confirm, a re-authentication): a TOTP time step is accepted once per
 * factor on every instance, a backup code is consumed once, at most {@link USER_LIMIT} wrong codes
 * per user in {@link USER_WINDOW_SECONDS} (with `rateLimit: false` too: in this process then),
 * and after {@link LOCK_AFTER} consecutive wrong codes the TOTP factor locks and the user is told.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2 (one use per time step; throttling)
 */
import type { Adapter, AdapterAuthFactor } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import type { RequestContext } from "../internal.js"
import type { MfaFactor } from "../types.js"
import { memoryCounters } from "../limits/memory-store.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import type { RateLimitStore } from "../limits/rate-limit-store.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter } from "../outbound/store.js"
import { matchBackupCode } from "./backup-codes.js"
import { openFactorSecret } from "./sealed-secret.js"
import { verifyTotp } from "./totp.js"

/** Wrong codes a user may type in one window, whichever factor, route or instance (ASVS V6.3.1's throttling). */
export const USER_LIMIT = 10
/** The window of {@link USER_LIMIT}: 15 minutes. */
export const USER_WINDOW_SECONDS = 15 * 60
/** Consecutive wrong codes after which the TOTP factor locks until the user (or an admin) replaces it. */
export const LOCK_AFTER = 100

/** What a code check found: the method it adds to the session's assurance, or why it was refused. */
export type CodeCheck = { ok: true; method: "otp" | "kba" } | { ok: false; reason: "invalidCode" | "replayed" | "rateLimited" | "locked" }

/**
 * The per-user counters of each configuration with `rateLimit: false`: the limit on guessing a
 * second factor is not one an app may turn off, so it is kept in this process then.
 */
const localStores = new WeakMap<object, RateLimitStore>()

function counters(context: RequestContext): RateLimitStore {
  const configured = rateLimitsOf(context.config)?.store
  if (configured !== undefined) return configured
  let store = localStores.get(context.config)
  if (store === undefined) {
    store = memoryCounters()
    localStores.set(context.config, store)
  }
  return store
}

/**
 * The adapter second factors use: `mfa` is refused at start without one that has their methods
 * (`config/mfa.ts`).
 *
 * @throws {Configuration} when there is none (unreachable once `Auth()` started).
 */
export function factorAdapter(context: RequestContext): Adapter {
  const { adapter } = context.config
  if (adapter === undefined) throw new Configuration("Second factors need an `adapter`: see the core README's \"Second factors\".")
  return adapter
}

/**
 * The user's second factors that gate a sign-in: confirmed TOTP factors (a locked one included,
 * so locking a factor by guessing never lets a sign-in past the gate; its `lockedAt` tells the
 * page not to offer it) and backup codes.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function confirmedFactors(context: RequestContext, userId: string): Promise<AdapterAuthFactor[]> {
  const factors = await callAdapter(factorAdapter(context), "listAuthFactors", userId)
  return factors.filter((factor) => factor.type === "backup" || factor.confirmedAt != null)
}

/** The `mfa.factors` kind of each factor, as stored (`type`) or posted (`factor`): backup codes go with `"totp"`. */
const FACTOR_KINDS: Readonly<Record<string, MfaFactor>> = { totp: "totp", backup: "totp", passkey: "passkey", email: "email" }

/** The `mfa.factors` kind of a stored or posted factor; `undefined` for a name that is none. */
export function factorKind(factor: unknown): MfaFactor | undefined {
  return typeof factor === "string" && Object.hasOwn(FACTOR_KINDS, factor) ? FACTOR_KINDS[factor] : undefined
}

/** Whether `mfa.factors` lists the kind of `factor` (a stored factor's `type` or a posted `factor`). */
export function isListed(context: RequestContext, factor: unknown): boolean {
  const kind = factorKind(factor)
  return kind !== undefined && context.config.mfa?.factors.includes(kind) === true
}

/**
 * The user's {@link confirmedFactors} of the kinds `mfa.factors` lists: the ones that gate a
 * sign-in and that the challenge offers. A factor of a kind the app no longer lists neither
 * holds a sign-in nor completes one.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function listedFactors(context: RequestContext, userId: string): Promise<AdapterAuthFactor[]> {
  return (await confirmedFactors(context, userId)).filter((factor) => isListed(context, factor.type))
}

/**
 * The address a pending sign-in's email code goes to (`mfa.factors: ["email"]`, `email-code.ts`):
 * the user's verified address, as the store has it now. `undefined` when "email" is not listed,
 * the user has no verified address, or the first factor was an email link: a code to the same
 * mailbox would prove it twice, so such a sign-in neither owes nor is offered an email code.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function emailCodeAddress(context: RequestContext, signedIn: { user: { id: string }; methods: readonly string[] }): Promise<string | undefined> {
  if (context.config.mfa?.factors.includes("email") !== true || signedIn.methods.includes("email")) return undefined
  const adapter = factorAdapter(context)
  const user = typeof adapter.getUser === "function" ? await callAdapter(adapter, "getUser", signedIn.user.id) : null
  return typeof user?.email === "string" && user.email !== "" && user.emailVerified != null ? user.email : undefined
}

async function userKey(userId: string): Promise<string> {
  return targetKey("second-factor", userId)
}

/** Whether the user has typed {@link USER_LIMIT} wrong codes in the current window. */
export async function overLimit(context: RequestContext, userId: string): Promise<boolean> {
  return (await counters(context).peek(await userKey(userId))).count >= USER_LIMIT
}

/** Counts a wrong code toward the user's {@link USER_LIMIT}, whichever factor it was for. */
export async function countWrong(context: RequestContext, userId: string): Promise<void> {
  await counters(context).hit(await userKey(userId), USER_WINDOW_SECONDS)
}

/**
 * Checks a TOTP code against the user's confirmed TOTP factor, or, for enrolment, `factorId`'s
 * (confirmed or not). An accepted step is stored on the factor at once (`useAuthFactorStep`), so
 * neither it nor an earlier step is accepted again on any instance; a wrong code counts toward
 * the user's window and the factor's consecutive failures, the {@link LOCK_AFTER}th locking it
 * and mailing the user a notice.
 *
 * @throws {AdapterError} when the store fails or the stored secret cannot be opened.
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2
 */
export async function checkTotp(context: RequestContext, userId: string, code: string, options: { factorId?: string } = {}): Promise<CodeCheck> {
  const adapter = factorAdapter(context)
  const factors = await callAdapter(adapter, "listAuthFactors", userId)
  const factor = factors.find((each) => each.type === "totp" && each.userId === userId && (options.factorId === undefined ? each.confirmedAt != null : each.id === options.factorId))
  if (factor?.lockedAt != null) return { ok: false, reason: "locked" }
  if (await overLimit(context, userId)) return { ok: false, reason: "rateLimited" }
  const accepted = factor === undefined ? null : await verifyTotp(await openFactorSecret(context.config.secrets, factor.secret, userId), code)
  if (factor === undefined || accepted === null) {
    await countWrong(context, userId)
    if (factor !== undefined && (await lockAfterFailure(context, factor))) return { ok: false, reason: "locked" }
    return { ok: false, reason: "invalidCode" }
  }
  context.sensitive.add(code)
  // The one store call that decides: of two instances given the same code, one stores the step.
  if (!(await callAdapter(adapter, "useAuthFactorStep", factor.id, accepted.step))) {
    await countWrong(context, userId)
    return { ok: false, reason: "replayed" }
  }
  return { ok: true, method: "otp" }
}

/**
 * Checks a backup code against the user's stored hashes and consumes the one it matches: of
 * concurrent requests with one code, on any instance, only the one whose `deleteAuthFactor`
 * removed it succeeds. Backup codes work while the TOTP factor is locked: they are how its user
 * gets back in.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function checkBackupCode(context: RequestContext, userId: string, code: string): Promise<CodeCheck> {
  const adapter = factorAdapter(context)
  if (await overLimit(context, userId)) return { ok: false, reason: "rateLimited" }
  const stored = (await callAdapter(adapter, "listAuthFactors", userId)).filter((factor) => factor.type === "backup" && factor.userId === userId)
  const index = await matchBackupCode(context.config.secrets, code, stored.map((factor) => factor.secret), userId)
  const match = stored[index]
  if (match === undefined) {
    await countWrong(context, userId)
    return { ok: false, reason: "invalidCode" }
  }
  context.sensitive.add(code)
  if (!(await callAdapter(adapter, "deleteAuthFactor", match.id))) return { ok: false, reason: "replayed" }
  return { ok: true, method: "kba" }
}

/**
 * Counts a wrong code against the factor; at {@link LOCK_AFTER} consecutive ones, locks it and
 * tells the user by mail (once: the call that reached the count). Answers whether it is locked.
 */
async function lockAfterFailure(context: RequestContext, factor: AdapterAuthFactor): Promise<boolean> {
  const adapter = factorAdapter(context)
  const failures = await callAdapter(adapter, "countAuthFactorFailure", factor.id)
  if (failures < LOCK_AFTER) return false
  await callAdapter(adapter, "updateAuthFactor", { id: factor.id, lockedAt: new Date() })
  if (failures === LOCK_AFTER) await sendLockNotice(context, factor.userId)
  return true
}

async function sendLockNotice(context: RequestContext, userId: string): Promise<void> {
  const adapter = factorAdapter(context)
  const user = typeof adapter.getUser === "function" ? await callAdapter(adapter, "getUser", userId) : null
  if (typeof user?.email !== "string" || user.email === "") {
    context.config.logger.warn("SecondFactorLocked", `A user's authenticator-app factor locked after ${LOCK_AFTER} wrong codes; they have no address to be told at.`)
    return
  }
  await sendNotice(context, user.email, "totpLocked")
}
