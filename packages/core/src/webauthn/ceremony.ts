/**
 * The two WebAuthn ceremonies: `GET /webauthn-options/:id` hands out options with a fresh
 * challenge, `POST /callback/:id` verifies what the authenticator signed and signs the user in.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential
 * @see https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server"
import { askSignIn } from "../sign-in/sign-in-callback.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser, withAuditReason } from "../audit/trail.js"
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import { finishSignIn } from "../sign-in/sign-in.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { json, readForm, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { verifyCsrf } from "../http/csrf.js"
import { base64url, fromBase64url, randomBytes } from "../crypto/crypto.js"
import { AdapterError, WebAuthnVerificationError } from "../errors/flow-errors.js"
import type { FlowProvider } from "../internal.js"
import type { Account } from "../model.js"
import { signInPageUrl } from "../http/routes.js"
import { recentIfSignedIn } from "../session/recent.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter } from "../outbound/store.js"
import { aaguidName } from "./aaguid.js"
import { credentialIdForOptions, findAuthenticator, isAuthjsPasskey, storedBytes } from "./authjs-rows.js"
import { consumeChallenge, issueChallenge, spendChallenge, type Ceremony, type OpenedChallenge } from "./challenge.js"
import { requestInfo, resolveRelyingParty, type WebAuthnOptions } from "./options.js"
import { adapterOf, asUser, attachPasskey, passkeyMethods } from "./records.js"
import { isWaitingHere, signUp, signUpLink, type NewPasskey } from "./signup.js"

type Provider = FlowProvider<WebAuthnOptions>

/** The largest `data` field read: a real response is a few kilobytes (an attestation with certificates). */
const MAX_DATA_LENGTH = 16 * 1024
/** The spec's largest credential id is 1023 bytes: 1364 base64url characters. */
const MAX_CREDENTIAL_ID_LENGTH = 1364
/** The refusal's `code` that makes the client tell the password manager to forget the credential. */
const UNKNOWN_CREDENTIAL = "unknown_credential"
/** The refusal's `code` for a passkey this browser made whose sign-up link is still to be followed: kept. */
const WAITING_CREDENTIAL = "waiting_credential"
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/

function ceremonyAction(value: string | null): "authenticate" | "register" | undefined {
  if (value === null || value === "") return undefined
  if (value === "authenticate" || value === "register") return value
  throw new WebAuthnVerificationError('`action` must be "authenticate" or "register".')
}

/** Who registers when nobody is signed in: the app's `getUserInfo`, or the `email` query parameter. */
async function newUserInfo(context: RequestContext, provider: Provider): Promise<{ email?: string; name?: string }> {
  const { getUserInfo } = provider.options
  let info: { email?: unknown; name?: unknown } | null
  if (getUserInfo === undefined) {
    info = { email: context.url.searchParams.get("email") ?? undefined }
  } else {
    try {
      // A function of two parameters was written for Auth.js, which calls it so and answers `{ user, exists }`.
      const answer =
        getUserInfo.length >= 2
          ? await getUserInfo({ url: new URL(context.authUrl), provider: { id: provider.id, name: provider.name }, adapter: adapterOf(context) }, requestInfo(context.request))
          : await getUserInfo(context.request)
      info = answer !== null && "user" in answer ? answer.user : answer
    } catch (cause) {
      throw new WebAuthnVerificationError(`The \`getUserInfo\` of provider "${provider.id}" threw.`, { cause })
    }
  }
  const out: { email?: string; name?: string } = {}
  if (typeof info?.email === "string" && info.email.trim() !== "") {
    const email = info.email.trim().toLowerCase()
    if (!EMAIL.test(email)) throw new WebAuthnVerificationError("The email to register a passkey for is not an address.")
    out.email = email
  }
  if (typeof info?.name === "string" && info.name.trim() !== "") out.name = info.name.trim().slice(0, 128)
  if (out.email === undefined && provider.options.formFields.email?.required !== false && "email" in provider.options.formFields) {
    throw new WebAuthnVerificationError("An email is needed to create a passkey: send it as the `email` query parameter.")
  }
  return out
}

