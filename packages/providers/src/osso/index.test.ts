import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Osso from "./index.js"

testProvider(Osso, {
  config: { issuer: "https://osso.example.com" },
  fixture,
  user: {
    id: "5e1f7a2c-9b3d-4e6f-8a0b-1c2d3e4f5a6b",
    name: null,
    email: "nadia.haddad@enterprise.example",
    image: null,
  },
})

describe("Osso configuration", () => {
  it("names the missing issuer", () => {
    expect(() => Osso({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Osso({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_OSSO_ISSUER \(/)
  })
})
