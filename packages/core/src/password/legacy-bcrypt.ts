/**
 * bcrypt hashes from an app's own table (`legacyHashes: "bcrypt"`), checked once on the way to
 * scrypt: fetched only when the option is set and a stored hash is bcrypt's, with `bcrypt-ts`'s
 * web build (pure JavaScript that imports nothing of Node's, so it runs, and bundles, for every
 * runtime core runs on; `bcryptjs` imports Node's `crypto`, which a worker's bundle cannot resolve).
 *
 * The password is checked exactly as typed, as the app hashed it: bcrypt reads at most 72 bytes
 * of it, which is why a match is re-hashed with scrypt at once, the only place a password is cut.
 *
 * @see https://www.usenix.org/legacy/events/usenix99/provos/provos.pdf bcrypt
 */
import { compare } from "bcrypt-ts/browser"
import type { HashingSlots } from "./hashing-slots.js"

/**
 * A bcrypt hash as `bcrypt`, `bcryptjs` and the other libraries write it, at a cost that cannot hold the
 * instance (2^4 to 2^14 rounds; Auth.js's documented example uses 10).
 */
const BCRYPT = /^\$2[aby]\$(0[4-9]|1[0-4])\$[./A-Za-z0-9]{53}$/u

/**
 * Whether `password`, as typed, matches the bcrypt hash `stored`, under the instance's hashing
 * cap; `undefined` when `stored` is not a bcrypt hash this checks (malformed, or a cost above
 * 14), for the caller to spend a verification's cost on instead.
 */
export async function verifyBcrypt(stored: string, password: string, slots: HashingSlots): Promise<boolean | undefined> {
  if (!BCRYPT.test(stored)) return undefined
  return slots.run(() => compare(password, stored))
}
