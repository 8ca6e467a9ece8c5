import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Notion from "./index.js"

testProvider(Notion, {
  fixture,
  user: {
    id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
    name: "Christine Park",
    email: "christine.park@example.com",
    image:
      "https://s3-us-west-2.amazonaws.com/public.notion-static.com/3c1e2a4b-5d6f-4a7b-8c9d-0e1f2a3b4c5d/avatar.png",
  },
})

describe("notion quirks", () => {
  it("reads the bot owner with the Notion-Version header", async () => {
    const provider = Notion({ clientId: "id", clientSecret: "secret" })
    const userinfo = provider.userinfo
    if (typeof userinfo !== "object" || userinfo.request === undefined) throw new Error("expected a userinfo request")
    let headers = new Headers()
    const fetch = (_input: string | URL, init?: RequestInit) => {
      headers = new Headers(init?.headers)
      return Promise.resolve(
        Response.json({
          object: "user",
          id: "16d84278-ab0e-484c-9bdd-b35da3bd8905",
          name: "Acme Sync",
          avatar_url: null,
          type: "bot",
          bot: { owner: { type: "user", user: fixture }, workspace_name: "Acme" },
        }),
      )
    }
    const profile = await userinfo.request({
      tokens: { access_token: "at" },
      provider: provider,
      url: userinfo.url,
      fetch,
    })
    expect(profile).toEqual(fixture)
    expect(headers.get("Notion-Version")).toBe("2022-06-28")
    expect(headers.get("Authorization")).toBe("Bearer at")
  })

  it("drops a null refresh_token from the token response", async () => {
    const token = Notion().token
    if (typeof token !== "object" || token.conform === undefined) throw new Error("expected a token conform")
    const conformed = await token.conform(
      Response.json({ access_token: "at", token_type: "bearer", refresh_token: null, bot_id: "b1" }),
    )
    expect(await conformed?.json()).toEqual({ access_token: "at", token_type: "bearer", bot_id: "b1" })
  })
})

describe("Notion redirectUri", () => {
  it("accepts the app's own callback URL, which core sends", () => {
    expect(Notion({ redirectUri: "https://app.example.com/api/auth/callback/notion" })).not.toHaveProperty("redirectUri")
  })

  it("refuses another URL at start, naming the option (core always sends its own callback URL)", () => {
    expect(() => Notion({ redirectUri: "https://app.example.com/elsewhere" })).toThrow(/`redirectUri`/)
  })
})
