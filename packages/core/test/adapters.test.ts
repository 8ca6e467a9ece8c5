import { describe, expect, it } from "vitest"
import { isDate, type Adapter, type StrictAdapter } from "../src/adapters.js"

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

// Checked by `tsc` (the package's typecheck): a `@ts-expect-error` that no longer errors fails it.
describe("Adapter and StrictAdapter", () => {
  it("lets the config take deletes and links that answer nothing, as Auth.js's adapters' do, and StrictAdapter refuse them", () => {
    const answersNothing = {
      async deleteUser(_userId: string): Promise<void> {},
      async linkAccount(_account: { userId: string; provider: string; providerAccountId: string; type: "oidc" }): Promise<void> {},
      async deleteSession(_sessionToken: string): Promise<void> {},
    }
    const accepted: Adapter = answersNothing
    // @ts-expect-error StrictAdapter's deletes and links answer the record (or null / undefined), never a bare Promise<void>.
    const refused: StrictAdapter = answersNothing
    expect(refused).toBe(accepted)
  })

  it("keeps every StrictAdapter an Adapter", () => {
    const strict: StrictAdapter = { deleteSession: () => null, getUser: () => ({ id: "u1", email: null, emailVerified: null, plan: "pro" }) }
    const accepted: Adapter = strict
    expect(accepted).toBe(strict)
  })
})
