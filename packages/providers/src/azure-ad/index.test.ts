import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import AzureAD from "./index.js"

testProvider(AzureAD, {
  config: { issuer: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0" },
  fixture,
  user: {
    id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    name: "Morgan Lindqvist",
    email: "morgan.lindqvist@contoso.com",
    image: null,
  },
})

describe("azure-ad without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => AzureAD({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(AzureAD())).toMatch(/^set `issuer` or AUTH_AZURE_AD_ISSUER \(/)
  })
})
