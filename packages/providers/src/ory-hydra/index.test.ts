import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import OryHydra from "./index.js"

testProvider(OryHydra, {
  config: { issuer: "https://my-project.projects.oryapis.com" },
  fixture,
  user: {
    id: "2c7e4a9f-1b3d-4f5a-8c6e-0d2b4f6a8c0e",
    name: "Kenji Watanabe",
    email: "kenji.watanabe@example.com",
    image: "https://cdn.example.com/avatars/kenji.jpg",
  },
})

describe("ory-hydra without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => OryHydra({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(OryHydra())).toMatch(/^set `issuer` or AUTH_ORY_HYDRA_ISSUER \(/)
  })
})