/**
 * `GET /webauthn-options/:id?action=&email=`: the options for `navigator.credentials.get` or
 * `.create`, as `{ action, options }`. Signing in never lists credential ids (the browser
 * offers the discoverable passkeys it holds); registering for a new email answers the same
 * whether or not the email has an account. Registering while signed in adds a passkey to the
 * signed-in user.
 *
 * @throws {MissingCSRF} when the browser has no CSRF cookie.
 * @throws {WebAuthnVerificationError} for a bad `action` or `email`.
 */
export async function webauthnOptions(context: RequestContext, provider: Provider): Promise<Response> {
  const { options } = provider
  const adapter = adapterOf(context)
  const rp = resolveRelyingParty(options, context, provider)
  const { reauth } = context
  if (reauth !== undefined) {
    // Proving the signed-in user again: only their own passkeys are asked for (allowCredentials).
    return ownPasskeyOptions(context, provider, await listAuthenticators(adapter, reauth.userId), { action: "authenticate", userId: reauth.userId, reauthAt: reauth.at })
  }
  const signedIn = await recentIfSignedIn(context)
  const action = ceremonyAction(context.url.searchParams.get("action")) ?? (signedIn === null ? "authenticate" : "register")
  // Adding a passkey to the signed-in user asks for a recent authentication before any ceremony.
  if (action === "register" && signedIn?.ok === false) return signedIn.response
  const userId = signedIn?.ok === true ? signedIn.current.userId : undefined
  if (action === "authenticate") {
    const challenge = await issueChallenge(context, provider.id, { action })
    const request = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: options.timeout,
      userVerification: options.userVerification,
      ...options.authenticationOptions,
      allowCredentials: [],
      challenge,
    })
    return json(context, { action, options: request })
  }

  if (userId !== undefined) return registrationOptions(context, provider, await addingPasskey(adapter, userId, {}))
  const info = await newUserInfo(context, provider)
  // A fresh handle whether or not the email has an account: the answer must not tell.
  const userName = info.email ?? info.name ?? "Passkey"
  return registrationOptions(context, provider, { ceremony: { action, handle: base64url(randomBytes(32)), ...info }, userName, displayName: info.name ?? userName, exclude: [] })
}

/** A registration ceremony to ask the browser for: who registers, the names it shows, the passkeys it must not make again. */
export interface Registration {
  ceremony: Ceremony
  userName: string
  displayName: string
  exclude: readonly AdapterAuthenticator[]
}

/**
 * The registration adding a passkey to the stored user `userId`, under the user handle of their
 * passkeys, excluding those (`excludeCredentials`); `bound` adds to the challenge what else it is
 * bound to (a pending sign-in).
 *
 * @throws {WebAuthnVerificationError} when the user no longer exists.
 * @throws {AdapterError} when the store fails.
 */
export async function addingPasskey(adapter: Adapter, userId: string, bound: Pick<Ceremony, "pending">): Promise<Registration> {
  const user = asUser(await callAdapter(adapter, "getUser", userId))
  if (user === undefined) throw new WebAuthnVerificationError("The user to add a passkey to no longer exists.")
  const exclude = await listAuthenticators(adapter, user.id)
  // Auth.js recorded no handle for its passkeys: a user who has only those gets a new one.
  const handle = exclude.find((known) => !isAuthjsPasskey(known))?.providerAccountId ?? base64url(randomBytes(32))
  const userName = user.email ?? user.name ?? user.id
  return { ceremony: { action: "register", userId: user.id, handle, ...bound }, userName, displayName: user.name ?? userName, exclude }
}

/**
 * The options for `navigator.credentials.create`, as `{ action: "register", options }`, with a
 * challenge issued (single use, in the store) for `registration.ceremony`.
 *
 * @throws {MissingCSRF} when the browser has no CSRF cookie.
 * @throws {AdapterError} when the store fails.
 * @see https://www.w3.org/TR/webauthn-3/#dictionary-makecredentialoptions
 */
