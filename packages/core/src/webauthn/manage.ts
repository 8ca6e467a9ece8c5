/**
 * `{basePath}/webauthn-credentials/:id`: a signed-in user's passkeys. `GET` lists them; `POST`
 * (CSRF-checked) renames one (`action=rename`, `credentialId`, `name`) or deletes one
 * (`action=delete`, `credentialId`). A passkey of another user is answered as unknown, and the
 * last way a user has to sign in is never deleted.
 */
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import { auditAs, auditSuccess } from "../audit/audit.js"
import { auditFailure, auditUser, withAuditReason } from "../audit/trail.js"
import { json, readForm } from "../http/context.js"
import type { RequestContext } from "../internal.js"
import { verifyCsrf } from "../http/csrf.js"
import { Configuration } from "../errors/errors.js"
import { AccessDenied, WebAuthnVerificationError } from "../errors/flow-errors.js"
import type { FlowProvider } from "../internal.js"
import { readSession } from "../session/index.js"
import { requireRecentSession } from "../session/recent.js"
import { sendNotice } from "../outbound/notices.js"
import { callAdapter, storedUser } from "../outbound/store.js"
import { keepsAWayIn } from "../sign-in/ways-in.js"
import { aaguidName } from "./aaguid.js"
import { credentialIdForOptions, findAuthenticator, isAuthjsPasskey } from "./authjs-rows.js"
import { listAuthenticators } from "./ceremony.js"
import { resolveRelyingParty, type WebAuthnOptions } from "./options.js"
import { storeAuthenticator } from "./records.js"

/** A passkey as the list shows it: nothing secret, nothing the user cannot see in their password manager. */
export interface PasskeySummary {
  id: string
  name: string
  /** The password manager or key that holds it, when its AAGUID is a known one. */
  provider: string | null
  createdAt: string | null
  lastUsedAt: string | null
  backedUp: boolean
  transports: string[]
}

/** What `GET /webauthn-credentials/:id` answers. */
export interface PasskeyList {
  rpId: string
  /** The WebAuthn user handle (base64url), for the Signal API's `signalAllAcceptedCredentials`. */
  userHandle: string | null
  passkeys: PasskeySummary[]
}

const MAX_NAME_LENGTH = 64

