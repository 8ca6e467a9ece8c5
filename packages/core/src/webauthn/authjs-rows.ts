/**
 * Passkeys registered under Auth.js, read as its adapter rows hold them, so they keep signing
 * in after an app moves to us. Auth.js (`@auth/core` 0.x, with SimpleWebAuthn 9) stores:
 *
 * - `credentialID` and `credentialPublicKey` in standard base64 (`+`, `/`, `=` padding), where
 *   ours are base64url;
 * - `providerAccountId` equal to `credentialID`, in the authenticator row and in its account row
 *   (`type: "webauthn"`), where ours is the WebAuthn user handle;
 * - no user handle at all: it registers each passkey under a fresh random handle and never
 *   records it, finding the user through the account row instead.
 */
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import { fromBase64url } from "../crypto/crypto.js"
import { callAdapter } from "../outbound/store.js"

/** Standard base64 as base64url: the same bytes, the other alphabet, no padding. */
function toBase64url(text: string): string {
  return text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** base64url as Auth.js writes ids: standard alphabet, padded to a multiple of 4. */
function toStandardBase64(text: string): string {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/")
  return standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "=")
}

/**
 * Whether a stored passkey was registered by Auth.js: its `providerAccountId` is its credential
 * id, where ours is the user handle drawn at random for its registration. (An authenticator that
 * chose its credential id equal to that handle only skips the handle check for its own passkey.)
 */
export function isAuthjsPasskey(authenticator: AdapterAuthenticator): boolean {
  return authenticator.providerAccountId === authenticator.credentialID
}

/**
 * The stored passkey for the credential id a browser sent (base64url): ours under that id,
 * else one Auth.js stored under the id's standard base64 form.
 *
 * @throws {AdapterError} when the adapter fails.
 */
export async function findAuthenticator(adapter: Adapter, credentialId: string): Promise<AdapterAuthenticator | null> {
  const ours = await callAdapter(adapter, "getAuthenticator", credentialId)
  if (ours != null) return ours
  const standard = toStandardBase64(credentialId)
  if (standard === credentialId) return null
  const authjs = await callAdapter(adapter, "getAuthenticator", standard)
  return authjs != null && isAuthjsPasskey(authjs) ? authjs : null
}

/** The bytes of a stored base64url or (Auth.js's) standard base64 value, or `undefined`. */
export function storedBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  return fromBase64url(toBase64url(text))
}

/** A stored credential id as WebAuthn options carry it: base64url. */
export function credentialIdForOptions(credentialId: string): string {
  return toBase64url(credentialId)
}
