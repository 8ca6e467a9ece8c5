import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Mastodon from "./index.js"

testProvider(Mastodon, {
  config: { issuer: "https://mastodon.social" },
  fixture,
  user: {
    id: "109302745810246351",
    name: "Sigrid Nygaard",
    email: null,
    image: "https://files.mastodon.social/accounts/avatars/109/302/745/810/246/351/original/3f9c1a7b2e8d4f60.png",
  },
})

describe("Mastodon configuration", () => {
  it("names the missing issuer", () => {
    expect(() => Mastodon({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Mastodon({ clientId: "id", clientSecret: "secret" }))).toMatch(/^set `issuer` or AUTH_MASTODON_ISSUER \(/)
  })

  it("builds the endpoints on the instance, whatever its trailing slash", () => {
    expect(Mastodon({ issuer: "https://fosstodon.org/" }).token).toBe("https://fosstodon.org/oauth/token")
  })
})
