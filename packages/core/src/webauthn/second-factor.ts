/**
 * A passkey as the second factor of a sign-in that started another way (`mfa.factors:
 * ["passkey"]`): the options for the pending user's own passkeys (`GET
 * {basePath}/webauthn-options/:id?action=mfa`), and the check of the assertion `/mfa/verify`
 * posts. The challenge is sealed with the pending sign-in's id and user, so it completes that
 * sign-in only, and is single use as a sign-in's is (its cookie cleared when it is tried, its
 * nonce spent once it verifies).
 *
 * Under `mfa.required`, a pending user with no factor yet may register a passkey as their first
 * one (`{basePath}/mfa/setup`, whose routes decide who may): the registration's challenge is bound
 * to the pending sign-in and its user in the same way, and kept in the store until used once.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion
 * @see https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import { taggedAuditReason, withAuditReason } from "../audit/trail.js"
import { json } from "../http/context.js"
import { signInPageUrl } from "../http/routes.js"
import { WebAuthnVerificationError } from "../errors/flow-errors.js"
import type { AdapterAuthenticator } from "../adapters.js"
import type { FlowProvider, PendingFactor, RequestContext } from "../internal.js"
import type { AuditReason } from "../types.js"
import { findAuthenticator } from "./authjs-rows.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter } from "../outbound/store.js"
import { addingPasskey, checkAssertion, listAuthenticators, ownPasskeyOptions, readResponse, registrationOptions, verifyRegistration } from "./ceremony.js"
import { consumeChallenge } from "./challenge.js"
import type { WebAuthnOptions } from "./options.js"
import { adapterOf, asUser, attachPasskey } from "./records.js"

type Provider = FlowProvider<WebAuthnOptions>

/** Whether the stored passkey is `userId`'s (a third-party adapter may hand back a numeric user id). */
function belongsTo(authenticator: AdapterAuthenticator, userId: string): boolean {
  const owner: unknown = authenticator.userId
  return String(owner) === userId
}

/**
 * `GET /webauthn-options/:id?action=mfa`: authentication options naming only the pending user's
 * passkeys (not the one that was the first factor), `userVerification` as the provider says,
 * with a challenge sealed to the pending sign-in. Without a pending sign-in: `401 { error:
 * "SessionRequired", url }`, as `GET /mfa` answers.
 *
 * @throws {WebAuthnVerificationError} when `mfa.factors` does not list `"passkey"`, or the pending user has no other passkey.
 * @throws {MissingCSRF} when the browser has no CSRF cookie.
 * @throws {AdapterError} when the store fails.
 */
export async function secondFactorOptions(context: RequestContext, provider: Provider): Promise<Response> {
  if (context.config.mfa?.factors.includes("passkey") !== true) throw new WebAuthnVerificationError('`action=mfa` needs `mfa.factors` to list "passkey".')
  const pending = await (await import("../factors/pending.js")).readPending(context)
  if (pending === null) return json(context, { error: "SessionRequired", url: signInPageUrl(context) }, 401)
  const userId = pending.signedIn.user.id
  const except = pending.signedIn.credentialId
  const own = (await listAuthenticators(adapterOf(context), userId)).filter((known) => belongsTo(known, userId) && known.credentialID !== except)
  if (own.length === 0) throw new WebAuthnVerificationError("The pending sign-in's user has no passkey that can be its second factor.")
  return ownPasskeyOptions(context, provider, own, { action: "authenticate", userId, pending: pending.id })
}

