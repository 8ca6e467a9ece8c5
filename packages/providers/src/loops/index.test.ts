import { describe, expect, it } from "vitest"
import { testEmailApiProvider } from "../../test/email-api.js"
import fixture from "./fixture.json" with { type: "json" }
import Loops from "./index.js"

testEmailApiProvider(Loops, {
  keyVariable: "AUTH_LOOPS_KEY",
  config: { transactionalId: fixture.transactionalId },
  path: "/api/v1/transactional",
  auth: ["authorization", "Bearer test-api-key"],
  link(body, recipient) {
    expect(body).toMatchObject({ transactionalId: fixture.transactionalId, email: recipient })
    return String((body.dataVariables as { url?: unknown }).url)
  },
  // Echoing the data variables back is what a careless API could do: the link must still not be logged.
  error: { status: 404, body: (request) => ({ ...fixture.error, message: `${fixture.error.message} ${JSON.stringify(request.body)}` }) },
  sendsMail: false,
})

describe("Loops()", () => {
  it("names `transactionalId` when it is missing", () => {
    expect(() => Loops({ apiKey: "k", transactionalId: "" })).toThrow(/set `transactionalId`/)
  })

  it("names `transactionalId` at start when it is left out, as Auth.js's type allows", () => {
    expect(() => Loops({ apiKey: "k" })).toThrow(/set `transactionalId`/)
  })
})
