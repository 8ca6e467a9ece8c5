import { Configuration } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Frontegg from "./index.js"

testProvider(Frontegg, {
  config: { issuer: "https://acme.frontegg.com" },
  fixture,
  user: {
    id: "6b1f0d2e-3c4a-4b5d-8e6f-7a8b9c0d1e2f",
    name: "Noah Williams",
    email: "noah.williams@example.com",
    image: "https://www.gravatar.com/avatar/5f3c1e2d4b6a8c0e9f7d5b3a1c2e4f6a?d=identicon",
  },
})

describe("frontegg without an issuer", () => {
  it("throws a Configuration error naming `issuer`", () => {
    expect(() => Frontegg({ clientId: "id", clientSecret: "secret" })).toThrow(Configuration)
    expect(() => Frontegg()).toThrow(/needs `issuer` \(or AUTH_FRONTEGG_ISSUER\)/)
  })
})
