import { incompleteProblem } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Mattermost from "./index.js"

testProvider(Mattermost, {
  config: { issuer: "https://chat.example.com" },
  fixture,
  user: { id: "w9kq3x7h1jgr5ndzpbm8ftyc4e", name: "Oliver Brandt", email: "oliver.brandt@example.com", image: null },
})

describe("mattermost without an issuer", () => {
  it("names the missing `issuer` on the configuration it returns, without throwing", () => {
    expect(() => Mattermost({ clientId: "id", clientSecret: "secret" })).not.toThrow()
    expect(incompleteProblem(Mattermost())).toMatch(/^set `issuer` or AUTH_MATTERMOST_ISSUER \(/)
  })
})
