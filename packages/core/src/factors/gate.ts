/**
 * The second-factor gate and the pending sign-in it makes. `finishSignIn` (`sign-in/sign-in.ts`)
 * fetches this module only when `mfa` is configured and asks {@link holdSignIn} whether the user
 * who just passed the first factor owes a second one; if so, no session starts: what the sign-in
 * ending was given is sealed into a short-lived cookie bound to this browser, and a row in the
 * store names it.
 *
 * The row is a verification token under `mfa-pending:<id>` whose token (which the cookie
 * carries) holds the count of codes tried. Each attempt consumes it with `useVerificationToken`,
 * which one caller wins on every instance, and writes the next with the count raised and a new
 * token: a replayed, older cookie names a consumed token, so it can neither reset the count nor
 * complete the sign-in a second time, and a completed or ended sign-in leaves no row at all.
 * Verification tokens because every adapter that can keep sign-in links has them, atomic, with
 * an expiry: no new adapter method is needed for a state that lives five minutes.
 */
import type { AdapterUser } from "../adapters.js"
import { endOperation } from "../audit/trail.js"
import { deriveKeys, randomString, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { json, redirect } from "../http/context.js"
import { clearChunked, readChunked, writeChunked } from "../http/cookies.js"
import { browserBinding, ensureCsrfCookie } from "../http/csrf.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import type { CookieOption } from "../model.js"
import { MissingCSRF } from "../errors/flow-errors.js"
import { callAdapter } from "../outbound/store.js"
import { newAssurance } from "../session/assurance.js"
import type { SignedIn } from "../session/source.js"
import { emailCodeAddress, factorAdapter, listedFactors } from "./check-code.js"

/** How long a pending sign-in lasts: 5 minutes. */
export const PENDING_MAX_AGE = 5 * 60
/** Codes a pending sign-in may be tried with; the last wrong one ends it. */
export const PENDING_ATTEMPTS = 5

const SALT = "authjs.mfa-pending"
/** The largest pending cookie read: an account's tokens and a profile, sealed, in a few chunks. */
const MAX_COOKIE = 16 * 1024

/** A sign-in that passed its first factor and waits for the second. */
export interface PendingSignIn {
  /** Random; names the store's row that counts the codes tried and is consumed once. */
  id: string
  /** What `finishSignIn` was given: the user, account, profile, `isNewUser` and the first factor's methods. */
  signedIn: SignedIn
  /** Where `finishSignIn` would have sent the browser. */
  target: string
  /** Epoch seconds, at most {@link PENDING_MAX_AGE} after it was made. */
  expiresAt: number
  /** The token of the store's row this cookie names (`<codes tried>.<random>`). */
  token: string
}

interface Sealed {
  id: string
  t: string
  s: SignedIn
  g: string
  exp: number
  o: string
  b: string
}

/** The pending cookie: host-only, HttpOnly, `__Host-` on https, as the CSRF cookie it is bound to. */
export function pendingCookie(context: RequestContext): CookieOption {
  const secure = context.cookies.csrfToken.options.secure === true
  return { name: `${secure ? "__Host-" : ""}authjs.mfa-pending`, options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: PENDING_MAX_AGE } }
}

function identifier(id: string): string {
  return `mfa-pending:${id}`
}

function newToken(tried: number): string {
  return `${tried}.${randomString(24)}`
}

/** The codes tried so far, as the row's token says. */
export function codesTried(pending: PendingSignIn): number {
  const tried = Number(pending.token.slice(0, pending.token.indexOf(".")))
  return Number.isSafeInteger(tried) && tried >= 0 ? tried : PENDING_ATTEMPTS
}

/**
 * Whether the user of `signedIn` owes a second factor: a confirmed factor of a kind
 * `mfa.factors` lists, a passkey (when it lists `"passkey"`) after any way in but a passkey, or
 * `mfa.required` names them. A sign-in at level 2 already (a passkey that verified its user) and the
 * continuation of a signed-in session (a passkey added: no authentication) owe nothing.
 *
 * @throws {AdapterError} when the store fails.
 * @throws {Configuration} when `mfa.required` answers anything but a boolean.
 */
async function owesSecondFactor(context: RequestContext, signedIn: SignedIn): Promise<boolean> {
  const mfa = context.config.mfa
  if (mfa === undefined || signedIn.continues !== undefined) return false
  if (newAssurance(signedIn.methods, 0).level === 2) return false
  if ((await listedFactors(context, signedIn.user.id)).length > 0) return true
  // With "email" listed, a verified address is a factor the user has (never after an email link).
  if ((await emailCodeAddress(context, signedIn)) !== undefined) return true
  // A passkey is owed after every other way in; after a passkey sign-in it was the first factor.
  if (!signedIn.methods.includes("hwk") && (await passkeyFactor(context, signedIn)) !== undefined) return true
  return mfa.required(signedIn.user as AdapterUser)
}

/**
 * The provider whose passkeys can complete `signedIn` as its second factor, when `mfa.factors`
 * lists `"passkey"` and its user has one there other than the passkey that was the first factor
 * (the first provider whose flow offers it, `SignInFlow.secondFactor`); else `undefined`.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function passkeyFactor(context: RequestContext, signedIn: SignedIn): Promise<FlowProvider | undefined> {
  if (context.config.mfa?.factors.includes("passkey") !== true) return undefined
  const provider = context.config.providers.find((each) => each.flow.secondFactor !== undefined)
  const ways = (await provider?.flow.waysIn?.(context, provider, signedIn.user as AdapterUser)) ?? []
  return ways.some((way) => way.kind === "passkey" && way.credentialID !== signedIn.credentialId) ? provider : undefined
}

/**
 * The gate: when the user owes a second factor, holds the sign-in (the store's row, the sealed
 * browser-bound cookie, the audit trail's `signIn` event with outcome `pending`) and answers the
 * redirect to `{basePath}/mfa` (for the fetch-based client, `X-Auth-Return-Redirect: 1`, `200 { url,
 * error: "SecondFactorRequired" }`); otherwise `undefined`, and the sign-in goes on.
 *
 * @throws {AdapterError} when the store fails.
 * @throws {Configuration} when `mfa.required` answers anything but a boolean.
 * @throws {MissingCSRF} when the browser binding cannot be made (its CSRF cookie does not read back).
 */
