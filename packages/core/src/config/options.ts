/**
 * The checks an option goes through where it is first turned into a typed value: shared by the
 * configuration and every provider type, so each failure reads the same and names the option.
 */
import { Configuration } from "../errors/errors.js"

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/**
 * An optional function option.
 *
 * @throws {Configuration} naming the option when it is set to something else.
 */
// The type parameter names what the validated value is; callers pass it explicitly.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function optionalFunction<T>(value: unknown, option: string): T | undefined {
  if (value !== undefined && typeof value !== "function") throw new Configuration(`\`${option}\` must be a function.`)
  return value as T | undefined
}

/**
 * An optional string option.
 *
 * @throws {Configuration} naming the option when it is set to something else.
 */
export function optionalString(value: unknown, option: string): string | undefined {
  if (value !== undefined && typeof value !== "string") throw new Configuration(`\`${option}\` must be a string.`)
  return value
}

/**
 * A number of seconds, floored; `fallback` when unset.
 *
 * @throws {Configuration} naming the option when it is not a finite positive number (or, with
 * `allowZero`, non-negative).
 */
export function positiveSeconds(value: unknown, option: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Configuration(`\`${option}\` must be a ${allowZero ? "non-negative" : "positive"} number of seconds.`)
  }
  return Math.floor(value)
}

// Environment reading has its own home; re-exported for the option readers that import it from here.
export { envName, readEnv } from "./env.js"

/** A color from config, or `undefined` when it is not a plain CSS color (it lands in a style attribute). */
export function safeColor(value: string | undefined): string | undefined {
  return value !== undefined && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : undefined
}

/** A provider that hangs holds the user this long per request at most. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000
/** ... and this long for a whole callback, however many requests it makes. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 15_000
/** A store (the adapter, `rateLimit.store`) that stops answering holds a request this long per call at most (`storeTimeout`). */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000

/**
 * A duration option in milliseconds, up to two minutes; `fallback` when unset.
 *
 * @throws {Configuration} naming the option when it is not such a number.
 */
export function milliseconds(value: unknown, option: string, fallback: number): number {
  const ms = value ?? fallback
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > 120_000) {
    throw new Configuration(`\`${option}\` must be a number of milliseconds between 1 and 120000.`)
  }
  return ms
}
