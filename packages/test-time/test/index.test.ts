import { describe, expect, it } from "vitest"

import { decideTimeScale, scaled, scaledTimeouts, timeScale, TIME_SCALE_VARIABLE } from "../src/index.js"

describe("decideTimeScale", () => {
  it("is 1 on an idle machine outside CI", () => {
    expect(decideTimeScale({ env: {}, load: 0.3, cores: 2 })).toBe(1)
  })

  it("is at least 2 under CI", () => {
    expect(decideTimeScale({ env: { CI: "true" }, load: 0, cores: 2 })).toBe(2)
    expect(decideTimeScale({ env: { CI: "1" }, load: 0, cores: 8 })).toBe(2)
    expect(decideTimeScale({ env: { CI: "false" }, load: 0, cores: 2 })).toBe(1)
    expect(decideTimeScale({ env: { CI: "0" }, load: 0, cores: 2 })).toBe(1)
  })

  it("grows with the load per core when the machine is busy at start, up to 4", () => {
    expect(decideTimeScale({ env: {}, load: 1, cores: 2 })).toBe(1.5)
    expect(decideTimeScale({ env: {}, load: 4, cores: 2 })).toBe(3)
    expect(decideTimeScale({ env: { CI: "true" }, load: 4, cores: 2 })).toBe(3)
    expect(decideTimeScale({ env: {}, load: 40, cores: 2 })).toBe(4)
  })

  it("takes PORTCULLIS_TEST_TIME_SCALE over CI and load, beyond the automatic maximum too", () => {
    expect(decideTimeScale({ env: { [TIME_SCALE_VARIABLE]: "0.5", CI: "true" }, load: 9, cores: 2 })).toBe(0.5)
    expect(decideTimeScale({ env: { [TIME_SCALE_VARIABLE]: "6" }, load: 0, cores: 2 })).toBe(6)
  })

  it.each(["fast", "0", "-1", "1e9", "NaN"])("refuses PORTCULLIS_TEST_TIME_SCALE=%s, naming the variable", (value) => {
    expect(() => decideTimeScale({ env: { [TIME_SCALE_VARIABLE]: value }, load: 0, cores: 2 })).toThrow(/^PORTCULLIS_TEST_TIME_SCALE must be a number/)
  })
})

describe("in this process", () => {
  it("uses one factor everywhere and hands it to the processes it starts", () => {
    const factor = timeScale()
    expect(process.env[TIME_SCALE_VARIABLE]).toBe(String(factor))
    expect(scaled(1_000)).toBe(Math.round(1_000 * factor))
    expect(scaledTimeouts({ testTimeout: 20_000 })).toEqual({ testTimeout: scaled(20_000), hookTimeout: scaled(10_000), expect: { poll: { timeout: scaled(1_000) } } })
  })
})
