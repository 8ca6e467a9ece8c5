/**
 * The store as the passkey flow reads it: the adapter it needs, and users checked for an id,
 * since a third-party adapter may answer with anything.
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { WebAuthnVerificationError } from "../errors.js"

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
