import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Okta from "./index.js"

testProvider(Okta, {
  config: { issuer: "https://dev-2148561.okta.com/oauth2/default" },
  fixture,
  user: {
    id: "00u1a2b3c4D5e6F7g8h9",
    name: "Jordan Reyes",
    email: "jordan.reyes@example.com",
    image: null,
  },
})

describe("Okta configuration", () => {
  it("names the missing issuer", () => {
    expect(() => Okta({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Okta({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_OKTA_ISSUER \(/)
  })
})
