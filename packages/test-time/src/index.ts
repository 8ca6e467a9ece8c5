/**
 * One time scale for every package's tests. A browser or server test that passes in 4 s alone
 * can take four times as long on a busy 2-core machine; rather than race a fixed budget, every
 * budget (vitest's `testTimeout` and `hookTimeout`, a test's own timeout, a playwright wait) is
 * multiplied by the same factor: `PORTCULLIS_TEST_TIME_SCALE` when set, else 2 under CI, and more
 * when the machine is already busy as the tests start.
 *
 * The factor is decided once, where vitest loads its configuration, and written back to the
 * environment, so the test workers it starts read the same value.
 *
 * @module
 */
import { availableParallelism, loadavg } from "node:os"

/** The environment variable that sets the factor, e.g. `PORTCULLIS_TEST_TIME_SCALE=3`. */
export const TIME_SCALE_VARIABLE = "PORTCULLIS_TEST_TIME_SCALE"

/** The largest factor chosen from CI or the load: beyond it a hung test would take too long to report. */
const MAX_AUTOMATIC_SCALE = 4

/** What the factor is decided from; the real process and machine by default. */
export interface TimeScaleSource {
  env: Readonly<Record<string, string | undefined>>
  /** The one-minute load average. */
  load: number
  cores: number
}

function machine(): TimeScaleSource {
  return { env: process.env, load: loadavg()[0] ?? 0, cores: availableParallelism() }
}

/**
 * The factor for a machine: the variable when it is set; otherwise at least 2 under CI (`CI`
 * set and not `false` or `0`), and 1 plus the load per core, in halves, when the load average
 * is at least half the cores (a load of 4 on 2 cores gives 3), at most 4.
 *
 * @throws {RangeError} when the variable is set to anything but a number from 0.1 to 100.
 * @example
 * ```ts
 * decideTimeScale({ env: {}, load: 4, cores: 2 }) // 3
 * ```
 */
export function decideTimeScale(source: TimeScaleSource): number {
  const set = source.env[TIME_SCALE_VARIABLE]
  if (set !== undefined && set.trim() !== "") {
    const value = Number(set)
    if (!Number.isFinite(value) || value < 0.1 || value > 100) {
      throw new RangeError(`${TIME_SCALE_VARIABLE} must be a number from 0.1 to 100 (a factor for every test time budget); it is "${set}".`)
    }
    return value
  }
  const ci = source.env.CI !== undefined && !["", "0", "false"].includes(source.env.CI.toLowerCase()) ? 2 : 1
  const perCore = source.cores > 0 ? source.load / source.cores : 0
  const busy = perCore >= 0.5 ? Math.round((1 + perCore) * 2) / 2 : 1
  return Math.min(MAX_AUTOMATIC_SCALE, Math.max(ci, busy))
}

let decided: number | undefined

/**
 * This process's factor, decided on first use and written to `PORTCULLIS_TEST_TIME_SCALE` so
 * that the processes it starts (vitest's workers) use the same one.
 *
 * @throws {RangeError} when the variable is set to anything but a number from 0.1 to 100.
 */
export function timeScale(): number {
  if (decided === undefined) {
    decided = decideTimeScale(machine())
    process.env[TIME_SCALE_VARIABLE] = String(decided)
  }
  return decided
}

/**
 * A time budget in milliseconds, stretched by the factor: for a test's own timeout
 * (`it(name, body, scaled(60_000))`) and for waits (`{ timeout: scaled(15_000) }`).
 *
 * @example
 * ```ts
 * await page.waitForURL(`${origin}/account`, { timeout: scaled(15_000) })
 * ```
 */
export function scaled(milliseconds: number): number {
  return Math.round(milliseconds * timeScale())
}

/** The budgets {@link scaledTimeouts} sets, as vitest's `test` options name them. */
export interface ScaledTimeouts {
  testTimeout: number
  hookTimeout: number
  /** `expect.poll`'s budget: vitest's 1 s default, stretched too. */
  expect: { poll: { timeout: number } }
}

/**
 * vitest's `testTimeout`, `hookTimeout` and `expect.poll` budget, stretched by the factor:
 * every package's `vitest.config.ts` spreads this into its `test` options.
 *
 * @example
 * ```ts
 * export default defineConfig({ test: { include: ["test/**\/*.test.ts"], ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }) } })
 * ```
 */
export function scaledTimeouts(budgets: { testTimeout: number; hookTimeout?: number }): ScaledTimeouts {
  // vitest's own defaults: 10 s for a hook, 1 s for expect.poll.
  return { testTimeout: scaled(budgets.testTimeout), hookTimeout: scaled(budgets.hookTimeout ?? 10_000), expect: { poll: { timeout: scaled(1_000) } } }
}
