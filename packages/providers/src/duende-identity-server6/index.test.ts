import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import DuendeIdentityServer6 from "./index.js"

testProvider(DuendeIdentityServer6, {
  config: { issuer: "https://identity.example.com" },
  fixture,
  user: {
    id: "818727",
    name: "Alice Smith",
    email: "AliceSmith@email.com",
    image: null,
  },
})

describe("Duende IdentityServer 6 configuration", () => {
  it("names the missing issuer", () => {
    expect(() => DuendeIdentityServer6({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(DuendeIdentityServer6({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_DUENDE_IDENTITY_SERVER6_ISSUER \(/)
  })
})
