import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Nextcloud from "./index.js"

testProvider(Nextcloud, {
  config: { issuer: "https://cloud.example.com" },
  fixture,
  user: { id: "amara", name: "Amara Nwosu", email: "amara.nwosu@example.com", image: null },
})

describe("nextcloud without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Nextcloud({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Nextcloud())).toMatch(/^set `issuer` or AUTH_NEXTCLOUD_ISSUER \(/)
  })
})
