import { Configuration } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import GitHub from "./index.js"

const base = {
  fixture,
  user: {
    id: "583231",
    name: "The Octocat",
    email: "octocat@github.com",
    image: "https://avatars.githubusercontent.com/u/583231?v=4",
  },
}

testProvider(GitHub, base)

// Auth.js's `GitHub({ enterprise: { baseUrl } })`: sign-in on a GitHub Enterprise Server, its API under /api/v3.
testProvider(GitHub, {
  ...base,
  title: "enterprise",
  config: { enterprise: { baseUrl: "https://github.acme.example" } },
})

describe("GitHub enterprise", () => {
  it("signs in at the server and reads the API under /api/v3", () => {
    const provider = GitHub({ enterprise: { baseUrl: "https://github.acme.example/" } })
    expect(provider.authorization).toMatchObject({ url: "https://github.acme.example/login/oauth/authorize" })
    expect(provider.token).toBe("https://github.acme.example/login/oauth/access_token")
    expect(provider.userinfo).toMatchObject({ url: "https://github.acme.example/api/v3/user" })
    expect(provider).not.toHaveProperty("enterprise")
  })

  it("reads a hidden email from the server's API", async () => {
    const seen: string[] = []
    const fetch = (url: string | URL) => {
      seen.push(String(url))
      const body = String(url).endsWith("/emails") ? [{ email: "octocat@github.acme.example", primary: true, verified: true }] : { ...fixture, email: null }
      return Promise.resolve(Response.json(body))
    }
    const { userinfo } = GitHub({ enterprise: { baseUrl: "https://github.acme.example" } })
    const request = typeof userinfo === "object" ? userinfo.request : undefined
    const profile = await request?.({ tokens: { access_token: "t" }, url: undefined, fetch, provider: GitHub() })
    expect(profile).toMatchObject({ email: "octocat@github.acme.example" })
    expect(seen).toEqual(["https://github.acme.example/api/v3/user", "https://github.acme.example/api/v3/user/emails"])
  })

  it("refuses a base URL that is not a URL at start, naming the option", () => {
    expect(() => GitHub({ enterprise: { baseUrl: "github.acme.example" } })).toThrow(Configuration)
    expect(() => GitHub({ enterprise: { baseUrl: "github.acme.example" } })).toThrow(/`enterprise\.baseUrl`/)
  })
})
