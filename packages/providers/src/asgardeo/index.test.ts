import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Asgardeo from "./index.js"

testProvider(Asgardeo, {
  config: { issuer: "https://api.asgardeo.io/t/acme/oauth2/token" },
  fixture,
  user: {
    id: "8c5f2b1e-3d4a-4f6b-9e7c-1a2b3c4d5e6f",
    name: "Priya Natarajan",
    email: "priya.natarajan@example.com",
    image: "https://avatars.example.com/priya.png",
  },
})

describe("asgardeo without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Asgardeo({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Asgardeo())).toMatch(/^set `issuer` or AUTH_ASGARDEO_ISSUER \(/)
  })
})
