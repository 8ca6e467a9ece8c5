import { afterEach, describe, expect, it, vi } from "vitest"
import { anySignal, withDeadline } from "../src/deadline.js"

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("deadlines", () => {
  it("combines signals by hand where the runtime has no AbortSignal.any (Next.js's edge sandbox)", () => {
    vi.stubGlobal("AbortSignal", Object.assign(Object.create(AbortSignal) as typeof AbortSignal, { any: undefined, timeout: AbortSignal.timeout.bind(AbortSignal) }))
    const a = new AbortController()
    const b = new AbortController()
    const combined = anySignal([a.signal, b.signal])
    expect(combined.aborted).toBe(false)
    b.abort(new Error("second"))
    expect(combined.aborted).toBe(true)
    expect((combined.reason as Error).message).toBe("second")
    const early = new AbortController()
    early.abort("done")
    expect(anySignal([early.signal, a.signal]).reason).toBe("done")
  })

  it("rejects with the deadline's error even when the work ignores its signal", async () => {
    const expired = new Error("too slow")
    await expect(withDeadline(20, expired, () => new Promise(() => undefined))).rejects.toBe(expired)
    await expect(withDeadline(1000, expired, () => Promise.resolve("fast"))).resolves.toBe("fast")
  })
})
