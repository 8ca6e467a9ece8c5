import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Instagram from "./index.js"

testProvider(Instagram, {
  fixture,
  user: {
    id: "8912345678901234",
    name: "Kaito Tanaka",
    email: null,
    image:
      "https://scontent-nrt1-1.cdninstagram.com/v/t51.2885-19/431234567_1234567890_n.jpg?stp=dst-jpg_s206x206&_nc_ht=scontent-nrt1-1.cdninstagram.com&oh=00_AfB1c2d3e4f5&oe=6720A1B2",
  },
})

describe("Instagram token answer", () => {
  const conform = async (body: unknown): Promise<unknown> => {
    const token = Instagram().token
    if (typeof token !== "object" || token.conform === undefined) throw new Error("no conform")
    return (await token.conform(Response.json(body)))?.json()
  }

  it("unwraps the documented data array and adds the token type", async () => {
    const body = { data: [{ access_token: "IGQVJ-short", user_id: "17841405822304914", permissions: "instagram_business_basic" }] }
    expect(await conform(body)).toEqual({
      access_token: "IGQVJ-short",
      user_id: "17841405822304914",
      permissions: "instagram_business_basic",
      token_type: "bearer",
    })
  })

  it("accepts the flat shape too", async () => {
    const body = { access_token: "IGQVJ-short", user_id: "17841405822304914", permissions: "instagram_business_basic" }
    expect(await conform(body)).toEqual({ ...body, token_type: "bearer" })
  })
})
