/**
 * Challenges that verify at most once, expire, and work only in the browser that asked and at
 * the provider that issued them.
 *
 * The challenge the authenticator signs is itself a sealed record of the ceremony (what it is
 * for, the provider, the origin, the browser's CSRF-cookie binding, who registers), so the
 * callback learns all of it from the signed `clientDataJSON` and nothing can be swapped in
 * beside it. What makes it single use depends on the ceremony:
 *
 * - **Signing in** writes nothing to the store when the options are asked for: anyone may ask,
 *   and a row per request would let them fill the database. A random nonce inside the seal is
 *   also put, sealed with the browser binding and the provider, in a short-lived HttpOnly cookie;
 *   the callback accepts only the challenge that cookie names, and clears it. One sign-in per
 *   browser at a time: a new options request replaces the cookie (the browser runs one ceremony
 *   at a time). A cleared cookie does not stop a replay of a captured request, cookie included:
 *   once an assertion verifies, its nonce is spent ({@link spendChallenge}) until the challenge
 *   expires, with the adapter's `useOnce` across instances, or in this process alone without it.
 * - **Registering** keeps the nonce as a `VerificationToken` under `webauthn:<browser binding>`,
 *   consumed with `useVerificationToken`, which deletes it: single use across instances.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-cryptographic-challenges
 */
import { withAuditReason } from "../audit/trail.js"
import type { Adapter } from "../adapters.js"
import { boundedCache } from "../crypto/caches.js"
import type { RequestContext } from "../internal.js"
import type { CookieOption } from "../model.js"
import { clearCookie } from "../http/cookies.js"
import { browserBinding } from "../http/csrf.js"
import { deriveKeys, fromBase64url, randomString, type SecretKey } from "../crypto/crypto.js"
import { openJwe, sealJwe } from "../crypto/sealed.js"
import { MissingCSRF, WebAuthnVerificationError } from "../errors/flow-errors.js"
import { callAdapter } from "../outbound/store.js"
import { CHALLENGE_MAX_AGE } from "./options.js"
import { adapterOf } from "./records.js"

const SALT = "authjs.webauthn-challenge"
const COOKIE_SALT = "authjs.webauthn-challenge-cookie"
/** The longest challenge cookie read: a sealed nonce, binding and provider id are well under 1 KB. */
const MAX_COOKIE = 1024

/** What a challenge was issued for. */
export interface Ceremony {
  action: "authenticate" | "register"
  /** A registration by a signed-in user: the passkey is added to this user only. */
  userId?: string
  /** A passkey-first sign-up: the new user's email and name. */
  email?: string
  name?: string
  /** The WebAuthn user handle the new passkey is registered under. */
  handle?: string
  /** A re-authentication of `userId` (the signed-in user) started then, in epoch seconds: see `RequestContext.reauth`. */
  reauthAt?: number
  /** The pending sign-in (its id) of `userId` whose second factor this is: only `/mfa/verify` accepts it, for that sign-in alone. */
  pending?: string
}

interface Sealed extends Ceremony {
  nonce: string
  /** The id of the provider that issued it: only its callback accepts it. */
  provider: string
  origin: string
  browser: string
  exp: number
}

/** A sign-in's challenge cookie, sealed: the challenge's nonce, provider and browser binding. */
interface Remembered {
  n: string
  p: string
  b: string
  exp: number
}

/** A challenge the callback opened: what it was issued for, and the nonce that names it until it expires. */
export interface OpenedChallenge {
  ceremony: Ceremony
  nonce: string
  expires: Date
}

/**
 * Sign-in nonces spent in this process, with when each challenge expires, for a store without
 * `useOnce`. Written only after a valid assertion, so filling it takes real sign-ins; all
 * challenges live equally long, so the least recently spent, dropped first, expired first.
 */
const spentHere = boundedCache<string, number>("spent passkey sign-in challenges", 100_000)
/** Stores without `useOnce` already warned about. */
const warned = new WeakSet<Adapter>()

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function identifier(browser: string): string {
  return `webauthn:${browser}`
}

/**
 * The sign-in challenge's cookie: host-only, HttpOnly, `__Host-` on https (as the CSRF cookie it
 * goes with), living as long as the challenge.
 */
