import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Twitch from "./index.js"

testProvider(Twitch, {
  fixture,
  user: {
    id: "713936733",
    name: "PixelPanda",
    email: "pixelpanda@example.com",
    image: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-150x150.png",
  },
})

describe("Twitch token answer", () => {
  it("joins the scope array into the standard string", async () => {
    const token = Twitch().token
    if (typeof token !== "object" || token.conform === undefined) throw new Error("no conform")
    const body = {
      access_token: "rfx2uswqe8l4g1mkagrvg5tv0ks3",
      expires_in: 14124,
      id_token: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
      refresh_token: "5b93chm6hdve3mycz05zfzatkfdenfspp1h1ar2xxdalen01",
      scope: ["openid", "user:read:email"],
      token_type: "bearer",
    }
    const conformed = await token.conform(Response.json(body))
    expect(await conformed?.json()).toEqual({ ...body, scope: "openid user:read:email" })
  })
})
