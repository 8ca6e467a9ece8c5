import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import FusionAuth from "./index.js"

const base = {
  config: { issuer: "https://auth.example.com" },
  fixture,
  user: {
    id: "2ec8c1f7-8d0a-4a4e-9e4b-3c7e5f1a2b9d",
    name: "Rafael Souza",
    email: "rafael.souza@example.com",
    image: "https://www.gravatar.com/avatar/2c9f1d7e3a8b4f6c0e5d1a9b7c3e8f2a?d=mp",
  },
}

testProvider(FusionAuth, base)

describe("FusionAuth configuration", () => {
  it("names the missing issuer", () => {
    expect(() => FusionAuth({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(FusionAuth({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_FUSIONAUTH_ISSUER \(/)
  })
})

// Auth.js's `FusionAuth({ tenantId })` picks one tenant of a shared instance, in discovery and in the authorization request.
testProvider(FusionAuth, {
  ...base,
  title: "tenantId",
  config: { issuer: "https://auth.example.com", tenantId: "3d7e9a1c-5b2f-4e8d-a6c0-1f9b8e7d6c5a" },
  authorizationParams: { tenantId: "3d7e9a1c-5b2f-4e8d-a6c0-1f9b8e7d6c5a" },
})

describe("FusionAuth tenantId", () => {
  it("reads the tenant's own metadata", () => {
    const provider = FusionAuth({ issuer: "https://auth.example.com/", tenantId: "3d7e9a1c" })
    expect(provider.wellKnown).toBe("https://auth.example.com/.well-known/openid-configuration?tenantId=3d7e9a1c")
    expect(provider).not.toHaveProperty("tenantId")
  })
})