/**
 * Checks the assertion posted as `pending`'s second factor: a challenge asked for this pending
 * sign-in, a passkey of its user other than the first factor's, and the assertion itself (see
 * `checkAssertion`). Answers `hwk`, or the audit reason of the refusal (logged): `replayed` for a
 * challenge of another or an earlier sign-in, `wrongUser` for another user's passkey,
 * `invalidCredentials` for an unknown one, the first factor's, or one that does not verify.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function verifySecondFactor(context: RequestContext, provider: Provider, pending: PendingFactor, credential: string): Promise<{ ok: true; method: "hwk" } | { ok: false; reason: AuditReason }> {
  try {
    const response = readResponse(credential)
    const opened = await consumeChallenge(context, provider.id, response.clientData.challenge)
    if (opened.ceremony.pending !== pending.id || opened.ceremony.userId !== pending.userId) {
      throw withAuditReason(new WebAuthnVerificationError("The challenge was issued for another sign-in."), "replayed")
    }
    const authenticator = await findAuthenticator(adapterOf(context), response.id)
    if (authenticator == null) throw new WebAuthnVerificationError("No passkey has this credential id.")
    if (!belongsTo(authenticator, pending.userId)) throw withAuditReason(new WebAuthnVerificationError("The passkey is another user's."), "wrongUser")
    if (authenticator.credentialID === pending.except) throw new WebAuthnVerificationError("The passkey was the sign-in's first factor: the second must be another.")
    await checkAssertion(context, provider, authenticator, response.json as unknown as AuthenticationResponseJSON, opened, response.clientData.challenge)
    return { ok: true, method: "hwk" }
  } catch (error) {
    if (!(error instanceof WebAuthnVerificationError)) throw error
    context.config.logger.error(error)
    return { ok: false, reason: taggedAuditReason(error) ?? "invalidCredentials" }
  }
}

/**
 * The registration options for `pending`'s user (`POST {basePath}/mfa/passkey/options`, which has
 * checked that they may enrol): their user handle, `excludeCredentials` naming their passkeys, a
 * challenge bound to this pending sign-in, single use.
 *
 * @throws {WebAuthnVerificationError} when the user no longer exists.
 * @throws {MissingCSRF} when the browser has no CSRF cookie.
 * @throws {AdapterError} when the store fails.
 */
export async function enrolmentOptions(context: RequestContext, provider: Provider, pending: PendingFactor): Promise<Response> {
  return registrationOptions(context, provider, await addingPasskey(adapterOf(context), pending.userId, { pending: pending.id }))
}

/**
 * Registers the passkey posted (the registration's JSON, untrusted) as `pending`'s user's, when it
 * was made for a challenge issued to this pending sign-in (`replayed` otherwise, or once used) and
 * verifies as a sign-up's or an added passkey's does; the user is mailed the notice. Answers `hwk`,
 * or the audit reason of the refusal (logged).
 *
 * @throws {AdapterError} when the store fails.
 */
export async function enrolSecondFactor(context: RequestContext, provider: Provider, pending: PendingFactor, credential: string): Promise<{ ok: true; method: "hwk" } | { ok: false; reason: AuditReason }> {
  try {
    const response = readResponse(credential)
    const opened = await consumeChallenge(context, provider.id, response.clientData.challenge)
    const { ceremony } = opened
    if (ceremony.action !== "register" || ceremony.pending !== pending.id || ceremony.userId !== pending.userId) {
      throw withAuditReason(new WebAuthnVerificationError("The challenge was issued for another sign-in."), "replayed")
    }
    const { passkey, name } = await verifyRegistration(context, provider, ceremony, response.json as unknown as RegistrationResponseJSON, response.clientData.challenge)
    const adapter = adapterOf(context)
    const user = asUser(await callAdapter(adapter, "getUser", pending.userId))
    if (user === undefined) throw new WebAuthnVerificationError("The pending sign-in's user no longer exists.")
    await attachPasskey(adapter, user, { ...passkey, userId: user.id }, provider.id)
    await sendNotice(context, user.email, "passkeyAdded", name === undefined ? undefined : { provider: name })
    return { ok: true, method: "hwk" }
  } catch (error) {
    if (!(error instanceof WebAuthnVerificationError)) throw error
    context.config.logger.error(error)
    return { ok: false, reason: taggedAuditReason(error) ?? "invalidCredentials" }
  }
}
