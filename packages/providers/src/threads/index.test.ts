import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Threads from "./index.js"

testProvider(Threads, {
  fixture,
  user: {
    id: "7317842095136421",
    name: "Marco Bellini",
    email: null,
    image:
      "https://scontent-iad3-1.cdninstagram.com/v/t51.2885-19/417328842_1234567890_n.jpg?stp=dst-jpg_s320x320&_nc_ht=scontent-iad3-1.cdninstagram.com",
  },
})

describe("threads token response", () => {
  it("adds the missing token_type", async () => {
    const token = Threads().token
    if (typeof token !== "object" || token.conform === undefined) throw new Error("expected a token conform")
    const conformed = await token.conform(Response.json({ access_token: "THQVJ-short", user_id: 7317842095136421 }))
    expect(await conformed?.json()).toEqual({
      access_token: "THQVJ-short",
      user_id: 7317842095136421,
      token_type: "bearer",
    })
  })
})
