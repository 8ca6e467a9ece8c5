import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Frontegg from "./index.js"

testProvider(Frontegg, {
  config: { issuer: "https://acme.frontegg.com" },
  fixture,
  user: {
    id: "6b1f0d2e-3c4a-4b5d-8e6f-7a8b9c0d1e2f",
    name: "Noah Williams",
    email: "noah.williams@example.com",
    image: "https://www.gravatar.com/avatar/5f3c1e2d4b6a8c0e9f7d5b3a1c2e4f6a?d=identicon",
  },
})

describe("frontegg without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Frontegg({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Frontegg())).toMatch(/^set `issuer` or AUTH_FRONTEGG_ISSUER \(/)
  })
})
