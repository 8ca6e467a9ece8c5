import { incompleteProblem } from "@portcullis/core/providers"
import { afterEach, describe, expect, it, vi } from "vitest"
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

describe("AzureAD profilePhotoSize", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("reads the photo at that size from Microsoft Graph into the user's image, asking for User.Read", async () => {
    const seen: string[] = []
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      seen.push(`${url} ${new Headers(init.headers).get("authorization") ?? ""}`)
      return Promise.resolve(new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { "content-type": "image/jpeg" } }))
    })
    const provider = AzureAD({ issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", profilePhotoSize: 96 })
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email User.Read" } })
    const user = await provider.profile?.({ ...fixture, sub: "s" }, { access_token: "graph-token" })
    expect(user?.image).toBe("data:image/jpeg;base64,/9j/")
    expect(seen).toEqual(["https://graph.microsoft.com/v1.0/me/photos/96x96/$value Bearer graph-token"])
    expect(provider).not.toHaveProperty("profilePhotoSize")
  })

  it("signs in without a photo when Graph has none", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response(null, { status: 404 })))
    const provider = AzureAD({ issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", profilePhotoSize: 48 })
    expect((await provider.profile?.({ ...fixture, sub: "s" }, { access_token: "t" }))?.image).toBeNull()
  })

  it("refuses a size Graph does not keep at start, naming the option", () => {
    expect(() => AzureAD({ issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", profilePhotoSize: 100 as never })).toThrow(/`profilePhotoSize`/)
  })
})

