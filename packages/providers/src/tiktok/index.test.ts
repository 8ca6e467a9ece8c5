import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import TikTok from "./index.js"

testProvider(TikTok, {
  fixture,
  user: {
    id: "-000Oqv8bPl3UXg0g7yYv-k8mQ4PaQxRBMDc",
    name: "Zara Ahmed",
    email: null,
    image:
      "https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/7f3e2a1b9c8d4e5f6a7b8c9d0e1f2a3b~c5_168x168.jpeg?x-expires=1718380800&x-signature=Zk3yQm%2B9rT1vB2c%3D",
  },
})

describe("TikTok client key", () => {
  it("sends the client id as client_key when authorizing", () => {
    const authorization = TikTok({ clientId: "aw1b2c3d4e5f6g7h" }).authorization
    expect(typeof authorization === "object" ? authorization.params?.client_key : undefined).toBe("aw1b2c3d4e5f6g7h")
  })
})
