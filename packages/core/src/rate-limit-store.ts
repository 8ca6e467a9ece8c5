/**
 * Where the abuse limits' counters live (`rateLimit.store`), and the default store, which keeps
 * them in this process. Apart from the limits themselves (`rate-limit.ts`), which only the flows
 * that send mail or check passwords load: `Auth`'s entry exports the memory store, and an edge
 * from it to the limits would load them with every app.
 */

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