function challengeCookie(context: RequestContext): CookieOption {
  const secure = context.cookies.csrfToken.options.secure === true
  return { name: `${secure ? "__Host-" : ""}authjs.challenge`, options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: CHALLENGE_MAX_AGE } }
}

/**
 * The browser's binding; a browser without a CSRF cookie is asked to get one first (the client
 * fetches `/csrf` before anything else).
 *
 * @throws {MissingCSRF} when the browser has no valid CSRF cookie.
 */
export async function requireBrowser(context: RequestContext): Promise<string> {
  const browser = await browserBinding(context)
  if (browser === undefined) throw new MissingCSRF("A passkey ceremony needs the CSRF cookie: fetch GET /csrf first.")
  return browser
}

/**
 * Issues a challenge (its bytes) for a ceremony of `provider` in this browser: a sign-in's is
 * remembered in the browser's challenge cookie, a registration's in the store.
 *
 * @throws {MissingCSRF} when the browser has no valid CSRF cookie.
 * @throws {AdapterError} when the store fails.
 */
export async function issueChallenge(context: RequestContext, provider: string, ceremony: Ceremony): Promise<Uint8Array<ArrayBuffer>> {
  const { config } = context
  const browser = await requireBrowser(context)
  const nonce = randomString(32)
  const exp = Math.floor(Date.now() / 1000) + CHALLENGE_MAX_AGE
  const [key] = await deriveKeys(config.secrets, SALT, "jwe")
  const sealed: Sealed = { ...ceremony, nonce, provider, origin: context.origin, browser, exp }
  const challenge = encoder.encode(await sealJwe(sealed, key as SecretKey))
  if (ceremony.action === "authenticate") {
    const [cookieKey] = await deriveKeys(config.secrets, COOKIE_SALT, "jwe")
    const remembered: Remembered = { n: nonce, p: provider, b: browser, exp }
    const cookie = challengeCookie(context)
    context.setCookies.push({ name: cookie.name, value: await sealJwe(remembered, cookieKey as SecretKey), options: cookie.options })
  } else {
    await callAdapter(adapterOf(context), "createVerificationToken", { identifier: identifier(browser), token: nonce, expires: new Date(exp * 1000) })
  }
  return challenge
}

/**
 * Opens the challenge (base64url, as `clientDataJSON` carries it) a response signed and consumes
 * it: it must be ours, unexpired, issued by `provider` on this origin to this browser, and not
 * used before. A registration's is spent here; a sign-in's clears its cookie here and is spent by
 * {@link spendChallenge} once its assertion verifies.
 *
 * @throws {WebAuthnVerificationError} when any of that fails.
 * @throws {AdapterError} when the store fails.
 */
export async function consumeChallenge(context: RequestContext, provider: string, challenge: string): Promise<OpenedChallenge> {
  const { config } = context
  const browser = await browserBinding(context)
  const bytes = challenge.length <= 4096 ? fromBase64url(challenge) : undefined
  const opened = bytes === undefined ? undefined : await openJwe(decoder.decode(bytes), await deriveKeys(config.secrets, SALT, "jwe")).catch(() => undefined)
  if (typeof opened !== "object" || opened === null) throw new WebAuthnVerificationError("The response signs a challenge this server did not issue.")
  const sealed = opened as Partial<Sealed>
  if (typeof sealed.exp !== "number" || sealed.exp < Date.now() / 1000) throw withAuditReason(new WebAuthnVerificationError("The challenge has expired."), "expired")
  if (sealed.origin !== context.origin) throw new WebAuthnVerificationError("The challenge was issued on another origin.")
  if (browser === undefined || sealed.browser !== browser) throw new WebAuthnVerificationError("The challenge was issued to another browser.")
  if (sealed.provider !== provider) throw new WebAuthnVerificationError(`The challenge was issued by another provider than "${provider}".`)
  if (typeof sealed.nonce !== "string" || (sealed.action !== "authenticate" && sealed.action !== "register")) {
    throw new WebAuthnVerificationError("The challenge is malformed.")
  }
  context.sensitive.add(sealed.nonce)
  if (sealed.action === "authenticate") await useChallengeCookie(context, { n: sealed.nonce, p: provider, b: browser })
  else {
    const stored = await callAdapter(adapterOf(context), "useVerificationToken", { identifier: identifier(browser), token: sealed.nonce })
    if (stored == null) throw withAuditReason(new WebAuthnVerificationError("The challenge was used already."), "replayed")
    if (new Date(stored.expires).getTime() < Date.now()) throw withAuditReason(new WebAuthnVerificationError("The challenge has expired."), "expired")
  }
  const ceremony: Ceremony = { action: sealed.action }
  for (const key of ["userId", "email", "name", "handle", "pending"] as const) {
    const value = sealed[key]
    if (typeof value === "string") ceremony[key] = value
  }
  if (sealed.action === "authenticate" && typeof sealed.reauthAt === "number" && ceremony.userId !== undefined) ceremony.reauthAt = sealed.reauthAt
  return { ceremony, nonce: sealed.nonce, expires: new Date(sealed.exp * 1000) }
}

