import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Medium from "./index.js"

testProvider(Medium, {
  fixture,
  user: {
    id: "5303d74c64f66366f00cb9b2a94f3251bf5",
    name: "Jamie Talbot",
    email: null,
    image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
  },
})

describe("medium token response", () => {
  it("joins the scope array and turns the millisecond expiry into expires_in", async () => {
    const token = Medium().token
    if (typeof token !== "object" || token.conform === undefined) throw new Error("expected a token conform")
    const expiresAt = Date.now() + 60 * 24 * 3600 * 1000
    const raw = Response.json({
      token_type: "Bearer",
      access_token: "at",
      refresh_token: "rt",
      scope: ["basicProfile", "publishPost"],
      expires_at: expiresAt,
    })
    const conformed = await token.conform(raw)
    const body = (await conformed?.json()) as Record<string, unknown>
    expect(body.scope).toBe("basicProfile publishPost")
    expect(body.expires_at).toBeUndefined()
    expect(body.expires_in).toBeGreaterThan(60 * 24 * 3600 - 5)
    expect(body.access_token).toBe("at")
  })
})
