import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Passage from "./index.js"

testProvider(Passage, {
  config: { issuer: "https://auth.passage.id/v1/apps/Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1" },
  fixture,
  user: {
    id: "aB3cD4eF5gH6iJ7kL8mN9oP0",
    name: null,
    email: "olivia.brown@example.com",
    image: null,
  },
})

describe("passage without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Passage({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Passage())).toMatch(/^set `issuer` or AUTH_PASSAGE_ISSUER \(/)
  })
})
