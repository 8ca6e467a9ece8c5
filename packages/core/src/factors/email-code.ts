/**
 * Email codes as a second factor (`mfa.factors: ["email"]`, opt-in and weaker: NIST SP 800-63B
 * rev 4 does not accept email as an out-of-band authenticator). Who owes one: with "email"
 * listed, every user with a verified address, on every way in but an email link (the same
 * mailbox twice is one factor). A code is 6 digits, mailed (`mail.send`, kind `mfaCode`) for one
 * pending sign-in, valid 10 minutes, 3 tries.
 *
 * The store holds the code only as a keyed hash: a verification token under
 * `mfa-email:<pending id>` whose token is `<tries>.<nonce>.<HMAC of pending id, nonce and code>`
 * (the key derived from the secret list, every listed secret tried). A cookie sealed under the
 * secret names that token, as the pending cookie names its row: each try consumes the row with
 * `useVerificationToken` (one caller wins, on any instance), a wrong code writes the next with the
 * tries raised, and a replayed, older cookie names a consumed row. Asking again replaces the code.
 */
import { deriveKeys, hmac, randomBytes, randomString, verifyHmac, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { answerRoute, readFields } from "../http/context.js"
import { clearCookie } from "../http/cookies.js"
import { verifyCsrf } from "../http/csrf.js"
import { signInPageUrl } from "../http/routes.js"
import type { RequestContext } from "../internal.js"
import { mailboxKey } from "../limits/mailbox-key.js"
import { rateLimitsOf, targetKey } from "../limits/rate-limit.js"
import { sendMail } from "../outbound/mail.js"
import { callAdapter } from "../outbound/store.js"
import type { CookieOption } from "../model.js"
import { countWrong, emailCodeAddress, factorAdapter, overLimit } from "./check-code.js"
import { openPending, pendingCookie, type PendingSignIn } from "./gate.js"

/** How long a mailed code works: 10 minutes (within its pending sign-in's own 5). */
export const EMAIL_CODE_MAX_AGE = 10 * 60
/** Wrong codes one mailed code may be tried with; the last spends it. */
export const EMAIL_CODE_TRIES = 3

const HASH_SALT = "@portcullis/core email code"
const COOKIE_SALT = "authjs.mfa-email"
/** The largest cookie read: a sealed pending id and token are far smaller. */
const MAX_COOKIE = 1024

/** What a typed email code proved: the method it adds, or why it was refused. */
export type EmailCodeCheck = { ok: true; method: "email" } | { ok: false; reason: "invalidCode" | "expired" | "replayed" | "rateLimited" }

interface SealedCode {
  p: string
  t: string
  exp: number
}

/** The code's cookie: host-only, HttpOnly, `__Host-` on https, as the pending cookie it goes with. */
function codeCookie(context: RequestContext): CookieOption {
  const { name, options } = pendingCookie(context)
  return { name: name.replace("mfa-pending", "mfa-email"), options: { ...options, maxAge: EMAIL_CODE_MAX_AGE } }
}

function identifier(pendingId: string): string {
  return `mfa-email:${pendingId}`
}

/** Six decimal digits, uniform: a 32-bit draw below the largest multiple of a million, else drawn again. */
function newCode(): string {
  for (;;) {
    const [value = 0] = new Uint32Array(randomBytes(4).buffer)
    if (value < 4_294_000_000) return String(value % 1_000_000).padStart(6, "0")
  }
}

async function hashKeys(context: RequestContext): Promise<SecretKey[]> {
  return deriveKeys(context.config.secrets, HASH_SALT, "hmac")
}

function hashed(pendingId: string, nonce: string, code: string): string {
  return JSON.stringify([pendingId, nonce, code])
}

async function writeCookie(context: RequestContext, sealed: SealedCode): Promise<void> {
  const [key] = await deriveKeys(context.config.secrets, COOKIE_SALT, "jwe")
  const cookie = codeCookie(context)
  const value = await sealJwe(sealed, key as SecretKey)
  context.setCookies.push({ name: cookie.name, value, options: { ...cookie.options, expires: new Date(sealed.exp * 1000), maxAge: Math.max(1, sealed.exp - Math.floor(Date.now() / 1000)) } })
}

async function readCookie(context: RequestContext, pendingId: string): Promise<SealedCode | undefined> {
  const value = context.jar.get(codeCookie(context).name)
  if (value === undefined || value.length > MAX_COOKIE) return undefined
  const opened = await openJwe(value, await deriveKeys(context.config.secrets, COOKIE_SALT, "jwe")).catch(() => undefined)
  if (typeof opened !== "object" || opened === null) return undefined
  const { p, t, exp } = opened as Partial<SealedCode>
  // Bound to the pending sign-in it was sent for: another one's code is no code for this one.
  return p === pendingId && typeof t === "string" && typeof exp === "number" ? { p, t, exp } : undefined
}

function clearCode(context: RequestContext): void {
  const cookie = codeCookie(context)
  if (context.jar.has(cookie.name)) context.setCookies.push(clearCookie(cookie))
}

/**
 * `POST {basePath}/mfa/email { csrfToken }`: mails a new code for the request's pending sign-in
 * and sends the browser back to the challenge, its code field first (`/mfa?factor=email`). The
 * answer is the same whether or not the mail went out (a mail limit, a failing transport); only a
 * sign-in that is not offered the factor (an email link was its first factor, or the user has no
 * verified address) is refused, `InvalidFactor` (400). Without a pending sign-in: `expired` (401)
 * and the sign-in page. Answers by the routes' conventions (`answerRoute`).
 *
 * @throws {MissingCSRF} when the CSRF token is missing or wrong.
 * @throws {AdapterError} when the store fails.
 */
export async function emailCodeRoute(context: RequestContext): Promise<Response> {
  const fields = await readFields(context.request)
  const token = fields instanceof URLSearchParams ? fields.get("csrfToken") : fields.csrfToken
  await verifyCsrf(context, typeof token === "string" ? token : null)
  const pending = await openPending(context)
  if (pending === null) return answerRoute(context, { url: signInPageUrl(context), error: "expired", status: 401 })
  const address = await emailCodeAddress(context, pending.signedIn)
  if (address === undefined) return answerRoute(context, { url: `${context.authUrl}/mfa`, error: "InvalidFactor", status: 400 })
  await sendEmailCode(context, pending, address)
  return answerRoute(context, { url: `${context.authUrl}/mfa?factor=email` })
}

/**
 * Mails a new code for the pending sign-in to `address` (`emailCodeAddress` in `check-code.ts`) and names it
 * in the code's cookie; an earlier code of the same sign-in stops working. At most
 * `rateLimit.mailPerAddress` mails go to one mailbox in a window (counted with the sign-in links,
 * per inbox, not per spelling): past it nothing is stored or sent. The caller answers the same
 * whether or not the mail went out.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function sendEmailCode(context: RequestContext, pending: PendingSignIn, address: string): Promise<void> {
  const limits = rateLimitsOf(context.config)
  if (limits !== undefined) {
    const { count } = await limits.store.hit(await targetKey("mail", mailboxKey(address)), limits.mail.windowSeconds)
    if (count > limits.mail.limit) {
      context.config.logger.warn("MailLimit", `A second-factor code was not mailed: the address was sent ${String(limits.mail.limit)} mails within ${String(limits.mail.windowSeconds)} s (\`rateLimit.mailPerAddress\`).`)
      return
    }
  }
  const code = newCode()
  context.sensitive.add(code)
  const nonce = randomString(12)
  const [key] = await hashKeys(context)
  const token = `0.${nonce}.${await hmac(hashed(pending.id, nonce, code), key as SecretKey)}`
  const exp = Math.floor(Date.now() / 1000) + EMAIL_CODE_MAX_AGE
  await callAdapter(factorAdapter(context), "createVerificationToken", { identifier: identifier(pending.id), token, expires: new Date(exp * 1000) })
  await writeCookie(context, { p: pending.id, t: token, exp })
  const text = `Your sign-in code is ${code}. It works once, for 10 minutes, to finish the sign-in you just started. If you did not start one, someone may know how you sign in: change it, and do not share this code.`
  await sendMail(context, { to: address, kind: "mfaCode", subject: `Your sign-in code: ${code}`, text, html: `<p>${text}</p>`, code })
}

/**
 * Checks a typed code against the pending sign-in's mailed one, in constant time: right, the
 * code is spent (its row consumed, once across instances); wrong, a try is counted, the
 * {@link EMAIL_CODE_TRIES}th spending it, and the user's wrong codes go up (the limit every code
 * factor shares). `expired` when no code was mailed for this sign-in, or it is older than 10
 * minutes or spent; `replayed` when the cookie names a row consumed already.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function checkEmailCode(context: RequestContext, pending: PendingSignIn, code: string): Promise<EmailCodeCheck> {
  const userId = pending.signedIn.user.id
  const sealed = await readCookie(context, pending.id)
  if (sealed === undefined || sealed.exp <= Date.now() / 1000) {
    clearCode(context)
    return { ok: false, reason: "expired" }
  }
  if (await overLimit(context, userId)) return { ok: false, reason: "rateLimited" }
  const row = await callAdapter(factorAdapter(context), "useVerificationToken", { identifier: identifier(pending.id), token: sealed.t })
  if (row == null) {
    clearCode(context)
    return { ok: false, reason: "replayed" }
  }
  const [triedText = "", nonce = "", mac = ""] = sealed.t.split(".")
  const typed = code.replace(/\s/g, "")
  if (new Date(row.expires).getTime() <= Date.now()) {
    clearCode(context)
    return { ok: false, reason: "expired" }
  }
  if (/^\d{6}$/.test(typed) && (await verifyHmac(hashed(pending.id, nonce, typed), mac, await hashKeys(context)))) {
    context.sensitive.add(code)
    clearCode(context)
    return { ok: true, method: "email" }
  }
  await countWrong(context, userId)
  const tried = Number(triedText) + 1
  if (!Number.isSafeInteger(tried) || tried >= EMAIL_CODE_TRIES) {
    clearCode(context)
    return { ok: false, reason: "invalidCode" }
  }
  const token = `${String(tried)}.${nonce}.${mac}`
  await callAdapter(factorAdapter(context), "createVerificationToken", { identifier: identifier(pending.id), token, expires: row.expires })
  await writeCookie(context, { p: pending.id, t: token, exp: sealed.exp })
  return { ok: false, reason: "invalidCode" }
}
