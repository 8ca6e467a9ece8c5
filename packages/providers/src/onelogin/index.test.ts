import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import OneLogin from "./index.js"

testProvider(OneLogin, {
  config: { issuer: "https://acme.onelogin.com/oidc/2" },
  fixture,
  user: { id: "172839405", name: "Leah Goldberg", email: "leah.goldberg@acme.example.com", image: null },
})

describe("onelogin without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => OneLogin({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(OneLogin())).toMatch(/^set `issuer` or AUTH_ONELOGIN_ISSUER \(/)
  })
})
