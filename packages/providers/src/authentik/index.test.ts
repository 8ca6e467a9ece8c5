import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Authentik from "./index.js"

testProvider(Authentik, {
  config: { issuer: "https://authentik.example.com/application/o/my-app/" },
  fixture,
  user: {
    id: "3f6c1e9a7b2d4c8e0f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e",
    name: "Sam Okafor",
    email: "sam.okafor@example.com",
    image: null,
  },
})

describe("authentik without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Authentik({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Authentik())).toMatch(/^set `issuer` or AUTH_AUTHENTIK_ISSUER \(/)
  })

  it("derives the discovery URL without a doubled slash", () => {
    const provider = Authentik({ issuer: "https://authentik.example.com/application/o/my-app/" })
    expect(provider.wellKnown).toBe("https://authentik.example.com/application/o/my-app/.well-known/openid-configuration")
  })
})
