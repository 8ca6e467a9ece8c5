/**
 * Where password hashes are kept: the app's own store (`Password({ store })`, a `get` and a `set`
 * on a table of its database, for apps on an Auth.js adapter), else the adapter's
 * `getPasswordHash` / `setPasswordHash` (`@portcullis/adapter-memory`, `@portcullis/adapter-pg`).
 * Every call is bounded by `storeTimeout` and fails as an `AdapterError`, like any store call.
 */
import { PASSWORD_METHODS } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import { AdapterError } from "../errors/flow-errors.js"
import type { RequestContext } from "../internal.js"
import { callAdapter } from "../outbound/store.js"
import { callStore } from "../outbound/store-timeout.js"
import type { PasswordStore } from "../providers/types.js"

export type { PasswordStore }

/** A stored hash as the store answered it: a non-empty string, or `null` for none. */
function storedHash(value: unknown, what: string): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === "string" && value !== "") return value
  throw new AdapterError(`${what} answered something that is not a stored hash (a string) or \`null\`.`)
}

/**
 * The store hashes are read from and written to: `store` (the app's `Password({ store })`) when
 * given, each call within `storeTimeout`; else the adapter's `getPasswordHash` /
 * `setPasswordHash` (already bounded, as every adapter call is).
 *
 * @throws {Configuration} when there is no `store` and the adapter lacks the methods (configuration checks make this unreachable).
 */
export function passwordStore(context: RequestContext, store: PasswordStore | undefined): { get(userId: string): Promise<string | null>; set(userId: string, hash: string): Promise<void> } {
  if (store !== undefined) {
    const ms = context.config.storeTimeout
    return {
      get: async (userId) => storedHash(await callStore(ms, "The password `store`'s `get`", () => Promise.resolve(store.get(userId))), "The password `store`'s `get`"),
      set: async (userId, hash) => {
        await callStore(ms, "The password `store`'s `set`", () => Promise.resolve(store.set(userId, hash)))
      },
    }
  }
  const { adapter } = context.config
  if (adapter === undefined || PASSWORD_METHODS.some((method) => typeof adapter[method] !== "function")) {
    throw new Configuration("Password accounts need a `store` option or an adapter with `getPasswordHash` and `setPasswordHash`.")
  }
  return {
    get: async (userId) => storedHash(await callAdapter(adapter, "getPasswordHash", userId), "The adapter's `getPasswordHash`"),
    set: async (userId, hash) => {
      await callAdapter(adapter, "setPasswordHash", userId, hash)
    },
  }
}
