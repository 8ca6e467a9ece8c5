import type { UserinfoEndpointHandler } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Yandex, { type YandexProfile, yandexAvatarSizes, yandexAvatarUrl } from "./index.js"

testProvider(Yandex, {
  fixture: fixture as YandexProfile,
  user: {
    id: "1000034426",
    name: "Ivan",
    email: "ivan.petrov@yandex.ru",
    image: "https://avatars.yandex.net/get-yapic/28643/kZp4Q1vD7mJxR2cLwN8aYb3Tg-7/islands-200",
  },
})

const base: YandexProfile = { id: "1000034426", login: "ivan.petrov", client_id: "4760187d", psuid: "1.AAceCw.x" }

async function userOf(profile: YandexProfile) {
  return Yandex({ clientId: "id", clientSecret: "secret" }).profile?.(profile, {})
}

describe("Yandex profile fallbacks", () => {
  it("takes the name from display_name, then real_name, then first_name", async () => {
    expect((await userOf({ ...base, display_name: "Vanya", real_name: "Ivan Petrov", first_name: "Ivan" }))?.name).toBe("Vanya")
    expect((await userOf({ ...base, real_name: "Ivan Petrov", first_name: "Ivan" }))?.name).toBe("Ivan Petrov")
    expect((await userOf({ ...base, first_name: "Ivan" }))?.name).toBe("Ivan")
    expect((await userOf(base))?.name).toBeNull()
  })

  it("takes the email from default_email, then the first of emails", async () => {
    expect((await userOf({ ...base, default_email: "a@yandex.ru", emails: ["b@yandex.ru"] }))?.email).toBe("a@yandex.ru")
    expect((await userOf({ ...base, emails: ["b@yandex.ru", "c@yandex.ru"] }))?.email).toBe("b@yandex.ru")
    expect((await userOf({ ...base, emails: [] }))?.email).toBeNull()
    expect((await userOf(base))?.email).toBeNull()
  })

  it("has no image when the avatar is empty or unknown", async () => {
    expect((await userOf({ ...base, default_avatar_id: "0/0-0", is_avatar_empty: true }))?.image).toBeNull()
    expect((await userOf(base))?.image).toBeNull()
    expect((await userOf({ ...base, default_avatar_id: "1450/aBc-9", is_avatar_empty: false }))?.image).toBe(
      "https://avatars.yandex.net/get-yapic/1450/aBc-9/islands-200",
    )
  })
})

describe("yandexAvatarUrl", () => {
  const widths = [
    ["islands-small", 28],
    ["islands-34", 34],
    ["islands-middle", 42],
    ["islands-50", 50],
    ["islands-retina-small", 56],
    ["islands-68", 68],
    ["islands-75", 75],
    ["islands-retina-middle", 84],
    ["islands-retina-50", 100],
    ["islands-200", 200],
  ] as const

  it("knows exactly the served sizes", () => {
    expect(Object.entries(yandexAvatarSizes)).toEqual(widths)
  })

  it.each(widths)("builds the %s URL (%i px)", (size, width) => {
    expect(yandexAvatarSizes[size]).toBe(width)
    expect(yandexAvatarUrl("1450/aBc-9", size)).toBe(`https://avatars.yandex.net/get-yapic/1450/aBc-9/${size}`)
  })

  it("defaults to islands-200", () => {
    expect(yandexAvatarUrl("1450/aBc-9")).toBe("https://avatars.yandex.net/get-yapic/1450/aBc-9/islands-200")
  })
})

describe("Yandex userinfo request", () => {
  it("sends the token with the OAuth scheme to login.yandex.ru/info", async () => {
    const provider = Yandex({ clientId: "id", clientSecret: "secret" })
    const userinfo = provider.userinfo as UserinfoEndpointHandler
    const calls: { url: string; authorization: string | null }[] = []
    const profile = await userinfo.request?.({
      tokens: { access_token: "y0_AgAAAAB" },
      provider: provider,
      url: userinfo.url,
      fetch: (input, init) => {
        calls.push({ url: String(input), authorization: new Headers(init?.headers).get("authorization") })
        return Promise.resolve(Response.json(fixture))
      },
    })
    expect(profile).toEqual(fixture)
    expect(calls).toEqual([{ url: "https://login.yandex.ru/info?format=json", authorization: "OAuth y0_AgAAAAB" }])
  })
})
