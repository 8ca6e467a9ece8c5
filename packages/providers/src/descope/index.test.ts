import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Descope from "./index.js"

testProvider(Descope, {
  fixture,
  user: {
    id: "U2xK9mPq4Rs7Tv1Wy3Zb5Cd8Ef",
    name: "Ava Thompson",
    email: "ava.thompson@example.com",
    image: "https://lh3.googleusercontent.com/a/ACg8ocJ-example=s96-c",
  },
})

describe("descope issuer", () => {
  it("derives the issuer from the project ID", () => {
    expect(Descope({ clientId: "P2abc123XyZ456" }).issuer).toBe("https://api.descope.com/P2abc123XyZ456")
    expect(Descope({ clientId: "P2abc", issuer: "https://auth.example.com/P2abc" }).issuer).toBe(
      "https://auth.example.com/P2abc",
    )
  })

  it("names the missing `issuer` without a project ID or an issuer, without throwing", () => {
    expect(() => Descope()).not.toThrow()
    expect(incompleteProblem(Descope({ clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_DESCOPE_ISSUER \(/)
  })
})
