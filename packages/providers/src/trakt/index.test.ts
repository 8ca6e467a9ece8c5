import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Trakt from "./index.js"

testProvider(Trakt, {
  fixture,
  user: {
    id: "sean",
    name: "Sean Rudford",
    email: null,
    image: "https://walter-r2.trakt.tv/images/users/000/000/001/avatars/large/cf48bde1f2.jpg",
  },
})

describe("trakt userinfo request", () => {
  it("sends the API version and the client ID as API key", async () => {
    const provider = Trakt({ clientId: "trakt-client", clientSecret: "secret" })
    const userinfo = provider.userinfo
    if (typeof userinfo !== "object" || userinfo.request === undefined) throw new Error("expected a userinfo request")
    let headers = new Headers()
    const fetch = (_input: string | URL, init?: RequestInit) => {
      headers = new Headers(init?.headers)
      return Promise.resolve(Response.json(fixture))
    }
    const profile = await userinfo.request({
      tokens: { access_token: "at" },
      provider: provider,
      url: userinfo.url,
      fetch,
    })
    expect(profile).toEqual(fixture)
    expect(headers.get("trakt-api-key")).toBe("trakt-client")
    expect(headers.get("trakt-api-version")).toBe("2")
  })
})
