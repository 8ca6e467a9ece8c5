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

/**
 * The default store: counters in this process, at most 100,000 of them, the fewest counted going
 * first when it is full (see `memory-store.ts`). Its code is fetched on the first call: an app
 * whose flows count nothing (OAuth only) never loads it, though this entry exports it.
 */
export function memoryRateLimitStore(): RateLimitStore {
  let store: Promise<RateLimitStore> | undefined
  const counters = (): Promise<RateLimitStore> => (store ??= import("./memory-store.js").then((module) => module.memoryCounters()))
  return {
    hit: async (key, windowSeconds) => (await counters()).hit(key, windowSeconds),
    peek: async (key) => (await counters()).peek(key),
    reset: async (key) => (await counters()).reset(key),
  }
}
