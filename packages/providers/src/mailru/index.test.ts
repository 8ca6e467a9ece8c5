import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import MailRu from "./index.js"

testProvider(MailRu, {
  fixture,
  user: {
    id: "1864591236",
    name: "Иван Петров",
    email: "ivan.petrov@mail.ru",
    image: "https://filin.mail.ru/pic?d=Zm9vYmFyYmF6cXV4&width=180&height=180",
  },
})

describe("mailru userinfo request", () => {
  it("passes the access token as a query parameter", async () => {
    const provider = MailRu({ clientId: "id", clientSecret: "secret" })
    const userinfo = provider.userinfo
    if (typeof userinfo !== "object" || userinfo.request === undefined) throw new Error("expected a userinfo request")
    let requested = ""
    const fetch = (input: string | URL) => {
      requested = String(input)
      return Promise.resolve(Response.json(fixture))
    }
    const profile = await userinfo.request({
      tokens: { access_token: "at 1" },
      provider: provider,
      url: userinfo.url,
      fetch,
    })
    expect(profile).toEqual(fixture)
    expect(requested).toBe("https://oauth.mail.ru/userinfo?access_token=at+1")
  })
})
