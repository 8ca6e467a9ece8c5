/**
 * Abuse limits keyed by who is targeted: sign-in mail per address, and failed password attempts
 * per account. Counters live in a store (`rateLimit.store`); the default keeps them in this
 * process. Only the flows that send mail or check passwords import this module.
 */
import { base64url } from "./crypto.js"
import type { InternalConfig } from "./internal.js"

/** A counter in a fixed window: how many hits so far, and when the window ends. */
export interface RateLimitCount {
  count: number
  resetAt: Date
}

/**
 * Where the limits' counters live. A store every instance shares (PostgreSQL, Redis) makes a
 * limit hold across instances; the default memory store holds per process.
 */
export interface RateLimitStore {
  /**
   * Adds one to the counter `key` and answers it, atomically: a counter whose window has ended
   * starts again at 1 with a window of `windowSeconds`.
   */
  hit(key: string, windowSeconds: number): Promise<RateLimitCount>
  /** The counter `key` as it stands (count 0 when there is none or its window ended), without adding to it. */
  peek(key: string): Promise<RateLimitCount>
  /** Forgets the counter `key` (a password sign-in that succeeded). */
  reset(key: string): Promise<void>
}

/** The limits and their store, as the flows use them. */
export interface RateLimits {
  store: RateLimitStore
  /** Sign-in mail (email links, passkey sign-up links) per address. */
  mail: { limit: number; windowSeconds: number }
  /** Failed password attempts per account before further attempts are refused until the window ends. */
  credentials: { failures: number; windowSeconds: number }
}

/** The most counters the memory store keeps: each one an address or account somebody targeted. */
const MEMORY_LIMIT = 100_000

/**
 * The default store: counters in this process. Expired counters are swept as it grows; past
 * {@link MEMORY_LIMIT} live counters the oldest window goes first, so a flood of addresses costs
 * bounded memory (and at worst resets the oldest counters, never raises a limit).
 */
export function memoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { count: number; resetAt: number }>()
  const sweep = (now: number): void => {
    if (counters.size < MEMORY_LIMIT) return
    for (const [key, counter] of counters) if (counter.resetAt <= now) counters.delete(key)
    while (counters.size >= MEMORY_LIMIT) counters.delete(counters.keys().next().value as string)
  }
  const current = (key: string, now: number) => {
    const counter = counters.get(key)
    return counter !== undefined && counter.resetAt > now ? counter : undefined
  }
  return {
    hit(key, windowSeconds) {
      const now = Date.now()
      let counter = current(key, now)
      if (counter === undefined) {
        sweep(now)
        counter = { count: 0, resetAt: now + windowSeconds * 1000 }
        counters.set(key, counter)
      }
      counter.count++
      return Promise.resolve({ count: counter.count, resetAt: new Date(counter.resetAt) })
    },
    peek(key) {
      const now = Date.now()
      const counter = current(key, now)
      return Promise.resolve({ count: counter?.count ?? 0, resetAt: new Date(counter?.resetAt ?? now) })
    },
    reset(key) {
      counters.delete(key)
      return Promise.resolve()
    },
  }
}

/** The memory store of each configuration that uses the default, so every request of it counts together. */
const defaultStores = new WeakMap<object, RateLimitStore>()

/** The configuration's limits, with its store (the memory store when none is configured); `undefined` with `rateLimit: false`. */
export function rateLimitsOf(config: InternalConfig): RateLimits | undefined {
  const limits = config.rateLimit
  if (limits === undefined) return undefined
  let store = limits.store
  if (store === undefined) {
    store = defaultStores.get(limits) ?? memoryRateLimitStore()
    defaultStores.set(limits, store)
  }
  return { ...limits, store }
}

/** A counter key that names what is targeted without keeping it readable in the store. */
export async function targetKey(kind: string, target: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${kind}\u0000${target}`))
  return `${kind}:${base64url(new Uint8Array(digest))}`
}
