import { Configuration } from "@portcullis/core/errors"
import type { OAuthConfig, UserinfoEndpointHandler } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Twitter from "./index.js"

testProvider(Twitter, {
  fixture,
  user: {
    id: "1532781650112634880",
    name: "Marta Ribeiro",
    email: null,
    image: "https://pbs.twimg.com/profile_images/1532782093465223168/Qm3bX2pA_normal.jpg",
  },
})

const credentials = { clientId: "id", clientSecret: "secret" }

describe("Twitter options", () => {
  it("uses OAuth 2.0 with PKCE and state by default, and when asked for version 2.0", () => {
    const byDefault = Twitter(credentials)
    const explicit = Twitter({ ...credentials, version: "2.0" })
    expect(byDefault.checks).toEqual(["pkce", "state"])
    expect(JSON.stringify(explicit)).toBe(JSON.stringify(byDefault))
    expect(explicit).not.toHaveProperty("version")
  })

  it("refuses any other version with a Configuration error", () => {
    // @ts-expect-error: not a version
    expect(() => Twitter({ ...credentials, version: "3" })).toThrow(Configuration)
    // @ts-expect-error: not a version
    expect(() => Twitter({ ...credentials, version: "1.0" })).toThrow(/version "1.0" is not supported/)
  })

  it("maps the confirmed email an app granted users.email asks for", async () => {
    const withEmail = { ...fixture, data: { ...fixture.data, confirmed_email: "marta@example.dev" } }
    const user = await Twitter(credentials).profile?.(withEmail, {})
    expect(user?.email).toBe("marta@example.dev")
  })

  it("maps the email once the app is granted email access", async () => {
    const withEmail = { ...fixture, data: { ...fixture.data, email: "marta@example.dev" } }
    const user = await Twitter(credentials).profile?.(withEmail, {})
    expect(user?.email).toBe("marta@example.dev")
  })
})

describe("Twitter userinfo request", () => {
  /** Runs the provider's userinfo request against a fake X API; returns the one request it sent. */
  async function requestProfile(provider: OAuthConfig<never>) {
    const calls: { url: URL; headers: Headers }[] = []
    const fetch = (input: string | URL, init?: RequestInit) => {
      calls.push({ url: new URL(input), headers: new Headers(init?.headers) })
      return Promise.resolve(Response.json(fixture))
    }
    const userinfo = provider.userinfo as UserinfoEndpointHandler
    const profile = await userinfo.request?.({
      tokens: { access_token: "x-access-token" },
      provider: provider,
      url: userinfo.url,
      fetch,
    })
    expect(profile).toEqual(fixture)
    expect(calls).toHaveLength(1)
    const [call] = calls
    if (call === undefined) throw new Error("no request sent")
    return call
  }

  it("asks /2/users/me for the avatar with the access token", async () => {
    const { url, headers } = await requestProfile(Twitter(credentials))
    expect(`${url.origin}${url.pathname}`).toBe("https://api.x.com/2/users/me")
    expect(url.searchParams.get("user.fields")).toBe("profile_image_url")
    expect(headers.get("authorization")).toBe("Bearer x-access-token")
  })

  it("adds the user.fields of the authorization params, without duplicates", async () => {
    const provider = Twitter({
      ...credentials,
      authorization: { params: { "user.fields": "description, profile_image_url,location,description" } },
    })
    const { url } = await requestProfile(provider)
    expect(url.searchParams.get("user.fields")).toBe("profile_image_url,description,location")
    expect(provider.authorization).toMatchObject({ params: { scope: "users.read tweet.read offline.access" } })
  })
})
