/**
 * The deadline (`storeTimeout`) on every call into a store, the adapter's and the limits'
 * (`rateLimit.store`): a frozen database or an unreachable Redis answers as a failed store within
 * it instead of holding the request. Loaded by configuration only when the app has such a store,
 * so an app without one bundles none of it.
 */
import type { Adapter } from "../adapters.js"
import { AuthError } from "../errors/errors.js"
import { AdapterError } from "../errors/flow-errors.js"
import type { RateLimitStore } from "../limits/rate-limit-store.js"

/**
 * Runs one store call within `ms`; `what` names it in the error. On the hot path of every
 * database-session read, so it makes no error, signal or closure it does not need: the error is
 * made only when the time is up.
 */
async function withinStoreTimeout<T>(ms: number, what: string, call: () => T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new AdapterError(`${what} did not answer within ${String(ms)} ms (\`storeTimeout\`).`))
    }, ms)
  })
  try {
    return await Promise.race([call(), expired])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `withAccountLock` bounded until the lock is held: the critical section that follows makes its
 * own calls (each bounded) and provider requests (with their own timeouts). A lock granted after
 * the deadline runs nothing.
 */
function boundedLock(lock: NonNullable<Adapter["withAccountLock"]>, adapter: Adapter, ms: number): NonNullable<Adapter["withAccountLock"]> {
  return async <T>(key: Parameters<typeof lock>[0], critical: () => Promise<T>): Promise<T> => {
    let held = false
    let late = false
    const expired = new AdapterError(`The adapter's \`withAccountLock\` did not grant the lock within ${String(ms)} ms (\`storeTimeout\`).`)
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        if (held) return
        late = true
        reject(expired)
      }, ms)
    })
    const locked = lock.call(adapter, key, (): Promise<T> => {
      if (late) return Promise.reject(expired)
      held = true
      clearTimeout(timer)
      return critical()
    }) as Promise<T>
    try {
      return await Promise.race([locked, deadline])
    } finally {
      clearTimeout(timer)
    }
  }
}

/** The bounded view last made of each adapter, and its deadline. */
const boundedAdapters = new WeakMap<Adapter, { ms: number; view: Adapter }>()

/**
 * The adapter with a deadline of `ms` on every method call (a frozen database would otherwise
 * hold requests indefinitely): a call still pending then rejects with an {@link AdapterError},
 * which `Auth()` answers like any store failure. The adapter itself is left as it was.
 */
export function adapterWithStoreTimeout(adapter: Adapter, ms: number): Adapter {
  // One bounded view per adapter and deadline: the caches keyed by the adapter (revocation
  // checks, refreshes in flight) must see the same object from every config that shares it.
  const known = boundedAdapters.get(adapter)
  if (known?.ms === ms) return known.view
  const bounded = new WeakMap<object, unknown>()
  const view = new Proxy(adapter, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property)
      if (typeof value !== "function") return value
      let wrapper = bounded.get(value)
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown
        wrapper =
          property === "withAccountLock"
            ? boundedLock(method as NonNullable<Adapter["withAccountLock"]>, target, ms)
            : (...args: unknown[]) => withinStoreTimeout(ms, `The adapter's \`${String(property)}\``, () => method.apply(target, args))
        bounded.set(value, wrapper)
      }
      return wrapper
    },
  })
  boundedAdapters.set(adapter, { ms, view })
  return view
}

/**
 * One call into a store of the app's that is not the adapter (`rateLimit.store`, a password
 * store), within `ms`; `what` names it in the error.
 *
 * @throws {AdapterError} when the call throws, rejects or outlives `ms`.
 */
export async function callStore<T>(ms: number, what: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await withinStoreTimeout(ms, what, work)
  } catch (cause) {
    if (cause instanceof AuthError) throw cause
    throw new AdapterError(`${what} failed.`, { cause })
  }
}

/**
 * `rateLimit.store` with a deadline of `ms` on every call, and every failure an
 * {@link AdapterError}: a limit whose store fails or hangs fails closed, answered as a store failure.
 */
export function rateLimitStoreWithTimeout(store: RateLimitStore, ms: number): RateLimitStore {
  const call = <T>(method: keyof RateLimitStore, work: () => Promise<T>): Promise<T> => callStore(ms, `The \`rateLimit.store\`'s \`${method}\``, work)
  return {
    hit: (key, windowSeconds) => call("hit", () => store.hit(key, windowSeconds)),
    peek: (key) => call("peek", () => store.peek(key)),
    reset: (key) => call("reset", () => store.reset(key)),
  }
}
