/**
 * The memory store's counters (`memoryRateLimitStore`), apart from its door in
 * `rate-limit-store.ts`: the limits (`rate-limit.ts`) use them directly, and the door fetches them
 * on first use, so an app that counts nothing loads none of this. It is a `RateLimitStore` by its
 * shape: naming the type here would close a circle with the door.
 */
/** The most counters the memory store keeps: each one an address or account somebody targeted. */
const MEMORY_LIMIT = 100_000
/** How many counters one eviction frees: the pass over the store it takes is paid once per this many new counters. */
const EVICTION_BATCH = 10_000

type Counter = { count: number; resetAt: number }

/**
 * Makes room for {@link EVICTION_BATCH} new counters in one pass: every ended window goes, then,
 * while more room is needed, the lowest counts, the oldest window first among equal counts.
 */
function evict(counters: Map<string, Counter>, now: number): void {
  const byCount = new Map<number, string[]>()
  for (const [key, counter] of counters) {
    if (counter.resetAt <= now) {
      counters.delete(key)
      continue
    }
    const keys = byCount.get(counter.count)
    if (keys === undefined) byCount.set(counter.count, [key])
    else keys.push(key)
  }
  let excess = counters.size - (MEMORY_LIMIT - EVICTION_BATCH)
  for (const count of [...byCount.keys()].sort((a, b) => a - b)) {
    for (const key of byCount.get(count) ?? []) {
      if (excess <= 0) return
      counters.delete(key)
      excess--
    }
  }
}

/**
 * The default store: counters in this process, at most {@link MEMORY_LIMIT} of them. When a new
 * counter finds the store full, ended windows go first; if that is not enough, the lowest counts
 * go, the oldest window first among equal counts, until {@link EVICTION_BATCH} counters are free
 * (one pass per that many new counters, so a flood costs bounded memory and little time per hit).
 * A counter at or over its limit (a paused account, an address sent its mails) thus goes only
 * after every counter with a lower count: a flood of throw-away targets, each counted once,
 * evicts only its own kind. What a flood can still do: fill the store with about 90,000 counters
 * each counted at least as often as a paused account's (each hit 11 times or more against the
 * default password limit: about a million requests, which the per-client limits slow down when a
 * client address is known); then that account's counter may go before its window ends, giving
 * it a fresh allowance. The PostgreSQL store keeps every counter until its window ends, and so
 * does Redis unless its own `maxmemory-policy` evicts keys.
 */
export function memoryCounters() {
  const counters = new Map<string, Counter>()
  const current = (key: string, now: number) => {
    const counter = counters.get(key)
    return counter !== undefined && counter.resetAt > now ? counter : undefined
  }
  return {
    hit(key: string, windowSeconds: number) {
      const now = Date.now()
      let counter = current(key, now)
      if (counter === undefined) {
        // A renewed window goes to the back, so the map's order stays the order windows began.
        counters.delete(key)
        if (counters.size >= MEMORY_LIMIT) evict(counters, now)
        counter = { count: 0, resetAt: now + windowSeconds * 1000 }
        counters.set(key, counter)
      }
      counter.count++
      return Promise.resolve({ count: counter.count, resetAt: new Date(counter.resetAt) })
    },
    peek(key: string) {
      const now = Date.now()
      const counter = current(key, now)
      return Promise.resolve({ count: counter?.count ?? 0, resetAt: new Date(counter?.resetAt ?? now) })
    },
    reset(key: string) {
      counters.delete(key)
      return Promise.resolve()
    },
  }
}