export async function registrationOptions(context: RequestContext, provider: Provider, { ceremony, userName, displayName, exclude }: Registration): Promise<Response> {
  const { options } = provider
  const rp = resolveRelyingParty(options, context, provider)
  const challenge = await issueChallenge(context, provider.id, ceremony)
  const creation = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName,
    userDisplayName: displayName,
    timeout: options.timeout,
    attestationType: "none",
    ...options.registrationOptions,
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: options.userVerification,
      ...(options.registrationOptions.authenticatorSelection as object | undefined),
    },
    userID: fromBase64url(ceremony.handle ?? "") ?? randomBytes(32),
    excludeCredentials: exclude.map((known) => ({ id: credentialIdForOptions(known.credentialID), transports: known.transports?.split(",").filter(Boolean) ?? [] })),
    challenge,
  })
  return json(context, { action: "register", options: creation })
}

/**
 * Authentication options asking for one of `own` (`allowCredentials`), with `userVerification` as
 * the provider says and a challenge issued for `ceremony`: proving a known user again, or their
 * second factor.
 *
 * @throws {MissingCSRF} when the browser has no CSRF cookie.
 */
export async function ownPasskeyOptions(context: RequestContext, provider: Provider, own: readonly AdapterAuthenticator[], ceremony: Ceremony): Promise<Response> {
  const { options } = provider
  const challenge = await issueChallenge(context, provider.id, ceremony)
  const request = await generateAuthenticationOptions({
    rpID: resolveRelyingParty(options, context, provider).id,
    timeout: options.timeout,
    userVerification: options.userVerification,
    ...options.authenticationOptions,
    allowCredentials: own.map((known) => ({ id: credentialIdForOptions(known.credentialID), transports: known.transports?.split(",").filter(Boolean) ?? [] })),
    challenge,
  })
  return json(context, { action: "authenticate", options: request })
}

/** The user's passkeys, checked to be a list. */
export async function listAuthenticators(adapter: Adapter, userId: string): Promise<AdapterAuthenticator[]> {
  const listed: unknown = await callAdapter(adapter, "listAuthenticatorsByUserId", userId)
  if (!Array.isArray(listed)) throw new AdapterError("The adapter's `listAuthenticatorsByUserId` did not return an array.")
  return listed as AdapterAuthenticator[]
}

interface ClientData {
  type: string
  challenge: string
  origin: string
  crossOrigin?: boolean
  topOrigin?: string
}

/**
 * The response the browser posted, checked for shape and size before any cryptography.
 *
 * @throws {WebAuthnVerificationError} when it is missing, too large, not JSON or not a credential.
 */