/**
 * Spends a sign-in's challenge once its assertion verified, so a captured request (body and
 * cookie) replayed later is refused even for a passkey whose signature counter stays 0. With the
 * adapter's `useOnce`, across every instance sharing the store; without it, in this process only
 * (warned about once per adapter). Never called before the assertion verifies: asking for options
 * and failing to sign in write nothing.
 *
 * @throws {WebAuthnVerificationError} when the challenge was spent already.
 * @throws {AdapterError} when the store fails.
 * @see https://www.w3.org/TR/webauthn-3/#sctn-cryptographic-challenges
 */
export async function spendChallenge(context: RequestContext, opened: OpenedChallenge): Promise<void> {
  const adapter = adapterOf(context)
  let fresh: boolean
  if (typeof adapter.useOnce === "function") {
    fresh = await callAdapter(adapter, "useOnce", `webauthn-challenge ${opened.nonce}`, opened.expires)
  } else {
    if (!warned.has(adapter)) {
      warned.add(adapter)
      context.config.logger.warn(
        "PasskeyChallengePerInstance",
        "The `adapter` has no `useOnce` method: a passkey sign-in's challenge is single use within this process only, so a captured sign-in could be replayed at another instance until it expires (5 minutes).",
      )
    }
    const until = spentHere.get(opened.nonce)
    fresh = until === undefined || until <= Date.now()
    if (fresh) spentHere.set(opened.nonce, opened.expires.getTime())
  }
  if (!fresh) throw withAuditReason(new WebAuthnVerificationError("The challenge was used already: a replayed sign-in."), "replayed")
}

/**
 * Checks that the browser's challenge cookie names this sign-in's challenge, and clears it
 * whatever the outcome: a challenge is tried once.
 *
 * @throws {WebAuthnVerificationError} when the cookie is missing, not ours, expired, or names another challenge, provider or browser.
 */
async function useChallengeCookie(context: RequestContext, expected: Omit<Remembered, "exp">): Promise<void> {
  const cookie = challengeCookie(context)
  const value = context.jar.get(cookie.name)
  if (value === undefined || value === "") {
    throw new WebAuthnVerificationError("The sign-in has no challenge cookie: it was used already, has expired, or was started in another browser.")
  }
  context.setCookies.push(clearCookie(cookie))
  const opened = value.length > MAX_COOKIE ? undefined : await openJwe(value, await deriveKeys(context.config.secrets, COOKIE_SALT, "jwe")).catch(() => undefined)
  const remembered = (typeof opened === "object" && opened !== null ? opened : {}) as Partial<Remembered>
  if (typeof remembered.exp !== "number") throw new WebAuthnVerificationError("The challenge cookie was not set by this server.")
  if (remembered.exp < Date.now() / 1000) throw withAuditReason(new WebAuthnVerificationError("The challenge cookie has expired."), "expired")
  if (remembered.b !== expected.b) throw new WebAuthnVerificationError("The challenge cookie was set in another browser.")
  if (remembered.p !== expected.p || remembered.n !== expected.n) {
    throw new WebAuthnVerificationError("The challenge cookie names another sign-in's challenge: it was replaced by a newer one, or used already.")
  }
}
