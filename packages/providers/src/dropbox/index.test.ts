import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Dropbox from "./index.js"

testProvider(Dropbox, {
  fixture,
  user: {
    id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
    name: "Franz Ferdinand (Personal)",
    email: "franz@example.com",
    image:
      "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
  },
})

describe("dropbox account request", () => {
  it("reads the account with a bodyless POST", async () => {
    const provider = Dropbox({ clientId: "id", clientSecret: "secret" })
    const userinfo = provider.userinfo
    if (typeof userinfo !== "object" || userinfo.request === undefined) throw new Error("expected a userinfo request")
    const calls: { url: string; init?: RequestInit }[] = []
    const fetch = (input: string | URL, init?: RequestInit) => {
      calls.push({ url: String(input), init })
      return Promise.resolve(Response.json(fixture))
    }
    const profile = await userinfo.request({
      tokens: { access_token: "at" },
      provider: provider as never,
      url: userinfo.url,
      fetch,
    })
    expect(profile).toEqual(fixture)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.url).toBe("https://api.dropboxapi.com/2/users/get_current_account")
    expect(calls[0]?.init?.method).toBe("POST")
    expect(calls[0]?.init?.body).toBeUndefined()
  })
})
