import { describe, expect, it } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import Resend from "./index.js"

testEmailApiProvider(Resend, {
  keyVariable: "AUTH_RESEND_KEY",
  config: { from: fixture.from },
  path: "/emails",
  auth: ["authorization", "Bearer test-api-key"],
  link(body, recipient) {
    expect(body).toMatchObject({ from: fixture.from, to: recipient, subject: "Sign in to localhost:3000" })
    expect(body.html).toContain("Sign in")
    return /http\S+/.exec(String(body.text))?.[0] ?? ""
  },
  error: { status: 403, body: () => fixture.error },
})

describe("Resend()", () => {
  it("names `from` when it is missing", () => {
    expect(() => Resend({ apiKey: "k", from: "" })).toThrow(/set `from`/)
    expect(() => Resend({ apiKey: "k" })).toThrow(/set `from`/)
  })
})
