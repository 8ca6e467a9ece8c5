import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import UnitedEffects from "./index.js"

testProvider(UnitedEffects, {
  config: { issuer: "https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3" },
  fixture,
  user: {
    id: "3b9f0e2c-7d41-4a5e-b8c6-1f2a3d4e5b6c",
    name: null,
    email: "diego.martinez@example.com",
    image: null,
  },
})

describe("united-effects without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => UnitedEffects({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(UnitedEffects())).toMatch(/^set `issuer` or AUTH_UNITED_EFFECTS_ISSUER \(/)
  })
})
