/**
 * The `outbound/` room: calls that leave core, each bounded: every call into a store under its
 * deadline (`store-timeout.ts`, loaded only by an app with a store), one overall deadline for a provider's callback (`deadline.ts`), and a
 * provider's answer read within a size limit (`limited-body.ts`). It imports only `errors/` and
 * the limits' store type.
 *
 * Calls into the configured adapter, so that a store failure is always an `AdapterError`
 * naming the method, never an unhandled throw.
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import { AdapterError } from "../errors/flow-errors.js"

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
