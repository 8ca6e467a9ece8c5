/**
 * The contract every `RateLimitStore` (core's `rateLimit.store`) keeps, as cases: counting in a
 * window, a new window once one ended, `peek` without adding, `reset`, and concurrent hits each
 * getting a count of their own. Every case uses keys of its own, so a shared store works.
 *
 * @module rate-limit-store
 */
import assert from "node:assert/strict"
import type { RateLimitCount, RateLimitStore } from "@portcullis/core"
import { scaled } from "@portcullis/test-time"
import { describe, it, vi } from "vitest"

/**
 * Whose clock a store's windows run on, which decides how the cases that need a window to end get
 * past it:
 * - `"process"`: this process's `Date.now()` (core's memory store). The case moves that clock past
 *   the window's end with vitest's fake `Date` and waits for nothing.
 * - `"server"`: a server's (Redis's `TIME`, PostgreSQL's `now()`), which a test cannot move. The
 *   windows that must end are short (a quarter second, stretched by the load-tolerant time scale
 *   so that two hits in a row still land in one window on a busy machine), and the case waits
 *   until the window's end, then polls the store until it says so.
 */
export type RateLimitStoreClock = "process" | "server"

/** One case of the store contract: a name and an async `run` that fails with a `node:assert` error. */
export interface RateLimitStoreCase {
  name: string
  /** Runs the case against `store`, whose windows run on `clock` (`"server"` when not given, which suits any store). */
  run(store: RateLimitStore, clock?: RateLimitStoreClock): Promise<void>
}

/** The window of the counting cases: long enough that none ends during a case. */
const WINDOW = 600
/** How far a store's `resetAt` may be from this process's clock (a store may use its server's clock). */
const CLOCK_SLACK = 1_000
/** How many hits race in the concurrency case. */
export const CONCURRENT_HITS = 200

const newKey = (name: string): string => `test:${name}:${crypto.randomUUID()}`

/** How long after its `resetAt` a store may still count a window that ended (its clock may lag ours a little). */
const END_SLACK = 150

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Asserts `resetAt` is a Date about `windowSeconds` after a hit made between `before` and `after`. */
function assertWindowEnd(answer: RateLimitCount, windowSeconds: number, before: number, after: number): void {
  assert.ok(answer.resetAt instanceof Date, `resetAt is a Date (got ${String(answer.resetAt)})`)
  const end = answer.resetAt.getTime()
  assert.ok(
    end >= before + windowSeconds * 1000 - CLOCK_SLACK && end <= after + windowSeconds * 1000 + CLOCK_SLACK,
    `resetAt ${answer.resetAt.toISOString()} is ${String(windowSeconds)} s after the hit`,
  )
}

/** Hits `key` once and answers the count, checking that its window runs on and ends within `windowSeconds`. */
async function hit(store: RateLimitStore, key: string, windowSeconds = WINDOW): Promise<RateLimitCount> {
  const before = Date.now()
  const answer = await store.hit(key, windowSeconds)
  assert.ok(answer.resetAt instanceof Date, `resetAt is a Date (got ${String(answer.resetAt)})`)
  const end = answer.resetAt.getTime()
  assert.ok(end > before - CLOCK_SLACK && end <= Date.now() + windowSeconds * 1000 + CLOCK_SLACK, `resetAt ${answer.resetAt.toISOString()} is within the window`)
  return answer
}

/** The window, in seconds, of a case that waits for its end: short on a server's clock, which cannot be moved. */
function endingWindow(clock: RateLimitStoreClock): number {
  return clock === "process" ? 1 : scaled(250) / 1000
}

/**
 * Gets past the end of `key`'s window, which the store answered as `resetAt`: on this process's
 * clock by moving it there (vitest's fake `Date`, undone by {@link restoreClock}); on a server's by
 * waiting until then and polling `peek` until the count is gone, failing once `resetAt` is
 * {@link END_SLACK} behind (the last peek is sent after that, as a fixed wait would have).
 */
async function pastWindow(store: RateLimitStore, key: string, resetAt: Date, clock: RateLimitStoreClock): Promise<void> {
  if (clock === "process") {
    if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(resetAt.getTime() + END_SLACK)
    return
  }
  await sleep(Math.max(0, resetAt.getTime() - Date.now()))
  const deadline = resetAt.getTime() + END_SLACK
  for (;;) {
    const late = Date.now() > deadline
    if ((await store.peek(key)).count === 0) return
    if (late) throw new assert.AssertionError({ message: `the window of ${key} had not ended ${String(END_SLACK)} ms after its resetAt ${resetAt.toISOString()}` })
    await sleep(10)
  }
}

/** Puts back the real `Date` once a case that moved it is done. */
function restoreClock(clock: RateLimitStoreClock): void {
  if (clock === "process") vi.useRealTimers()
}