function iso(value: unknown): string | null {
  if (value == null) return null
  const date = value instanceof Date ? value : new Date(value as string)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

function summary(authenticator: AdapterAuthenticator): PasskeySummary {
  const provider = aaguidName(authenticator.aaguid) ?? null
  return {
    // base64url, as WebAuthn and its Signal API take ids (Auth.js stored standard base64).
    id: credentialIdForOptions(authenticator.credentialID),
    name: authenticator.name ?? provider ?? "Passkey",
    provider,
    createdAt: iso(authenticator.createdAt),
    lastUsedAt: iso(authenticator.lastUsedAt),
    backedUp: authenticator.credentialBackedUp,
    transports: authenticator.transports?.split(",").filter(Boolean) ?? [],
  }
}

/**
 * The adapter and the signed-in user; with `recent`, only a user who authenticated within
 * `session.reauthAge`, else the `ReauthRequired` answer (deleting a passkey removes a way in).
 */
async function signedIn(context: RequestContext, recent = false): Promise<{ adapter: Adapter; userId: string } | Response> {
  const adapter = context.config.adapter
  if (adapter === undefined) throw new Configuration("Passkeys need an `adapter`.")
  let userId: string | undefined
  if (recent) {
    const checked = await requireRecentSession(context)
    if (!checked.ok && checked.error === "ReauthRequired") return checked.response
    userId = checked.ok ? checked.current.userId : undefined
  } else {
    userId = (await readSession(context))?.userId
  }
  if (userId === undefined) throw withAuditReason(new AccessDenied("Managing passkeys needs a signed-in user."), "signInRequired")
  auditUser(context, userId)
  return { adapter, userId }
}

/** The `code` of the answer that refuses to delete a user's last way to sign in. */
const LAST_SIGN_IN_METHOD = "last_sign_in_method"

/** The answer that keeps the user's last way to sign in: a 409 saying what to do first. */
async function refuseLastWayIn(context: RequestContext, adapter: Adapter): Promise<Response> {
  await auditFailure(context, "lastSignInMethod")
  const why =
    adapter.listAccountsByUserId === undefined
      ? " The adapter cannot list linked accounts (it has no `listAccountsByUserId`), so only another passkey or a verified email with an email provider counts."
      : ""
  const message = `This passkey is the user's last way to sign in: add another passkey (or link an account, or verify the email) before deleting it.${why}`
  // A refusal the user can act on, not a failure to log: answered here, with its own status.
  return json(context, { error: "WebAuthnVerificationError", code: LAST_SIGN_IN_METHOD, message }, 409)
}

/** Mails the owner that `authenticator` no longer signs them in, naming the password manager that held it when known. */
async function noticeRemoved(context: RequestContext, adapter: Adapter, userId: string, authenticator: AdapterAuthenticator): Promise<void> {
  const user = adapter.getUser === undefined ? undefined : storedUser(await callAdapter(adapter, "getUser", userId))
  const holder = aaguidName(authenticator.aaguid)
  await sendNotice(context, user?.email, "passkeyRemoved", holder === undefined ? undefined : { provider: holder })
}

/**
 * Deletes a passkey unless it is the user's last way to sign in. Two requests deleting a user's
 * last two passkeys at once could each see the other's passkey still there, so the check runs
 * again after the delete, and the passkey is put back when nothing is left: the re-check that
 * runs last sees every delete done, so at worst both are refused, never both done.
 */
async function deletePasskey(context: RequestContext, adapter: Adapter, userId: string, authenticator: AdapterAuthenticator): Promise<Response> {
  if (adapter.deleteAuthenticator === undefined) throw new Configuration("Deleting a passkey needs the adapter's `deleteAuthenticator`.")
  const { credentialID } = authenticator
  // The rule of what else counts as a way in is `ways-in.ts`'s, shared with unlinking an account.
  const removed = { kind: "passkey", credentialID } as const
  if (!(await keepsAWayIn(context, adapter, userId, removed))) return refuseLastWayIn(context, adapter)
  const deleted = await callAdapter(adapter, "deleteAuthenticator", credentialID)
  // `null`: a concurrent request deleted it first, and that request checks what is left.
  if (deleted != null && !(await keepsAWayIn(context, adapter, userId, removed))) {
    await storeAuthenticator(adapter, { ...authenticator, ...deleted, userId })
    return refuseLastWayIn(context, adapter)
  }
  await auditSuccess(context, userId)
  // `null`: the concurrent request that deleted it first tells the owner.
  if (deleted != null) await noticeRemoved(context, adapter, userId, authenticator)
  return json(context, { deleted: credentialIdForOptions(credentialID) })
}

/**
 * Lists the signed-in user's passkeys.
 *
 * @throws {AccessDenied} when nobody is signed in.
 */
export async function listPasskeys(context: RequestContext, provider: FlowProvider<WebAuthnOptions>): Promise<Response> {
  const actor = await signedIn(context)
  if (actor instanceof Response) return actor
  const { adapter, userId } = actor
  const authenticators = await listAuthenticators(adapter, userId)
  const body: PasskeyList = {
    rpId: resolveRelyingParty(provider.options, context, provider).id,
    // Auth.js's passkeys carry no handle (their providerAccountId is the credential id).
    userHandle: authenticators.find((known) => !isAuthjsPasskey(known))?.providerAccountId ?? null,
    passkeys: authenticators.map(summary),
  }
  return json(context, body)
}

/**
 * Renames or deletes one of the signed-in user's passkeys.
 *
 * @throws {MissingCSRF} without the CSRF token.
 * @throws {AccessDenied} when nobody is signed in.
 * @throws {WebAuthnVerificationError} for an unknown passkey, another user's, a bad name or action.
 * @throws {Configuration} when the adapter has no `updateAuthenticator` / `deleteAuthenticator`.
 * @returns 409 with `code: "last_sign_in_method"` instead of deleting the user's last way to sign in;
 * `ReauthRequired` (see `requireRecentSession`) for a delete when the user last authenticated longer than `session.reauthAge` ago.
 */
export async function changePasskey(context: RequestContext, provider: FlowProvider<WebAuthnOptions>): Promise<Response> {
  const form = await readForm(context.request)
  // A rename changes a label; a delete removes a way to sign in, which the audit trail records.
  if (form.get("action") === "delete") auditAs(context, "passkeyRemove", provider.id)
  await verifyCsrf(context, form.get("csrfToken"))
  const actor = await signedIn(context, form.get("action") === "delete")
  if (actor instanceof Response) return actor
  const { adapter, userId } = actor
  const credentialId = form.get("credentialId") ?? ""
  if (credentialId === "" || credentialId.length > 1364) throw withAuditReason(new WebAuthnVerificationError("`credentialId` is missing or too long."), "invalidRequest")
  const authenticator = await findAuthenticator(adapter, credentialId)
  const owner: unknown = authenticator?.userId
  if (authenticator == null || String(owner) !== userId) throw withAuditReason(new WebAuthnVerificationError("The signed-in user has no passkey with this id."), "invalidRequest")
  const action = form.get("action")
  if (action === "rename") {
    const name = (form.get("name") ?? "").trim()
    if (name === "" || name.length > MAX_NAME_LENGTH) throw new WebAuthnVerificationError(`A passkey's name has 1 to ${String(MAX_NAME_LENGTH)} characters.`)
    if (adapter.updateAuthenticator === undefined) throw new Configuration("Renaming a passkey needs the adapter's `updateAuthenticator`.")
    const updated = await callAdapter(adapter, "updateAuthenticator", { credentialID: authenticator.credentialID, name })
    return json(context, { passkey: summary(updated ?? { ...authenticator, name }) })
  }
  if (action === "delete") return deletePasskey(context, adapter, userId, authenticator)
  throw new WebAuthnVerificationError('`action` must be "rename" or "delete".')
}
