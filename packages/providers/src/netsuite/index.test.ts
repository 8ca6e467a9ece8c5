import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import NetSuite from "./index.js"

testProvider(NetSuite, {
  config: { issuer: "https://1234567.suitetalk.api.netsuite.com" },
  fixture,
  user: {
    id: "4172913",
    name: "Maya Goldberg",
    email: "maya.goldberg@example.com",
    image: null,
  },
})

describe("NetSuite configuration", () => {
  it("names the missing issuer", () => {
    expect(() => NetSuite({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(NetSuite({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_NETSUITE_ISSUER \(/)
  })
})
