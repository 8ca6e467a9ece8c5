/**
 * One cache of a provider's published signing keys (its JWK Set) for every token it signs: the
 * ID-token check hands it to oauth4webapi through its `jwksCache` option (oauth4webapi reads keys
 * from it and writes the keys it downloads into it), and the logout-token check reads and writes
 * it directly, so one download serves both. It also holds when an unknown `kid` last forced a new
 * download, so the rate limit on those counts every token alike. No oauth4webapi code here: the
 * logout-token check stays free to load without the OAuth protocol.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 */
import type { InternalOAuthProvider } from "./provider.js"

/**
 * The least time between two downloads of a provider's keys forced by unknown keys: the first
 * unknown `kid` after an ordinary download always refetches (a provider that rotated its key
 * seconds after a sign-in fetched the old set), while a stream of unknown `kid`s costs the
 * provider one request per interval at most.
 */
export const KEY_REFETCH_INTERVAL_MS = 10_000

/** Seconds downloaded keys are used before they are downloaded again: oauth4webapi's own limit, so both checks agree. */
const MAX_AGE_S = 300

/** A provider's keys as oauth4webapi exports its cache: the key set and when it was downloaded (seconds since the epoch). */
export interface KeyCache {
  jwks?: { keys: JsonWebKey[] }
  uat?: number
}

/** Per provider: its cached keys, our last refetch forced by an unknown key, and that refetch while it runs. */
export interface KeySet {
  cache: KeyCache
  forcedAt: number
  refetching: Promise<unknown> | undefined
}

const keySets = new WeakMap<InternalOAuthProvider, KeySet>()

/** The provider's one key set, made empty on first use. */
export function keySetOf(provider: InternalOAuthProvider): KeySet {
  let set = keySets.get(provider)
  if (set === undefined) {
    set = { cache: {}, forcedAt: 0, refetching: undefined }
    keySets.set(provider, set)
  }
  return set
}

/** The cached keys while they are young enough to use, else `undefined`. */
export function cachedKeys(set: KeySet): readonly JsonWebKey[] | undefined {
  const { jwks, uat } = set.cache
  if (jwks === undefined || uat === undefined || Math.floor(Date.now() / 1000) - uat >= MAX_AGE_S) return undefined
  return jwks.keys
}

/** Keeps keys just downloaded, for both checks. */
export function storeKeys(set: KeySet, keys: readonly JsonWebKey[]): void {
  set.cache.jwks = { keys: [...keys] }
  set.cache.uat = Math.floor(Date.now() / 1000)
}

/**
 * Whether an unknown `kid` may download the keys again now, and if so records it: only
 * refetches forced by unknown keys count, so an ordinary download moments ago (the sign-in just
 * before a rotation) never keeps a new key out.
 */
export function claimForcedRefetch(set: KeySet): boolean {
  if (Date.now() - set.forcedAt < KEY_REFETCH_INTERVAL_MS) return false
  set.forcedAt = Date.now()
  delete set.cache.jwks
  delete set.cache.uat
  return true
}
