import { Configuration } from "@portcullis/core/errors"
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
  it("throws a Configuration error naming `issuer`", () => {
    expect(() => OneLogin({ clientId: "id", clientSecret: "secret" })).toThrow(Configuration)
    expect(() => OneLogin()).toThrow(/needs `issuer` \(or AUTH_ONELOGIN_ISSUER\)/)
  })
})
