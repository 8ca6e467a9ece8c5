/**
 * The `limits/` room: the abuse limits. Per target (sign-in mail per address, failed passwords per
 * account: this module, keyed by `mailbox-key.ts`), per client address (`client-limit*.ts`, the
 * address read and recorded by `client-address-*.ts` and `ip-address.ts`; the helpers apps call
 * are the root entry `client-address.ts`), and the store both count in (`rate-limit-store.ts`). It
 * imports only `errors/`, `crypto/` and `http/`.
 *
 * Abuse limits keyed by who is targeted: sign-in mail per address, and failed password attempts
 * per account. Counters live in a store (`rateLimit.store`); the default keeps them in this
 * process. Only the flows that send mail or check passwords import this module, and the
 * per-client limiter (`client-limit.ts`), which counts in the same store.
 */
import type { ClientLimits } from "./client-limit-rules.js"
import { base64url } from "../crypto/crypto.js"
import type { InternalConfig } from "../internal.js"
import { memoryCounters } from "./memory-store.js"
import type { RateLimitStore } from "./rate-limit-store.js"


/** The limits and their store, as the flows use them. */
export interface RateLimits {
  store: RateLimitStore
  /** Sign-in mail (email links, passkey sign-up links) per address. */
  mail: { limit: number; windowSeconds: number }
  /** Failed password attempts per account before further attempts are refused until the window ends. */
  credentials: { failures: number; windowSeconds: number }
  /** Requests per client address and route group (`client-limit.ts`): absent for the defaults, `false` when off. */
  perClient?: ClientLimits | false
}

/** The memory store of each configuration that uses the default, so every request of it counts together. */
const defaultStores = new WeakMap<object, RateLimitStore>()

/** The configuration's limits, with its store (the memory store when none is configured); `undefined` with `rateLimit: false`. */
export function rateLimitsOf(config: InternalConfig): RateLimits | undefined {
  const limits = config.rateLimit
  if (limits === undefined) return undefined
  let store = limits.store
  if (store === undefined) {
    store = defaultStores.get(limits) ?? memoryCounters()
    defaultStores.set(limits, store)
  }
  return { ...limits, store }
}

/** A counter key that names what is targeted without keeping it readable in the store. */
export async function targetKey(kind: string, target: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${kind}\u0000${target}`))
  return `${kind}:${base64url(new Uint8Array(digest))}`
}
