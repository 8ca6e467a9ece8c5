import { Configuration } from "@portcullis/core/errors"
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
  it("throws a Configuration error naming `issuer`", () => {
    expect(() => AzureAD({ clientId: "id", clientSecret: "secret" })).toThrow(Configuration)
    expect(() => AzureAD()).toThrow(/needs `issuer` \(or AUTH_AZURE_AD_ISSUER\)/)
  })
})
