/**
 * The `outbound/` room: calls that leave core, each bounded: every call into a store under its
 * deadline (this module), one overall deadline for a provider's callback (`deadline.ts`), and a
 * provider's answer read within a size limit (`limited-body.ts`). It imports only `errors/` and
 * the limits' store type.
 *
 * Calls into the configured adapter, so that a store failure is always an `AdapterError`
 * naming the method, never an unhandled throw; and the deadline (`storeTimeout`) on every call
 * into a store, the adapter's and the limits' (`rateLimit.store`).
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import { withDeadline } from "./deadline.js"
import { AdapterError, AuthError, Configuration } from "../errors/errors.js"
import type { RateLimitStore } from "../limits/rate-limit-store.js"

type Method = keyof Adapter
type Fn<M extends Method> = NonNullable<Adapter[M]>

/**
 * Calls `adapter[method](...args)`.
 *
 * @throws {AdapterError} when the method throws or rejects.
 * @throws {Configuration} when the method is missing (configuration checks make this unreachable).
 */
export async function callAdapter<M extends Method>(
  adapter: Adapter,
  method: M,
  ...args: Parameters<Fn<M>>
): Promise<Awaited<ReturnType<Fn<M>>>> {
  const fn = adapter[method] as ((...a: Parameters<Fn<M>>) => ReturnType<Fn<M>>) | undefined
  if (typeof fn !== "function") throw new Configuration(`The \`adapter\` has no \`${method}\` method.`)
  try {
    return await fn.apply(adapter, args)
  } catch (cause) {
    throw new AdapterError(`The adapter's \`${method}\` failed.`, { cause })
  }
}

/**
 * A user as a third-party adapter returned it, with its id as a string: Auth.js's own adapters
 * return numeric ids from SERIAL columns, and core treats every id as an opaque string.
 * `undefined` when there is no usable id.
 */
export function storedUser(value: unknown): AdapterUser | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const id: unknown = (value as { id?: unknown }).id
  if (typeof id === "string" && id !== "") return value as AdapterUser
  if ((typeof id === "number" && Number.isSafeInteger(id)) || typeof id === "bigint") return { ...(value as AdapterUser), id: String(id) }
  return undefined
}

/** Runs one store call within `ms`; `what` names it in the error. */
function withinStoreTimeout<T>(ms: number, what: string, call: () => T | Promise<T>): Promise<T> {
  const expired = new AdapterError(`${what} did not answer within ${String(ms)} ms (\`storeTimeout\`).`)
  return withDeadline(ms, expired, async () => await call())
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
 * `rateLimit.store` with a deadline of `ms` on every call, and every failure an
 * {@link AdapterError}: a limit whose store fails or hangs fails closed, answered as a store failure.
 */
export function rateLimitStoreWithTimeout(store: RateLimitStore, ms: number): RateLimitStore {
  const call = async <T>(method: keyof RateLimitStore, work: () => Promise<T>): Promise<T> => {
    try {
      return await withinStoreTimeout(ms, `The \`rateLimit.store\`'s \`${method}\``, work)
    } catch (cause) {
      if (cause instanceof AuthError) throw cause
      throw new AdapterError(`The \`rateLimit.store\`'s \`${method}\` failed.`, { cause })
    }
  }
  return {
    hit: (key, windowSeconds) => call("hit", () => store.hit(key, windowSeconds)),
    peek: (key) => call("peek", () => store.peek(key)),
    reset: (key) => call("reset", () => store.reset(key)),
  }
}
