import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import PingId from "./index.js"

testProvider(PingId, {
  config: { issuer: "https://auth.pingone.com/3c8f2d1a-6b4e-4f9a-8c7d-0e1b2a3c4d5e/as" },
  fixture,
  user: {
    id: "9d4f1b2c-3a5e-4c7d-8e9f-0a1b2c3d4e5f",
    name: "Grace Adeyemi",
    email: "grace.adeyemi@example.com",
    image: null,
  },
})

describe("ping-id without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => PingId({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(PingId())).toMatch(/^set `issuer` or AUTH_PING_ID_ISSUER \(/)
  })
})
