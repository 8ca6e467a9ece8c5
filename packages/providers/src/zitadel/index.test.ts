import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Zitadel from "./index.js"

testProvider(Zitadel, {
  config: { issuer: "https://acme-a1b2c3.zitadel.cloud" },
  fixture,
  user: {
    id: "284712400000000000",
    name: "Hannah Becker",
    email: "hannah.becker@example.com",
    image: "https://acme-a1b2c3.zitadel.cloud/assets/v1/284712380000000000/users/284712400000000000/avatar?v=1",
  },
})

describe("zitadel without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Zitadel({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Zitadel())).toMatch(/^set `issuer` or AUTH_ZITADEL_ISSUER \(/)
  })
})
