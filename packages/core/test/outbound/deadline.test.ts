import { describe, expect, it } from "vitest"
import { requestTimeout, withDeadline, withRequestTimeout } from "../../src/outbound/deadline.js"

describe("deadlines", () => {
  it("a request timeout aborts with a TimeoutError after its time, or with the reason of the first parent to abort", async () => {
    const timedOut = requestTimeout(20)
    await new Promise((resolve) => {
      timedOut.signal.addEventListener("abort", resolve, { once: true })
    })
    expect([timedOut.signal.aborted, (timedOut.signal.reason as DOMException).name]).toEqual([true, "TimeoutError"])
    const deadline = new AbortController()
    const other = new AbortController()
    const linked = requestTimeout(10_000, deadline.signal, undefined, other.signal)
    other.abort(new Error("the hook gave up"))
    expect((linked.signal.reason as Error).message).toBe("the hook gave up")
    deadline.abort(new Error("too late"))
    expect((linked.signal.reason as Error).message).toBe("the hook gave up")
    expect(requestTimeout(10_000, other.signal).signal.reason).toBe(other.signal.reason)
  })

  it("a cleared request timeout never aborts, not even when its parent does later", async () => {
    const deadline = new AbortController()
    const timeout = requestTimeout(20, deadline.signal)
    timeout.clear()
    deadline.abort(new Error("later"))
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(timeout.signal.aborted).toBe(false)
    await expect(withRequestTimeout(1_000, undefined, (signal) => Promise.resolve(signal.aborted))).resolves.toBe(false)
  })

  it("rejects with the deadline's error even when the work ignores its signal", async () => {
    const expired = new Error("too slow")
    await expect(withDeadline(20, expired, () => new Promise(() => undefined))).rejects.toBe(expired)
    await expect(withDeadline(1000, expired, () => Promise.resolve("fast"))).resolves.toBe("fast")
  })
})
