/**
 * No account enumeration by timing (ASVS 6.3.8): with the hash at its full cost, the medians of
 * interleaved sign-ins with a known address and with an unknown one stay within 20 %.
 */
import { describe, expect, it } from "vitest"
import { Jar } from "../helpers.js"
import { passwordApp, signIn, signUpVerified } from "./harness.js"

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

describe("enumeration safety by timing", () => {
  it("keeps the medians of interleaved sign-in timings, known address and unknown, within 20 % (ASVS 6.3.8)", async () => {
    const app = passwordApp({}, { rateLimit: false })
    await signUpVerified(app, "ada@example.com")
    const known: number[] = []
    const unknown: number[] = []
    const time = async (into: number[], email: string) => {
      const started = performance.now()
      await signIn(app, new Jar(), email, "a wrong password, long enough")
      into.push(performance.now() - started)
    }
    // Warm both paths, then interleave, so drift in the machine's load falls on both alike.
    await time([], "ada@example.com")
    await time([], "nobody@example.com")
    for (let round = 0; round < 5; round++) {
      await time(known, "ada@example.com")
      await time(unknown, "nobody@example.com")
    }
    const ratio = median(unknown) / median(known)
    expect(ratio).toBeGreaterThan(0.8)
    expect(ratio).toBeLessThan(1.2)
  })
})
