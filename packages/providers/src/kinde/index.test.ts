import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Kinde from "./index.js"

testProvider(Kinde, {
  config: { issuer: "https://acme.kinde.com" },
  fixture,
  user: {
    id: "kp_4e1c9b2a7f3d4e8a9b0c1d2e3f4a5b6c",
    name: "Mei Chen",
    email: "mei.chen@example.com",
    image: "https://lh3.googleusercontent.com/a/ACg8ocK9x2Ym7QwE4rT1uI0oP5aS8dF3gH6jK9lZ2xC=s96-c",
  },
})

describe("Kinde configuration", () => {
  it("names the missing issuer", () => {
    expect(() => Kinde({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Kinde({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_KINDE_ISSUER \(/)
  })
})
