/**
 * Challenges that verify at most once, expire, and work only in the browser that asked.
 *
 * The challenge the authenticator signs is itself a sealed record of the ceremony (what it is
 * for, the origin, the browser's CSRF-cookie binding, who registers), so the callback learns all
 * of it from the signed `clientDataJSON` and nothing can be swapped in beside it. Single use
 * across instances comes from the store: a random nonce inside the seal is kept as a
 * `VerificationToken` under `webauthn:<browser binding>` and consumed with
 * `useVerificationToken`, which deletes it. No new adapter method is needed, and several
 * challenges of one browser (autofill waiting while the button is pressed) can coexist, which a
 * single challenge cookie would not allow.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-cryptographic-challenges
 */
import type { RequestContext } from "../context.js"
import { browserBinding } from "../csrf.js"
import { deriveKeys, fromBase64url, openJwe, randomString, sealJwe, type SecretKey } from "../crypto.js"
import { MissingCSRF, WebAuthnVerificationError } from "../errors.js"
import { callAdapter } from "../store.js"
import { CHALLENGE_MAX_AGE } from "./options.js"

const SALT = "authjs.webauthn-challenge"

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
}

interface Sealed extends Ceremony {
  nonce: string
  origin: string
  browser: string
  exp: number
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function identifier(browser: string): string {
  return `webauthn:${browser}`
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
 * Issues a challenge (its bytes) for a ceremony in this browser, stored for single use.
 *
 * @throws {MissingCSRF} when the browser has no valid CSRF cookie.
 * @throws {AdapterError} when the store fails.
 */
export async function issueChallenge(context: RequestContext, ceremony: Ceremony): Promise<Uint8Array<ArrayBuffer>> {
  const { config } = context
  const browser = await requireBrowser(context)
  const nonce = randomString(32)
  const exp = Math.floor(Date.now() / 1000) + CHALLENGE_MAX_AGE
  const [key] = await deriveKeys(config.secrets, SALT, "jwe")
  const sealed: Sealed = { ...ceremony, nonce, origin: context.origin, browser, exp }
  const challenge = encoder.encode(await sealJwe(sealed, key as SecretKey))
  if (config.adapter === undefined) throw new WebAuthnVerificationError("Passkeys need an `adapter`.")
  await callAdapter(config.adapter, "createVerificationToken", { identifier: identifier(browser), token: nonce, expires: new Date(exp * 1000) })
  return challenge
}

/**
 * Opens the challenge (base64url, as `clientDataJSON` carries it) a response signed and consumes it: it must be ours, unexpired, issued on
 * this origin to this browser, and not used before.
 *
 * @throws {WebAuthnVerificationError} when any of that fails.
 * @throws {AdapterError} when the store fails.
 */
export async function consumeChallenge(context: RequestContext, challenge: string): Promise<Ceremony> {
  const { config } = context
  const browser = await browserBinding(context)
  const bytes = challenge.length <= 4096 ? fromBase64url(challenge) : undefined
  const opened = bytes === undefined ? undefined : await openJwe(decoder.decode(bytes), await deriveKeys(config.secrets, SALT, "jwe")).catch(() => undefined)
  if (typeof opened !== "object" || opened === null) throw new WebAuthnVerificationError("The response signs a challenge this server did not issue.")
  const sealed = opened as Partial<Sealed>
  if (typeof sealed.exp !== "number" || sealed.exp < Date.now() / 1000) throw new WebAuthnVerificationError("The challenge has expired.")
  if (sealed.origin !== context.origin) throw new WebAuthnVerificationError("The challenge was issued on another origin.")
  if (browser === undefined || sealed.browser !== browser) throw new WebAuthnVerificationError("The challenge was issued to another browser.")
  if (typeof sealed.nonce !== "string" || (sealed.action !== "authenticate" && sealed.action !== "register")) {
    throw new WebAuthnVerificationError("The challenge is malformed.")
  }
  context.sensitive.add(sealed.nonce)
  if (config.adapter === undefined) throw new WebAuthnVerificationError("Passkeys need an `adapter`.")
  const stored = await callAdapter(config.adapter, "useVerificationToken", { identifier: identifier(browser), token: sealed.nonce })
  if (stored == null) throw new WebAuthnVerificationError("The challenge was used already.")
  if (new Date(stored.expires).getTime() < Date.now()) throw new WebAuthnVerificationError("The challenge has expired.")
  const ceremony: Ceremony = { action: sealed.action }
  for (const key of ["userId", "email", "name", "handle"] as const) {
    const value = sealed[key]
    if (typeof value === "string") ceremony[key] = value
  }
  return ceremony
}
