import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it, vi } from "vitest"
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

it("takes Auth.js's profilePhotoSize, as Microsoft Entra ID does (Auth.js's Azure AD is its Entra ID)", async () => {
  vi.stubGlobal("fetch", () => Promise.resolve(new Response(null, { status: 404 })))
  try {
    const provider = AzureAD({ issuer: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0", profilePhotoSize: 48 })
    expect(provider.authorization).toMatchObject({ params: { scope: "openid profile email User.Read" } })
    // A user without a photo signs in without one.
    expect((await provider.profile?.({ ...fixture, sub: "s" }, { access_token: "t" }))?.image).toBeNull()
  } finally {
    vi.unstubAllGlobals()
  }
})
