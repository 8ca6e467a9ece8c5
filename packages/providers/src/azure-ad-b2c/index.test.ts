import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import AzureADB2C from "./index.js"

const issuer = "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"
const wellKnown =
  "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration"

testProvider(AzureADB2C, {
  config: { issuer, wellKnown },
  fixture,
  user: {
    id: "4b1c2d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
    name: "Sofia Lindqvist",
    email: "sofia.lindqvist@example.se",
    image: null,
  },
})

describe("Azure AD B2C configuration", () => {
  it("names the missing issuer", () => {
    expect(() => AzureADB2C({ clientId: "id", wellKnown })).not.toThrow()
    expect(incompleteProblem(AzureADB2C({ clientId: "id", wellKnown }))).toMatch(/^set `issuer` or AUTH_AZURE_AD_B2C_ISSUER \(/)
  })

  it("names the missing user flow metadata URL, and both when both are missing", () => {
    expect(incompleteProblem(AzureADB2C({ clientId: "id", issuer }))).toMatch(/^set `wellKnown` \(/)
    expect(incompleteProblem(AzureADB2C({ clientId: "id" }))).toMatch(/^set `issuer` or AUTH_AZURE_AD_B2C_ISSUER \(.*\); set `wellKnown` \(/)
    expect(incompleteProblem(AzureADB2C({ clientId: "id", issuer, wellKnown }))).toBeUndefined()
  })

  it("asks for an access token to the app itself", () => {
    const authorization = AzureADB2C({ clientId: "90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6", issuer, wellKnown }).authorization
    expect(typeof authorization === "object" ? authorization.params?.scope : undefined).toBe(
      "openid offline_access 90c0fe63-bcf2-44d5-8fb7-b8bbc0b29dc6",
    )
  })
})
