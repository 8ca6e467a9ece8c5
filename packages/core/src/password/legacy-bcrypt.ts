/**
 * bcrypt hashes from an app's own table (`legacyHashes: "bcrypt"`), checked once on the way to
 * scrypt: fetched only when the option is set and a stored hash is bcrypt's, with `bcryptjs`
 * (pure JavaScript, so it runs on every runtime core runs on), an optional peer dependency.
 *
 * The password is checked exactly as typed, as the app hashed it: bcrypt reads at most 72 bytes
 * of it, which is why a match is re-hashed with scrypt at once, the only place a password is cut.
 *
 * @see https://www.usenix.org/legacy/events/usenix99/provos/provos.pdf bcrypt
 */
import { Configuration } from "../errors/errors.js"
import type { HashingSlots } from "./hashing-slots.js"

/**
 * A bcrypt hash as `bcryptjs` and the other libraries write it, at a cost that cannot hold the
 * instance (2^4 to 2^14 rounds; Auth.js's documented example uses 10).
 */
const BCRYPT = /^\$2[aby]\$(0[4-9]|1[0-4])\$[./A-Za-z0-9]{53}$/u

interface Bcryptjs {
  compare(password: string, hash: string): Promise<boolean>
}

let loaded: Promise<Bcryptjs> | undefined

/**
 * `bcryptjs`, fetched once.
 *
 * @throws {Configuration} naming the install command when it is not installed.
 */
export function loadBcrypt(): Promise<Bcryptjs> {
  loaded ??= import("bcryptjs").then(
    (module) => module.default,
    (cause: unknown) => {
      loaded = undefined
      throw new Configuration("`legacyHashes: \"bcrypt\"` needs the `bcryptjs` package: `npm install bcryptjs`.", { cause })
    },
  )
  return loaded
}

/**
 * Whether `password`, as typed, matches the bcrypt hash `stored`, under the instance's hashing
 * cap; `undefined` when `stored` is not a bcrypt hash this checks (malformed, or a cost above
 * 14), for the caller to spend a verification's cost on instead.
 *
 * @throws {Configuration} when `bcryptjs` is not installed.
 */
export async function verifyBcrypt(stored: string, password: string, slots: HashingSlots): Promise<boolean | undefined> {
  if (!BCRYPT.test(stored)) return undefined
  const bcrypt = await loadBcrypt()
  return slots.run(() => bcrypt.compare(password, stored))
}
