import { Configuration } from "@portcullis/core/errors"
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
  it("throws a Configuration error naming `issuer`", () => {
    expect(() => Nextcloud({ clientId: "id", clientSecret: "secret" })).toThrow(Configuration)
    expect(() => Nextcloud()).toThrow(/needs `issuer` \(or AUTH_NEXTCLOUD_ISSUER\)/)
  })
})
