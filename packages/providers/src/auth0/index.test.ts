import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Auth0 from "./index.js"

testProvider(Auth0, {
  config: { issuer: "https://dev-abc123.us.auth0.com" },
  fixture,
  user: {
    id: "auth0|6633d5b1f0a4e29c7b8d1e52",
    name: "Priya Raman",
    email: "priya.raman@example.com",
    image:
      "https://s.gravatar.com/avatar/5f1c0e7a9d3b42c8e6a1f0b7d2c94e38?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fpr.png",
  },
})

describe("auth0 without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Auth0({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Auth0())).toMatch(/^set `issuer` or AUTH_AUTH0_ISSUER \(/)
  })
})
