import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import BoxyHQSAML from "./index.js"

testProvider(BoxyHQSAML, {
  config: { issuer: "https://jackson.example.com" },
  fixture,
  user: {
    id: "b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0",
    name: "Tomasz Nowak",
    email: "tomasz.nowak@acme-corp.example",
    image: null,
  },
})

describe("boxyhq-saml without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => BoxyHQSAML({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(BoxyHQSAML())).toMatch(/^set `issuer` or AUTH_BOXYHQ_SAML_ISSUER \(/)
  })
})
