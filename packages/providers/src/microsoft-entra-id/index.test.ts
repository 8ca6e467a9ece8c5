import { incompleteProblem } from "@portcullis/core/providers"
import { afterEach, describe, expect, it, vi } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import MicrosoftEntraID from "./index.js"

testProvider(MicrosoftEntraID, {
  config: { issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0" },
  fixture,
  user: {
    id: "MF4f-ggWMEji12KynJUNQZphaUTvLcQug5jdF2nl01Q",
    name: "Kwame Mensah",
    email: "kwame.mensah@contoso.com",
    image: null,
  },
})

describe("Microsoft Entra ID configuration", () => {
  it("names the missing issuer", () => {
    expect(() => MicrosoftEntraID({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(MicrosoftEntraID({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_MICROSOFT_ENTRA_ID_ISSUER \(/)
  })
})

describe("MicrosoftEntraID profilePhotoSize", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("asks for User.Read and puts the Graph photo at that size in the user's image", async () => {
    vi.stubGlobal("fetch", (url: string) => Promise.resolve(new Response(url.includes("/96x96/") ? new Uint8Array([0xff, 0xd8, 0xff]) : null, { headers: { "content-type": "image/jpeg" } })))
    const provider = MicrosoftEntraID({ issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", profilePhotoSize: 96 })
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email User.Read" } })
    expect((await provider.profile?.({ ...fixture, sub: "s" }, { access_token: "t" }))?.image).toBe("data:image/jpeg;base64,/9j/")
    expect(provider).not.toHaveProperty("profilePhotoSize")
  })

  it("refuses a size Graph does not keep at start, naming the option", () => {
    expect(() => MicrosoftEntraID({ issuer: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", profilePhotoSize: 100 as never })).toThrow(/`profilePhotoSize`/)
  })
})
