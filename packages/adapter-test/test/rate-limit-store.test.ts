// The rate-limit store contract: core's memory store keeps it, and each broken store below fails
// the cases named for its defect, so every case can fail.
import assert from "node:assert/strict"
import { memoryRateLimitStore, type RateLimitCount, type RateLimitStore } from "@portcullis/core"
import { describe, expect, it } from "vitest"
import { rateLimitStoreCases, runRateLimitStoreTests } from "../src/index.js"

// The memory store reads this process's clock: the cases move it rather than wait a window out.
describe("core's memory store, a new one for each case", () => {
  runRateLimitStoreTests({ store: () => memoryRateLimitStore(), clock: "process" })
})

describe("core's memory store, one for every case", () => {
  runRateLimitStoreTests({ store: memoryRateLimitStore(), clock: "process" })
})

/** A store that reads, waits a turn, then writes: concurrent hits see the same count. */
function readThenWriteStore(): RateLimitStore {
  const counters = new Map<string, { count: number; resetAt: number }>()
  const live = (key: string) => {
    const counter = counters.get(key)
    return counter !== undefined && counter.resetAt > Date.now() ? counter : undefined
  }
  return {
    async hit(key, windowSeconds) {
      const count = live(key)?.count ?? 0
      const resetAt = live(key)?.resetAt ?? Date.now() + windowSeconds * 1000
      await new Promise((resolve) => setImmediate(resolve))
      counters.set(key, { count: count + 1, resetAt })
      return { count: count + 1, resetAt: new Date(resetAt) }
    },
    peek(key) {
      const counter = live(key)
      return Promise.resolve({ count: counter?.count ?? 0, resetAt: new Date(counter?.resetAt ?? Date.now()) })
    },
    reset(key) {
      counters.delete(key)
      return Promise.resolve()
    },
  }
}

interface Defect {
  defect: string
  store: () => RateLimitStore
  caughtBy: string[]
}

const caseName = (start: string): string => {
  const found = rateLimitStoreCases.find((testCase) => testCase.name.startsWith(start))
  if (found === undefined) throw new Error(`no case starts with "${start}"`)
  return found.name
}

const defects: Defect[] = [
  {
    defect: "peek adds a hit",
    store: () => {
      const store = memoryRateLimitStore()
      return { ...store, peek: (key) => store.hit(key, 600) }
    },
    caughtBy: [caseName("peek answers the count")],
  },
  {
    defect: "windows never end",
    store: () => {
      const store = memoryRateLimitStore()
      return { ...store, hit: (key) => store.hit(key, 3600) }
    },
    caughtBy: [caseName("starts again at 1"), caseName("peek answers 0")],
  },
  {
    defect: "peek still counts an ended window",
    store: () => {
      const store = memoryRateLimitStore()
      const last = new Map<string, RateLimitCount>()
      return {
        ...store,
        hit: async (key, windowSeconds) => {
          const answer = await store.hit(key, windowSeconds)
          last.set(key, answer)
          return answer
        },
        peek: async (key) => last.get(key) ?? (await store.peek(key)),
      }
    },
    caughtBy: [caseName("peek answers 0")],
  },
  {
    defect: "takes the window in milliseconds",
    store: () => {
      const store = memoryRateLimitStore()
      return { ...store, hit: (key, windowSeconds) => store.hit(key, windowSeconds / 1000) }
    },
    caughtBy: [caseName("counts the hits")],
  },
  {
    defect: "reset forgets nothing",
    store: () => ({ ...memoryRateLimitStore(), reset: () => Promise.resolve() }),
    caughtBy: [caseName("reset forgets")],
  },
  {
    defect: "counts every key together",
    store: () => {
      const store = memoryRateLimitStore()
      return { hit: (_key, windowSeconds) => store.hit("one", windowSeconds), peek: () => store.peek("one"), reset: () => store.reset("one") }
    },
    caughtBy: [caseName("keeps each key's count apart")],
  },
  {
    defect: "cuts long keys short",
    store: () => {
      const store = memoryRateLimitStore()
      const cut = (key: string) => key.slice(0, 200)
      return { hit: (key, windowSeconds) => store.hit(cut(key), windowSeconds), peek: (key) => store.peek(cut(key)), reset: (key) => store.reset(cut(key)) }
    },
    caughtBy: [caseName("takes long keys")],
  },
  {
    defect: "reads, then writes, in two steps",
    store: readThenWriteStore,
    caughtBy: [caseName("gives 200 concurrent hits")],
  },
]

describe("the store contract catches a store whose", () => {
  it.each(defects)("$defect", async ({ store, caughtBy }) => {
    // Only the cases named: the others may pass or fail. Both ways past a window's end must catch the defect.
    for (const testCase of rateLimitStoreCases.filter(({ name }) => caughtBy.includes(name))) {
      for (const clock of ["process", "server"] as const) {
        const error = await testCase.run(store(), clock).then(() => undefined, (caught: unknown) => caught)
        expect(error, `${testCase.name} (${clock} clock)`).toBeInstanceOf(assert.AssertionError)
      }
    }
  })

  it("and every case catches at least one of them", () => {
    const caught = new Set(defects.flatMap((defect) => defect.caughtBy))
    expect(rateLimitStoreCases.map((testCase) => testCase.name).filter((name) => !caught.has(name))).toEqual([])
  })
})
