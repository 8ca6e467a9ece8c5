import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Foursquare from "./index.js"

testProvider(Foursquare, {
  fixture,
  // The v2 API wraps the user in `response`, with the status in `meta`; the hook unwraps it.
  responses: {
    "https://api.foursquare.com/v2/users/self": {
      meta: { code: 200, requestId: "6650b1f2c3d4e5f6a7b8c9d0" },
      notifications: [],
      response: { user: fixture },
    },
  },
  user: {
    id: "81724355",
    name: "Hannah Schmidt",
    email: "hannah.schmidt@example.de",
    image: "https://fastly.4sqi.net/img/user/original/81724355-UQ2KD4XHJ1NTP0VL.jpg",
  },
})

describe("Foursquare apiVersion", () => {
  it("is sent as `v` with the profile request", async () => {
    const seen: string[] = []
    const fetch = (url: string | URL) => {
      seen.push(String(url))
      return Promise.resolve(Response.json({ response: { user: fixture } }))
    }
    const { userinfo } = Foursquare({ apiVersion: "20230131" })
    const request = typeof userinfo === "object" ? userinfo.request : undefined
    await request?.({ tokens: { access_token: "t" }, url: "https://api.foursquare.com/v2/users/self", fetch, provider: Foursquare() })
    expect(new URL(seen[0] ?? "").searchParams.get("v")).toBe("20230131")
  })

  it("refuses a version that is not a date at start, naming the option", () => {
    expect(() => Foursquare({ apiVersion: "latest" })).toThrow(/`apiVersion`/)
  })
})
