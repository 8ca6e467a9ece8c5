/**
 * Auth.js's `Adapter` contract, method by method, against what `AuthConfig.adapter` accepts. The
 * app files fail on the first method that does not fit; this names every one. Auth.js's type is
 * taken from what its adapters return, so it is the `@auth/core` they install.
 */
import type { DrizzleAdapter } from "@auth/drizzle-adapter"
import type { KyselyAdapter } from "@auth/kysely-adapter"
import type { Adapter } from "@portcullis/core/adapters"

/** `@auth/core` 0.41.3 (Prisma's, Drizzle's and pg's) and 0.41.2 (Kysely's and unstorage's). */
type AuthJsAdapter = ReturnType<typeof DrizzleAdapter> | ReturnType<typeof KyselyAdapter>

/** `true` when Auth.js's method `M` fits ours; otherwise a message naming it, which `true` is not. */
type Fits<M extends keyof AuthJsAdapter & keyof Adapter> = [Pick<AuthJsAdapter, M>] extends [Pick<Adapter, M>]
  ? true
  : `Auth.js's ${M} does not fit AuthConfig's Adapter`

/** Every method of Auth.js's contract: a missing or extra key fails, so the list stays whole. */
export const fits: { [M in keyof AuthJsAdapter]-?: M extends keyof Adapter ? Fits<M> : never } = {
  createUser: true,
  getUser: true,
  getUserByEmail: true,
  getUserByAccount: true,
  updateUser: true,
  deleteUser: true,
  linkAccount: true,
  unlinkAccount: true,
  getAccount: true,
  createSession: true,
  getSessionAndUser: true,
  updateSession: true,
  deleteSession: true,
  createVerificationToken: true,
  useVerificationToken: true,
  getAuthenticator: true,
  createAuthenticator: true,
  listAuthenticatorsByUserId: true,
  updateAuthenticatorCounter: true,
}