export function readResponse(data: string | null): { json: Record<string, unknown>; id: string; clientData: ClientData } {
  if (data === null || data === "") throw new WebAuthnVerificationError("The request has no `data`.")
  if (data.length > MAX_DATA_LENGTH) throw new WebAuthnVerificationError("The `data` field is too large.")
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch (cause) {
    throw new WebAuthnVerificationError("The `data` field is not JSON.", { cause })
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new WebAuthnVerificationError("The `data` field is not a credential.")
  const response = parsed as Record<string, unknown>
  const { id, rawId, type } = response
  const inner: unknown = response.response
  if (typeof id !== "string" || id === "" || id.length > MAX_CREDENTIAL_ID_LENGTH || fromBase64url(id) === undefined || rawId !== id || type !== "public-key") {
    throw new WebAuthnVerificationError("The credential's `id` is missing, not base64url, or longer than WebAuthn allows.")
  }
  const clientDataJSON = typeof inner === "object" && inner !== null ? (inner as { clientDataJSON?: unknown }).clientDataJSON : undefined
  if (typeof clientDataJSON !== "string") throw new WebAuthnVerificationError("The credential has no `response.clientDataJSON`.")
  const bytes = fromBase64url(clientDataJSON)
  let clientData: unknown
  try {
    clientData = bytes === undefined ? undefined : JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch (cause) {
    throw new WebAuthnVerificationError("The `clientDataJSON` is not JSON.", { cause })
  }
  const client = clientData as Partial<ClientData> | undefined
  if (typeof client?.type !== "string" || typeof client.challenge !== "string" || typeof client.origin !== "string") {
    throw new WebAuthnVerificationError("The `clientDataJSON` lacks its type, challenge or origin.")
  }
  // A ceremony run in a frame of another site could be driven by that site: only top-level ones count.
  if (client.crossOrigin === true || (client.topOrigin !== undefined && client.topOrigin !== client.origin)) {
    throw new WebAuthnVerificationError("The ceremony ran in a cross-origin frame.")
  }
  return { json: response, id, clientData: client as ClientData }
}

/**
 * `POST /callback/:id` with `action`, `data` (the JSON of the browser's `PublicKeyCredential`),
 * `csrfToken` and `callbackUrl`, as Auth.js's client posts them.
 *
 * @throws {MissingCSRF} without the CSRF token.
 * @throws {WebAuthnVerificationError} for any response that does not verify.
 */
export async function webauthnCallback(context: RequestContext, provider: Provider): Promise<Response> {
  // A sign-up link mailed to confirm the address (see signup.ts).
  if (context.url.searchParams.has("pending")) return signUpLink(context, provider)
  if (context.request.method !== "POST") throw new WebAuthnVerificationError(`Provider "${provider.id}" signs in by POSTing its response to this route.`)
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  const requested = form.get("callbackUrl")
  const target = await resolveCallbackUrl(context, requested)
  if (requested !== null) context.returnTo = target
  const posted = ceremonyAction(form.get("action"))
  const response = readResponse(form.get("data"))
  const opened = await consumeChallenge(context, provider.id, response.clientData.challenge)
  const { ceremony } = opened
  // A challenge asked for as a pending sign-in's second factor completes that sign-in only (`/mfa/verify`).
  if (ceremony.pending !== undefined) throw new WebAuthnVerificationError("The challenge was issued for a second factor, which is posted to /mfa/verify.")
  if (posted !== undefined && posted !== ceremony.action) throw new WebAuthnVerificationError(`The challenge was issued to ${ceremony.action}, not to ${posted}.`)
  return ceremony.action === "register"
    ? register(context, provider, ceremony, response.json as unknown as RegistrationResponseJSON, response.clientData.challenge, target)
    : authenticate(context, provider, response.json as unknown as AuthenticationResponseJSON, opened, response.clientData.challenge, target)
}

/**
 * Refuses a sign-in with a credential this server does not know, as any refusal is answered
 * (logged, back to the sign-in page with `code=unknown_credential`), and says so in the body of
 * the answer to the passkey client (`X-Auth-Return-Redirect: 1`): `{ url, error, code }`. Only
 * that body makes the client tell the password manager to forget the passkey (Signal API), never
 * a `code` in a URL, which the sign-in's `callbackUrl` may carry.
 */
async function refuseUnknownCredential(context: RequestContext): Promise<Response> {
  const error = new WebAuthnVerificationError("No passkey has this credential id.", { publicCode: UNKNOWN_CREDENTIAL })
  context.config.logger.error(error)
  await auditFailure(context, "invalidCredentials")
  const url = signInPageUrl(context, { error: error.code, code: UNKNOWN_CREDENTIAL, callbackUrl: context.returnTo })
  if (context.request.headers.get("x-auth-return-redirect") === "1") return json(context, { url, error: error.code, code: UNKNOWN_CREDENTIAL })
  return redirect(context, url)
}

function failed(step: string, cause: unknown): WebAuthnVerificationError {
  return new WebAuthnVerificationError(`The ${step} did not verify.`, { cause })
}

async function authenticate(context: RequestContext, provider: Provider, response: AuthenticationResponseJSON, opened: OpenedChallenge, challenge: string, target: string): Promise<Response> {
  const adapter = adapterOf(context)
  const authenticator = await findAuthenticator(adapter, response.id)
  if (authenticator == null) {
    if (await isWaitingHere(context, response.id)) {
      throw new WebAuthnVerificationError("The passkey waits for its sign-up link to be followed in this browser.", { publicCode: WAITING_CREDENTIAL })
    }
    return refuseUnknownCredential(context)
  }
  const userVerified = await checkAssertion(context, provider, authenticator, response, opened, challenge)
  const owner: unknown = authenticator.userId
  const { ceremony } = opened
  if (ceremony.reauthAt !== undefined && ceremony.userId !== undefined) {
    // A re-authentication: the passkey must be the signed-in user's own; nobody is signed in.
    const proof = { provider: provider.id, startedBy: ceremony.userId, proves: { userId: String(owner) }, methods: passkeyMethods(userVerified) }
    return (await import("../reauth/ending.js")).finishReauth(context, proof, target)
  }
  const user = asUser(await callAdapter(adapter, "getUser", String(owner)))
  if (user === undefined) throw new WebAuthnVerificationError("The passkey's user no longer exists.")
  const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: authenticator.providerAccountId, userId: user.id }
  const redirectTo = await askSignIn(context, { user, account })
  if (redirectTo !== undefined) return redirect(context, redirectTo)
  return finishSignIn(context, { user, account, isNewUser: false, methods: passkeyMethods(userVerified), credentialId: authenticator.credentialID }, target)
}

/**
 * Verifies an assertion made with the stored `authenticator`: the user handle it was registered
 * under, the signature over `challenge`, the origin, the RP id hash, the flags the provider asks
 * for and the signature counter; then spends the challenge and stores the new counter and when the
 * passkey was last used. Answers whether the authenticator verified its user.
 *
 * @throws {WebAuthnVerificationError} when any of that fails, or the challenge was spent already.
 * @throws {AdapterError} when the store fails or holds an unreadable public key.
 * @see https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion
 */
export async function checkAssertion(
  context: RequestContext,
  provider: Provider,
  authenticator: AdapterAuthenticator,
  response: AuthenticationResponseJSON,
  opened: OpenedChallenge,
  challenge: string,
): Promise<boolean> {
  const adapter = adapterOf(context)
  const { options } = provider
  const rp = resolveRelyingParty(options, context, provider)
  const publicKey = storedBytes(authenticator.credentialPublicKey)
  if (publicKey === undefined) throw new AdapterError("The stored passkey's public key is neither base64url nor base64.")
  // The handle the authenticator returns is the one the passkey was registered under: a
  // credential of one user cannot speak for another. Auth.js never recorded its handles; its
  // passkeys are bound to their user by the stored row alone, as they were under Auth.js.
  if (!isAuthjsPasskey(authenticator) && response.response.userHandle !== authenticator.providerAccountId) throw new WebAuthnVerificationError("The passkey's user handle is not the one it was registered under.")
  // Third-party adapters may hand back a BIGINT column as a string.
  const counter: unknown = authenticator.counter
  let verified
  try {
    verified = await verifyAuthenticationResponse({
      ...options.verifyAuthenticationOptions,
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      expectedType: "webauthn.get",
      requireUserVerification: options.userVerification === "required",
      credential: {
        id: authenticator.credentialID,
        publicKey,
        counter: Number(counter),
        transports: authenticator.transports?.split(",").filter(Boolean) ?? [],
      },
    })
  } catch (cause) {
    throw failed("passkey sign-in", cause)
  }
  if (!verified.verified) throw new WebAuthnVerificationError("The passkey sign-in did not verify.")
  await spendChallenge(context, opened)
  const { newCounter } = verified.authenticationInfo
  await callAdapter(adapter, "updateAuthenticatorCounter", authenticator.credentialID, newCounter)
  if (adapter.updateAuthenticator !== undefined) await callAdapter(adapter, "updateAuthenticator", { credentialID: authenticator.credentialID, lastUsedAt: new Date() })
  return verified.authenticationInfo.userVerified
}

async function register(context: RequestContext, provider: Provider, ceremony: Ceremony, response: RegistrationResponseJSON, challenge: string, target: string): Promise<Response> {
  const adapter = adapterOf(context)
  const { id: providerId } = provider
  // Registering while signed in adds a passkey to that user; otherwise it is a sign-up, a sign-in.
  if (ceremony.userId !== undefined) {
    auditAs(context, "passkeyAdd", providerId)
    auditUser(context, ceremony.userId)
  }
  const { passkey, name, userVerified } = await verifyRegistration(context, provider, ceremony, response, challenge)
  const handle = passkey.providerAccountId
  const account: Account = { provider: providerId, type: "webauthn", providerAccountId: handle }

  if (ceremony.userId !== undefined) {
    // Adding a passkey: only the user who asked for the challenge, still signed in, and recently authenticated.
    const signedIn = await recentIfSignedIn(context, { callbackUrl: target })
    if (signedIn?.ok === false) return signedIn.response
    const session = signedIn?.current
    if (session?.userId !== ceremony.userId) throw withAuditReason(new WebAuthnVerificationError("Adding a passkey needs the user who started it to be signed in."), "wrongUser")
    const user = asUser(await callAdapter(adapter, "getUser", ceremony.userId))
    if (user === undefined) throw new WebAuthnVerificationError("The signed-in user no longer exists.")
    await attachPasskey(adapter, user, { ...passkey, userId: user.id }, providerId)
    await auditSuccess(context, user.id)
    await sendNotice(context, user.email, "passkeyAdded", name === undefined ? undefined : { provider: name })
    // Adding a passkey authenticates nobody (the key is new): the session goes on as it was.
    return finishSignIn(context, { user, account: { ...account, userId: user.id }, isNewUser: false, methods: session.assurance.methods, continues: session.assurance }, target)
  }

  const { email, name: userName } = ceremony
  return signUp(context, provider, { ...(email === undefined ? {} : { email }), ...(userName === undefined ? {} : { name: userName }), passkey, userVerified }, target)
}

/**
 * Verifies a registration made for `ceremony` (its `challenge`, consumed already): the
 * attestation over the challenge, the origin, the RP id hash and the flags the provider asks for,
 * a credential id that names no stored passkey yet; answers the passkey to store under the
 * ceremony's user handle, the authenticator's name (from its AAGUID) and whether it verified its user.
 *
 * @throws {WebAuthnVerificationError} when any of that fails.
 * @throws {AdapterError} when the store fails.
 * @see https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential
 */
export async function verifyRegistration(
  context: RequestContext,
  provider: Provider,
  ceremony: Ceremony,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<{ passkey: NewPasskey; name: string | undefined; userVerified: boolean }> {
  const adapter = adapterOf(context)
  const { options } = provider
  const rp = resolveRelyingParty(options, context, provider)
  let verified
  try {
    verified = await verifyRegistrationResponse({
      ...options.verifyRegistrationOptions,
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      expectedType: "webauthn.create",
      requireUserVerification: options.userVerification === "required",
    })
  } catch (cause) {
    throw failed("passkey registration", cause)
  }
  if (!verified.verified) throw new WebAuthnVerificationError("The passkey registration did not verify.")
  const info = verified.registrationInfo
  if (info.credential.id !== response.id) throw new WebAuthnVerificationError("The credential id does not match the one in the authenticator data.")
  // Whatever the adapter enforces: a credential id that exists belongs to someone already.
  if ((await callAdapter(adapter, "getAuthenticator", info.credential.id)) != null) throw new WebAuthnVerificationError("This passkey is registered already.")
  const handle = ceremony.handle
  if (handle === undefined) throw new WebAuthnVerificationError("The challenge names no user handle.")

  const name = aaguidName(info.aaguid)
  const passkey: NewPasskey = {
    credentialID: info.credential.id,
    providerAccountId: handle,
    credentialPublicKey: base64url(info.credential.publicKey),
    counter: info.credential.counter,
    credentialDeviceType: info.credentialDeviceType,
    credentialBackedUp: info.credentialBackedUp,
    transports: info.credential.transports?.join(",") ?? null,
    aaguid: info.aaguid,
    name: name ?? null,
    createdAt: new Date(),
    lastUsedAt: new Date(),
  }
  return { passkey, name, userVerified: info.userVerified }
}
