/**
 * The per-instance cap on password hashing: a password hash costs tens of milliseconds of CPU on
 * purpose, so a flood of sign-ups, sign-ins or resets would otherwise take every core of the
 * instance. At most one hash per core runs at once; the others wait their turn in arrival order
 * (FIFO) in a bounded queue, and a call that finds the queue full is refused at once
 * ({@link HashingBusy}, answered 503) instead of piling up.
 */
import { AdapterError } from "../errors/flow-errors.js"

/**
 * Too many password hashes were waiting on this instance: the request is refused rather than
 * queued, so a flood cannot hold memory and requests without bound. Answered as the server's own
 * failure (`AdapterError`, 503: "a problem on our side, try again in a few minutes"), which it is.
 */
export class HashingBusy extends AdapterError {}

/** A cap on concurrent work: {@link HashingSlots.run} runs at most `limit` at once, queues up to `queueLimit` more. */
export interface HashingSlots {
  /**
   * Runs `work` once a slot is free (at once when one is), and answers what it answers.
   *
   * @throws {HashingBusy} when `queueLimit` calls are already waiting.
   */
  run<T>(work: () => Promise<T>): Promise<T>
  /** How many run now, and how many wait. */
  load(): { running: number; queued: number; limit: number; queueLimit: number }
}

/**
 * How many hashes may run at once on this instance: one per core the runtime reports
 * (`navigator.hardwareConcurrency`; Node.js 20 has no `navigator`, so `os.availableParallelism()`
 * there), else 2.
 */
export function hashingConcurrency(): number {
  const reported = (globalThis as { navigator?: { hardwareConcurrency?: unknown } }).navigator?.hardwareConcurrency
  if (typeof reported === "number" && Number.isSafeInteger(reported) && reported > 0) return reported
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    const os = process?.getBuiltinModule?.("node:os") as { availableParallelism?: () => unknown } | undefined
    const cores = os?.availableParallelism?.()
    if (typeof cores === "number" && Number.isSafeInteger(cores) && cores > 0) return cores
  } catch {
    // A runtime that refuses the module has none to tell.
  }
  return 2
}

/**
 * A cap of `limit` concurrent runs with a FIFO queue of at most `queueLimit` waiting calls.
 *
 * @throws {RangeError} when `limit` is below 1 or `queueLimit` below 0.
 */
export function hashingSlots(limit: number, queueLimit: number): HashingSlots {
  if (!(Number.isSafeInteger(limit) && limit >= 1) || !(Number.isSafeInteger(queueLimit) && queueLimit >= 0)) {
    throw new RangeError("hashingSlots: `limit` must be at least 1 and `queueLimit` at least 0.")
  }
  let running = 0
  const waiting: (() => void)[] = []
  const release = (): void => {
    const next = waiting.shift()
    // The slot passes straight to the next caller: `running` stays the same.
    if (next === undefined) running--
    else next()
  }
  return {
    async run(work) {
      if (running < limit) running++
      else if (waiting.length >= queueLimit) {
        throw new HashingBusy(`More than ${String(queueLimit)} password hashes are waiting on this instance; the request is refused until the queue drains.`)
      } else {
        await new Promise<void>((resolve) => waiting.push(resolve))
      }
      try {
        return await work()
      } finally {
        release()
      }
    },
    load: () => ({ running, queued: waiting.length, limit, queueLimit }),
  }
}
