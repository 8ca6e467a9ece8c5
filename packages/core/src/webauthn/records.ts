/**
 * The store as the passkey flow uses it: the adapter it needs, users checked for an id, since a
 * third-party adapter may answer with anything, and passkeys written in the shape the adapter
 * keeps.
 */
import type { Adapter, AdapterAuthenticator, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../internal.js"
import { WebAuthnVerificationError } from "../errors/flow-errors.js"
import { callAdapter } from "../outbound/store.js"

/**
 * How a passkey authenticated the user (`SessionAssurance.methods`): a hardware-bound key, and
 * the user verified by the authenticator (a PIN, a fingerprint) when its UV flag says so.
 *
 * @see https://www.w3.org/TR/webauthn-3/#concept-user-verification WebAuthn §6.2.3 user verification
 * @see https://www.rfc-editor.org/rfc/rfc8176#section-2 RFC 8176 `hwk`, `user`
 */
export function passkeyMethods(userVerified: boolean): string[] {
  return userVerified ? ["hwk", "user"] : ["hwk"]
}

/**
 * The configured adapter.
 *
 * @throws {WebAuthnVerificationError} when the app configured none (the configuration is refused
 *   without one first: see `needsAdapter` in `index.ts`).
 */
export function adapterOf(context: RequestContext): Adapter {
  const adapter = context.config.adapter
  if (adapter === undefined) throw new WebAuthnVerificationError("Passkeys need an `adapter`.")
  return adapter
}

/** A stored user with its id as a string, or `undefined`. */
export function asUser(value: unknown): AdapterUser | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const id: unknown = (value as { id?: unknown }).id
  if (typeof id === "string" && id !== "") return value as AdapterUser
  if (typeof id === "number" && Number.isSafeInteger(id)) return { ...(value as AdapterUser), id: String(id) }
  return undefined
}

/**
 * Stores a passkey. Its name, AAGUID and dates go only to an adapter that manages passkeys (has
 * `updateAuthenticator`, this project's addition); Auth.js's own adapters get Auth.js's fields
 * alone, since the tables their guides declare (Prisma's, Drizzle's) have no columns for more,
 * and Prisma refuses a field its model does not have.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function storeAuthenticator(adapter: Adapter, passkey: AdapterAuthenticator): Promise<void> {
  if (adapter.updateAuthenticator !== undefined) {
    await callAdapter(adapter, "createAuthenticator", passkey)
    return
  }
  const { credentialID, userId, providerAccountId, credentialPublicKey, counter, credentialDeviceType, credentialBackedUp, transports } = passkey
  await callAdapter(adapter, "createAuthenticator", { credentialID, userId, providerAccountId, credentialPublicKey, counter, credentialDeviceType, credentialBackedUp, transports })
}

/**
 * Adds a verified passkey to an existing user: links the `webauthn` account of its user handle
 * (unless that user has it already) and stores the passkey.
 *
 * @throws {WebAuthnVerificationError} when the handle's account belongs to another user.
 * @throws {AdapterError} when the adapter fails.
 */
export async function attachPasskey(adapter: Adapter, user: AdapterUser, passkey: AdapterAuthenticator, providerId: string): Promise<void> {
  const handle = passkey.providerAccountId
  const owner = asUser(await callAdapter(adapter, "getUserByAccount", { provider: providerId, providerAccountId: handle }))
  if (owner === undefined) await callAdapter(adapter, "linkAccount", { provider: providerId, type: "webauthn", providerAccountId: handle, userId: user.id })
  else if (owner.id !== user.id) throw new WebAuthnVerificationError("The user handle belongs to another user.")
  await storeAuthenticator(adapter, { ...passkey, userId: user.id })
}
