import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
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