export async function holdSignIn(context: RequestContext, signedIn: SignedIn, target: string): Promise<Response | undefined> {
  if (!(await owesSecondFactor(context, signedIn))) return undefined
  // An email link opened in a browser that never fetched `/csrf` is bound to the cookie set now.
  await ensureCsrfCookie(context)
  const browser = await browserBinding(context)
  if (browser === undefined) throw new MissingCSRF("The pending sign-in is bound to the CSRF cookie, which could not be set.")
  const id = randomString(24)
  const exp = Math.floor(Date.now() / 1000) + PENDING_MAX_AGE
  const token = newToken(0)
  await callAdapter(factorAdapter(context), "createVerificationToken", { identifier: identifier(id), token, expires: new Date(exp * 1000) })
  const sealed: Sealed = { id, t: token, s: signedIn, g: target, exp, o: context.origin, b: browser }
  await writePending(context, sealed)
  await endOperation(context, "pending", undefined, signedIn.user.id, signedIn.methods)
  const url = `${context.authUrl}/mfa`
  // The fetch-based client learns that the sign-in is not over, and where the challenge is.
  return context.request.headers.get("x-auth-return-redirect") === "1" ? json(context, { url, error: "SecondFactorRequired" }) : redirect(context, url)
}

async function writePending(context: RequestContext, sealed: Sealed): Promise<void> {
  const [key] = await deriveKeys(context.config.secrets, SALT, "jwe")
  const cookie = pendingCookie(context)
  const value = await sealJwe(sealed, key as SecretKey)
  context.setCookies.push(...writeChunked(cookie, value, context.jar, { ...cookie.options, expires: new Date(sealed.exp * 1000), maxAge: Math.max(1, sealed.exp - Math.floor(Date.now() / 1000)) }))
}

/** Clears the pending cookie (whole or chunked). */
export function clearPending(context: RequestContext): void {
  const cookie = pendingCookie(context)
  if (context.jar.has(cookie.name) || context.jar.has(`${cookie.name}.0`)) context.setCookies.push(...clearChunked(cookie, context.jar))
}

function reviveUser(user: SignedIn["user"]): SignedIn["user"] {
  const verified: unknown = (user as { emailVerified?: unknown }).emailVerified
  return typeof verified === "string" ? { ...user, emailVerified: new Date(verified) } : user
}

/**
 * The request's pending sign-in as its cookie holds it: `null` when absent, not ours, expired,
 * made on another origin or bound to another browser. Whether it was consumed or ended is the
 * store's to say, on the next attempt ({@link takePending}).
 */
export async function openPending(context: RequestContext): Promise<PendingSignIn | null> {
  const value = readChunked(context.jar, pendingCookie(context).name)
  if (value === undefined || value.length > MAX_COOKIE) return null
  const opened = await openJwe(value, await deriveKeys(context.config.secrets, SALT, "jwe")).catch(() => undefined)
  if (typeof opened !== "object" || opened === null) return null
  const sealed = opened as Partial<Sealed>
  if (typeof sealed.exp !== "number" || sealed.exp <= Date.now() / 1000) return null
  if (sealed.o !== context.origin || typeof sealed.b !== "string" || sealed.b !== (await browserBinding(context))) return null
  const signedIn = sealed.s
  if (typeof sealed.id !== "string" || typeof sealed.t !== "string" || typeof sealed.g !== "string" || typeof signedIn?.user.id !== "string") return null
  return { id: sealed.id, token: sealed.t, signedIn: { ...signedIn, user: reviveUser(signedIn.user) }, target: sealed.g, expiresAt: sealed.exp }
}

/**
 * Consumes the pending sign-in's row: `true` for the one caller, on any instance, that held the
 * token the row has now; `false` when it was consumed already, ended, expired, or the cookie is
 * an older one than the row's.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function takePending(context: RequestContext, pending: PendingSignIn): Promise<boolean> {
  const row = await callAdapter(factorAdapter(context), "useVerificationToken", { identifier: identifier(pending.id), token: pending.token })
  return row != null && new Date(row.expires).getTime() > Date.now()
}

/**
 * Counts one more code tried against the pending sign-in: consumes its row and, below
 * {@link PENDING_ATTEMPTS}, writes the next (and a cookie naming it). Answers the pending sign-in
 * as it now stands, or `null` when it has ended (the cookie is then cleared).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function countAttempt(context: RequestContext, pending: PendingSignIn): Promise<PendingSignIn | null> {
  const tried = codesTried(pending) + 1
  if (!(await takePending(context, pending)) || tried > PENDING_ATTEMPTS) {
    clearPending(context)
    return null
  }
  const token = newToken(tried)
  await callAdapter(factorAdapter(context), "createVerificationToken", { identifier: identifier(pending.id), token, expires: new Date(pending.expiresAt * 1000) })
  const browser = await browserBinding(context)
  if (browser === undefined) return null
  await writePending(context, { id: pending.id, t: token, s: pending.signedIn, g: pending.target, exp: pending.expiresAt, o: context.origin, b: browser })
  return { ...pending, token }
}
