import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import FusionAuth from "./index.js"

testProvider(FusionAuth, {
  config: { issuer: "https://auth.example.com" },
  fixture,
  user: {
    id: "2ec8c1f7-8d0a-4a4e-9e4b-3c7e5f1a2b9d",
    name: "Rafael Souza",
    email: "rafael.souza@example.com",
    image: "https://www.gravatar.com/avatar/2c9f1d7e3a8b4f6c0e5d1a9b7c3e8f2a?d=mp",
  },
})

describe("FusionAuth configuration", () => {
  it("names the missing issuer", () => {
    expect(() => FusionAuth({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(FusionAuth({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_FUSIONAUTH_ISSUER \(/)
  })
})
