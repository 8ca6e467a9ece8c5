import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Cognito from "./index.js"

testProvider(Cognito, {
  config: { issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC123xYz" },
  fixture,
  user: {
    id: "94a8c4d8-70a1-70c5-2f3b-9d1e6c7a8b90",
    name: "Maya Chen",
    email: "maya.chen@example.com",
    image: null,
  },
})

describe("cognito without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Cognito({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Cognito())).toMatch(/^set `issuer` or AUTH_COGNITO_ISSUER \(/)
  })
})