/** The cases, in the order they run. */
export const rateLimitStoreCases: readonly RateLimitStoreCase[] = [
  {
    name: "counts the hits on a key, one window for all of them",
    async run(store) {
      const key = newKey("count")
      const before = Date.now()
      const first = await hit(store, key)
      assertWindowEnd(first, WINDOW, before, Date.now())
      const second = await hit(store, key)
      const third = await hit(store, key)
      assert.deepEqual([first.count, second.count, third.count], [1, 2, 3])
      // The window is the first hit's: later hits do not push it back.
      for (const later of [second, third]) {
        assert.ok(Math.abs(later.resetAt.getTime() - first.resetAt.getTime()) <= 50, "later hits answer the first hit's window end")
      }
    },
  },
  {
    name: "keeps each key's count apart",
    async run(store) {
      const [a, b] = [newKey("apart"), newKey("apart")]
      await hit(store, a)
      await hit(store, a)
      assert.equal((await hit(store, b)).count, 1)
      assert.equal((await store.peek(a)).count, 2)
    },
  },
  {
    name: "starts again at 1 once the window ended",
    async run(store, clock = "server") {
      const key = newKey("window")
      const window = endingWindow(clock)
      try {
        await hit(store, key, window)
        const ended = await hit(store, key, window)
        assert.equal(ended.count, 2)
        await pastWindow(store, key, ended.resetAt, clock)
        const before = Date.now()
        const next = await store.hit(key, window)
        assert.equal(next.count, 1, "the first hit of a new window counts 1")
        assertWindowEnd(next, window, before, Date.now())
        assert.equal((await store.hit(key, window)).count, 2)
      } finally {
        restoreClock(clock)
      }
    },
  },
  {
    name: "peek answers the count without adding to it",
    async run(store) {
      const key = newKey("peek")
      const none = await store.peek(key)
      assert.equal(none.count, 0, "an unknown key counts 0")
      assert.ok(none.resetAt instanceof Date, "resetAt is a Date for an unknown key too")
      await hit(store, key)
      const second = await hit(store, key)
      const peeked = await store.peek(key)
      assert.equal(peeked.count, 2)
      assert.ok(Math.abs(peeked.resetAt.getTime() - second.resetAt.getTime()) <= 50, "peek answers the window's end")
      assert.equal((await store.peek(key)).count, 2, "a second peek adds nothing either")
      assert.equal((await hit(store, key)).count, 3)
    },
  },
  {
    name: "peek answers 0 once the window ended",
    async run(store, clock = "server") {
      const key = newKey("peek-ended")
      try {
        const { resetAt } = await hit(store, key, endingWindow(clock))
        await pastWindow(store, key, resetAt, clock)
        assert.equal((await store.peek(key)).count, 0)
      } finally {
        restoreClock(clock)
      }
    },
  },
  {
    name: "reset forgets the key, and only that key",
    async run(store) {
      const [key, other] = [newKey("reset"), newKey("reset")]
      await hit(store, key)
      await hit(store, key)
      await hit(store, other)
      await store.reset(key)
      assert.equal((await store.peek(key)).count, 0)
      assert.equal((await hit(store, key)).count, 1, "the next hit starts a new count")
      assert.equal((await store.peek(other)).count, 1)
      await store.reset(newKey("reset-unknown"))
    },
  },
  {
    name: `gives ${String(CONCURRENT_HITS)} concurrent hits on one key the counts 1 to ${String(CONCURRENT_HITS)}, each once`,
    async run(store) {
      const key = newKey("concurrent")
      const answers = await Promise.all(Array.from({ length: CONCURRENT_HITS }, () => store.hit(key, WINDOW)))
      const counts = answers.map((answer) => answer.count).sort((a, b) => a - b)
      assert.deepEqual(counts, Array.from({ length: CONCURRENT_HITS }, (_, i) => i + 1))
      assert.equal((await store.peek(key)).count, CONCURRENT_HITS)
      const ends = answers.map((answer) => answer.resetAt.getTime())
      assert.ok(Math.max(...ends) - Math.min(...ends) <= 50, "every concurrent hit answers the same window")
    },
  },
  {
    name: "takes long keys and any characters, each key still its own",
    async run(store) {
      const long = newKey("long") + "x".repeat(10_000)
      const keys = [long, `${long}y`, `${long}z`, newKey("odd") + " \u0000 é ✓ \r\n #sha256:", "#sha256:" + newKey("hash-like")]
      for (const key of keys) assert.equal((await hit(store, key)).count, 1, `a first hit on a key of ${String(key.length)} characters`)
      for (const key of keys) assert.equal((await hit(store, key)).count, 2)
      for (const key of keys) assert.equal((await store.peek(key)).count, 2)
      await store.reset(keys[0] ?? "")
      assert.deepEqual(await Promise.all(keys.map(async (key) => (await store.peek(key)).count)), [0, 2, 2, 2, 2])
    },
  },
]

/** What `runRateLimitStoreTests` runs the contract against. */
export interface RateLimitStoreTestOptions {
  /** The store, or a factory called before each case. */
  store: RateLimitStore | (() => RateLimitStore | Promise<RateLimitStore>)
  /** Whose clock the store's windows run on; `"server"` (wait for a window to end) by default. */
  clock?: RateLimitStoreClock
}

/**
 * Registers the store contract with vitest: a `describe` with an `it` per case. Call it at the
 * top level of a test file.
 *
 * @example
 * ```ts
 * runRateLimitStoreTests({ store: () => postgresRateLimitStore(pool) })
 * runRateLimitStoreTests({ store: () => memoryRateLimitStore(), clock: "process" })
 * ```
 */
export function runRateLimitStoreTests(options: RateLimitStoreTestOptions): void {
  describe("rate-limit store contract", () => {
    for (const testCase of rateLimitStoreCases) {
      it(testCase.name, async () => {
        await testCase.run(typeof options.store === "function" ? await options.store() : options.store, options.clock)
      })
    }
  })
}
