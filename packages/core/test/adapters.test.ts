import { describe, expect, it } from "vitest"
import { isDate } from "../src/adapters.js"

describe("isDate", () => {
  it("accepts the ISO date-times Dates become in JSON, with or without milliseconds and with an offset", () => {
    for (const value of [
      new Date(0).toJSON(),
      "2024-02-29T12:34:56Z",
      "2024-02-29T12:34Z",
      "2024-02-29T12:34:56.789+02:00",
      (JSON.parse(JSON.stringify({ at: new Date() })) as { at: string }).at,
    ]) {
      expect(isDate(value), value).toBe(true)
    }
  })

  it("refuses what is not a date-time string", () => {
    for (const value of [null, undefined, 0, Date.now(), new Date(), "", "2024-02-29", "yesterday", "2024-13-45T99:99:99Z", "x2024-02-29T12:34:56Z"]) {
      expect(isDate(value), String(value)).toBe(false)
    }
  })
})
