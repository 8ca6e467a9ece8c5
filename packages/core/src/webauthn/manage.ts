/**
 * `{basePath}/webauthn-credentials/:id`: a signed-in user's passkeys. `GET` lists them; `POST`
 * (CSRF-checked) renames one (`action=rename`, `credentialId`, `name`) or deletes one
 * (`action=delete`, `credentialId`). A passkey of another user is answered as unknown.
 */
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import { json, readForm, type RequestContext } from "../context.js"
import { verifyCsrf } from "../csrf.js"
import { AccessDenied, Configuration, WebAuthnVerificationError } from "../errors.js"
import type { FlowProvider } from "../flows.js"
import { readSession } from "../session/index.js"
import { callAdapter } from "../store.js"
import { aaguidName } from "./aaguid.js"
import { listAuthenticators } from "./ceremony.js"
import { resolveRelyingParty, type WebAuthnOptions } from "./options.js"

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
    id: authenticator.credentialID,
    name: authenticator.name ?? provider ?? "Passkey",
    provider,
    createdAt: iso(authenticator.createdAt),
    lastUsedAt: iso(authenticator.lastUsedAt),
    backedUp: authenticator.credentialBackedUp,
    transports: authenticator.transports?.split(",").filter(Boolean) ?? [],
  }
}

async function signedIn(context: RequestContext): Promise<{ adapter: Adapter; userId: string }> {
  const adapter = context.config.adapter
  if (adapter === undefined) throw new Configuration("Passkeys need an `adapter`.")
  const userId = (await readSession(context))?.userId
  if (userId === undefined) throw new AccessDenied("Managing passkeys needs a signed-in user.")
  return { adapter, userId }
}

/**
 * Lists the signed-in user's passkeys.
 *
 * @throws {AccessDenied} when nobody is signed in.
 */
export async function listPasskeys(context: RequestContext, provider: FlowProvider<WebAuthnOptions>): Promise<Response> {
  const { adapter, userId } = await signedIn(context)
  const authenticators = await listAuthenticators(adapter, userId)
  const body: PasskeyList = {
    rpId: resolveRelyingParty(provider.options, context.origin).id,
    userHandle: authenticators[0]?.providerAccountId ?? null,
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
 */
export async function changePasskey(context: RequestContext): Promise<Response> {
  const form = await readForm(context.request)
  await verifyCsrf(context, form.get("csrfToken"))
  const { adapter, userId } = await signedIn(context)
  const credentialId = form.get("credentialId") ?? ""
  if (credentialId === "" || credentialId.length > 1364) throw new WebAuthnVerificationError("`credentialId` is missing or too long.")
  const authenticator = await callAdapter(adapter, "getAuthenticator", credentialId)
  const owner: unknown = authenticator?.userId
  if (authenticator == null || String(owner) !== userId) throw new WebAuthnVerificationError("The signed-in user has no passkey with this id.")
  const action = form.get("action")
  if (action === "rename") {
    const name = (form.get("name") ?? "").trim()
    if (name === "" || name.length > MAX_NAME_LENGTH) throw new WebAuthnVerificationError(`A passkey's name has 1 to ${String(MAX_NAME_LENGTH)} characters.`)
    if (adapter.updateAuthenticator === undefined) throw new Configuration("Renaming a passkey needs the adapter's `updateAuthenticator`.")
    const updated = await callAdapter(adapter, "updateAuthenticator", { credentialID: credentialId, name })
    return json(context, { passkey: summary(updated ?? { ...authenticator, name }) })
  }
  if (action === "delete") {
    if (adapter.deleteAuthenticator === undefined) throw new Configuration("Deleting a passkey needs the adapter's `deleteAuthenticator`.")
    await callAdapter(adapter, "deleteAuthenticator", credentialId)
    return json(context, { deleted: credentialId })
  }
  throw new WebAuthnVerificationError('`action` must be "rename" or "delete".')
}
