import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Logto from "./index.js"

testProvider(Logto, {
  config: { issuer: "https://k7m2p9.logto.app/oidc" },
  fixture,
  user: {
    id: "u8kq2m4x7z1c",
    name: "Elena Petrova",
    email: "elena.petrova@example.com",
    image: "https://avatars.githubusercontent.com/u/48291736",
  },
})

describe("Logto configuration", () => {
  it("names the missing issuer", () => {
    expect(() => Logto({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Logto({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_LOGTO_ISSUER \(/)
  })
})
