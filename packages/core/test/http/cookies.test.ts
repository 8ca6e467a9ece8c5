import { describe, expect, it } from "vitest"
import { CHUNK_SIZE, defaultCookies, parseCookies, readChunked, serializeCookie, writeChunked } from "../../src/http/cookies.js"
import type { CookieOption, CookiesOptions } from "../../src/types.js"

/** Every cookie of a set, typed (`Object.values` of an interface is `any[]`). */
const all = (cookies: CookiesOptions): CookieOption[] => (Object.keys(cookies) as (keyof CookiesOptions)[]).map((key) => cookies[key])

describe("cookies", () => {
  it("gives every cookie the __Host- prefix on https, and none on http", () => {
    const secure = defaultCookies(true, undefined)
    for (const cookie of all(secure)) {
      expect(cookie.name).toMatch(/^__Host-authjs\./)
      expect(cookie.options).toMatchObject({ secure: true, path: "/" })
      expect(cookie.options.domain).toBeUndefined()
    }
    const plain = all(defaultCookies(false, undefined)).map((cookie) => cookie.name)
    expect(plain).toEqual(expect.arrayContaining(["authjs.session-token", "authjs.callback-url", "authjs.csrf-token", "authjs.pkce.code_verifier", "authjs.state", "authjs.nonce"]))
    for (const name of plain) expect(name).toMatch(/^authjs\./)
    expect(secure.state.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: true, maxAge: 900 })
  })

  it("falls back to __Secure- only for a cookie the app shares with a domain or narrows to a path", () => {
    const cookies = defaultCookies(true, { sessionToken: { options: { domain: "example.com" } }, callbackUrl: { options: { path: "/app" } } })
    expect(cookies.sessionToken.name).toBe("__Secure-authjs.session-token")
    expect(cookies.callbackUrl.name).toBe("__Secure-authjs.callback-url")
    expect(cookies.csrfToken.name).toBe("__Host-authjs.csrf-token")
  })

  it("keeps a name the app chose, the migration path from Auth.js's __Secure- names", () => {
    const cookies = defaultCookies(true, { sessionToken: { name: "__Secure-authjs.session-token" } })
    expect(cookies.sessionToken.name).toBe("__Secure-authjs.session-token")
  })

  it("lays overrides over the defaults without touching other cookies", () => {
    const cookies = defaultCookies(false, { sessionToken: { name: "sid", options: { domain: "example.com" } } })
    expect(cookies.sessionToken).toEqual({ name: "sid", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, domain: "example.com" } })
    expect(cookies.callbackUrl.name).toBe("authjs.callback-url")
  })

  it("parses a Cookie header, keeping the first of duplicate names", () => {
    const jar = parseCookies('a=1; b="2"; a=3; junk; =x; c=')
    expect([...jar]).toEqual([["a", "1"], ["b", "2"], ["c", ""]])
    expect(parseCookies(null).size).toBe(0)
  })

  it("serializes attributes", () => {
    expect(serializeCookie({ name: "n", value: "v", options: { httpOnly: true, secure: true, sameSite: "lax", maxAge: 60, path: "/" } })).toBe(
      "n=v; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax",
    )
  })

  it("splits a large value into chunks, reassembles it, and clears leftovers", () => {
    const cookie = defaultCookies(false, undefined).sessionToken
    const big = "x".repeat(CHUNK_SIZE * 2 + 10)
    const written = writeChunked(cookie, big, new Map())
    expect(written.map((c) => c.name)).toEqual(["authjs.session-token.0", "authjs.session-token.1", "authjs.session-token.2"])
    const jar = new Map(written.map((c) => [c.name, c.value]))
    expect(readChunked(jar, cookie.name)).toBe(big)
    const small = writeChunked(cookie, "small", jar)
    expect(small[0]).toMatchObject({ name: "authjs.session-token", value: "small" })
    expect(small.slice(1).map((c) => [c.name, c.options.maxAge])).toEqual([
      ["authjs.session-token.0", 0],
      ["authjs.session-token.1", 0],
      ["authjs.session-token.2", 0],
    ])
  })
})
