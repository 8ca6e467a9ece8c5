import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import BeyondIdentity from "./index.js"

testProvider(BeyondIdentity, {
  config: { issuer: "https://auth-us.beyondidentity.com/v1/tenants/00012a3b4c5d6e7f/realms/9a8b7c6d5e4f3a2b/applications/1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f" },
  fixture,
  user: {
    id: "d4c3b2a1-0f9e-4d8c-b7a6-5f4e3d2c1b0a",
    name: "Lena Fischer",
    email: "lena.fischer@example.com",
    image: null,
  },
})

describe("beyondidentity without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => BeyondIdentity({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(BeyondIdentity())).toMatch(/^set `issuer` or AUTH_BEYONDIDENTITY_ISSUER \(/)
  })
})
