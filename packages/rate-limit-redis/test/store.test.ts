// redisRateLimitStore: the shared store contract on a real redis-server through node-redis, ioredis
// and a plain send function; then what is particular to Redis (prefix, expiry, bounded keys,
// failures as typed errors).
import { CONCURRENT_HITS, runRateLimitStoreTests } from "@portcullis/adapter-test"
import { AdapterError } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { RedisRateLimitStoreError, redisRateLimitStore } from "../src/index.js"
import { useIoRedis, useNodeRedis } from "./clients.js"

const nodeRedis = useNodeRedis()
const ioRedis = useIoRedis()

describe("on a node-redis client", () => {
  runRateLimitStoreTests({ store: () => redisRateLimitStore(nodeRedis(), { prefix: "test:node-redis:" }) })
})

describe("on an ioredis client", () => {
  runRateLimitStoreTests({ store: () => redisRateLimitStore(ioRedis(), { prefix: "test:ioredis:" }) })
})

describe("on a function that sends a command", () => {
  runRateLimitStoreTests({ store: () => redisRateLimitStore((command) => ioRedis().call(...(command as [string, ...string[]])), { prefix: "test:send:" }) })
})

describe("redisRateLimitStore", () => {
  it(`gives ${String(CONCURRENT_HITS)} hits split over both clients (two instances) the counts 1 to ${String(CONCURRENT_HITS)}, each once`, async () => {
    const [first, second] = [redisRateLimitStore(nodeRedis(), { prefix: "test:both:" }), redisRateLimitStore(ioRedis(), { prefix: "test:both:" })]
    const key = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: CONCURRENT_HITS }, (_, i) => (i % 2 === 0 ? first : second).hit(key, 900)))
    expect(answers.map((answer) => answer.count).sort((a, b) => a - b)).toEqual(Array.from({ length: CONCURRENT_HITS }, (_, i) => i + 1))
  })

  it("keeps its counters under the prefix, each expiring with its window", async () => {
    const key = `mail:${crypto.randomUUID()}`
    await redisRateLimitStore(ioRedis(), { prefix: "myapp:limits:" }).hit(key, 90)
    const left = await ioRedis().pttl(`myapp:limits:${key}`)
    expect(left).toBeGreaterThan(89_000)
    expect(left).toBeLessThanOrEqual(90_000)
    expect(await ioRedis().get(`myapp:limits:${key}`)).toBe("1")
    await redisRateLimitStore(ioRedis()).hit(key, 90)
    expect(await ioRedis().get(`portcullis:rate-limit:${key}`), "the default prefix").toBe("1")
  })

  it("stores a long key as its hash, so each key stays small", async () => {
    const prefix = `test:long:${crypto.randomUUID()}:`
    await redisRateLimitStore(ioRedis(), { prefix }).hit(`client:${"9".repeat(5_000)}`, 60)
    const keys = await ioRedis().keys(`${prefix}*`)
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(new RegExp(`^${prefix}#sha256:[\\w-]{43}$`))
  })

  it("refuses a window that is not a positive number of seconds", async () => {
    const store = redisRateLimitStore(ioRedis())
    for (const window of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) await expect(store.hit("bad-window", window)).rejects.toBeInstanceOf(RangeError)
  })

  it("refuses what is no client", () => {
    expect(() => redisRateLimitStore({} as never)).toThrow(TypeError)
  })

  it("throws a RedisRateLimitStoreError (an AdapterError) with the client's error as the cause when Redis fails", async () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:1")
    const store = redisRateLimitStore(() => Promise.reject(refused))
    for (const call of [store.hit("k", 60), store.peek("k"), store.reset("k")]) {
      await expect(call).rejects.toBeInstanceOf(RedisRateLimitStoreError)
      await expect(call).rejects.toBeInstanceOf(AdapterError)
      await expect(call).rejects.toMatchObject({ code: "AdapterError", cause: refused, message: /ECONNREFUSED/ })
    }
  })

  it("throws a RedisRateLimitStoreError when a reply is not a count", async () => {
    for (const reply of ["OK", null, [1], ["x", 5], { count: 1 }, [1n << 64n, 5n]]) {
      await expect(redisRateLimitStore(() => Promise.resolve(reply)).hit("k", 60)).rejects.toBeInstanceOf(RedisRateLimitStoreError)
    }
  })
})
