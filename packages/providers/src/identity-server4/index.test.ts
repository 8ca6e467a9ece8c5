import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import IdentityServer4 from "./index.js"

testProvider(IdentityServer4, {
  config: { issuer: "https://identity.example.com" },
  fixture,
  user: {
    id: "818727",
    name: "Alice Smith",
    email: "alice.smith@example.com",
    image: null,
  },
})

describe("identity-server4 without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => IdentityServer4({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(IdentityServer4())).toMatch(/^set `issuer` or AUTH_IDENTITY_SERVER4_ISSUER \(/)
  })
})
