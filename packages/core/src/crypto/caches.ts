/**
 * The one bounded cache every module-level cache uses. A cache keyed by anything a request can
 * choose (a salt that names the origin, a token, a host) would otherwise grow with every
 * distinct value an attacker sends and never shrink; this one holds at most `limit` entries and
 * drops the least recently used. Each is registered by name, so a test can check that every
 * such cache stays within its bound (this module is not part of the package's exports).
 */

/**
 * A map of at most `limit` entries that forgets the least recently used one first: a `Map`
 * (which keeps insertion order) whose `get` and `set` move the entry to the end. Each entry
 * should hold its own value object (as a derived key's promise or a remembered token does).
 */
export class BoundedCache<K, V> extends Map<K, V> {
  /**
   * The most recently used value: a run of reads of one entry (the usual session read) skips the
   * reorder. Compared by identity, where comparing a key could mean comparing a 4 KB token.
   */
  #newest: V | undefined

  constructor(readonly limit: number) {
    super()
  }

  /** The value for `key`, which becomes the most recently used. */
  override get(key: K): V | undefined {
    const value = super.get(key)
    if (value !== undefined && value !== this.#newest) this.set(key, value)
    return value
  }

  /** Sets `key` as the most recently used entry, dropping the least recently used beyond the limit. */
  override set(key: K, value: V): this {
    this.delete(key)
    super.set(key, value)
    this.#newest = value
    if (this.size > this.limit) this.delete(this.keys().next().value as K)
    return this
  }
}

const registry = new Map<string, BoundedCache<unknown, unknown>>()

/** A module-level {@link BoundedCache} of at least one entry, registered under `name` for {@link cacheSizes}. */
export function boundedCache<K, V>(name: string, limit: number): BoundedCache<K, V> {
  const cache = new BoundedCache<K, V>(limit)
  registry.set(name, cache)
  return cache
}

/** The size and bound of every registered cache, by name: for tests. */
export function cacheSizes(): Record<string, { size: number; limit: number }> {
  return Object.fromEntries([...registry].map(([name, cache]) => [name, { size: cache.size, limit: cache.limit }]))
}
