import { describe, expect, it } from "vitest"
import { actionFields, isCrossSiteRequest, parseSetCookie, shouldRedirect } from "../src/integration.js"
import { serializeCookie } from "../src/http/cookies.js"

describe("parseSetCookie (RFC 6265 §5.2)", () => {
  it("reads every attribute core writes, from core's own serializer", () => {
    const expires = new Date("2030-01-02T03:04:05Z")
    const header = serializeCookie({ name: "__Host-authjs.session-token", value: "a.b|c=", options: { maxAge: 3600, expires, path: "/", httpOnly: true, secure: true, sameSite: "lax" } })
    expect(parseSetCookie(header)).toEqual({
      name: "__Host-authjs.session-token",
      value: "a.b|c=",
      attributes: { maxAge: 3600, expires, path: "/", httpOnly: true, secure: true, sameSite: "lax" },
    })
  })

  it("reads Partitioned (CHIPS), Priority and Domain, whatever their case", () => {
    expect(parseSetCookie("a=1; DOMAIN=.Example.COM; partitioned; SameSite=None; Secure; priority=HIGH")?.attributes).toEqual({
      domain: "example.com",
      partitioned: true,
      sameSite: "none",
      secure: true,
      priority: "high",
    })
  })

  it("keeps a value holding `=` whole, and an empty value", () => {
    expect(parseSetCookie("csrf=abc==|def=; Path=/")).toMatchObject({ name: "csrf", value: "abc==|def=" })
    expect(parseSetCookie("gone=; Max-Age=0")).toEqual({ name: "gone", value: "", attributes: { maxAge: 0 } })
  })

  it("ignores a set-cookie-string without `=` or with an empty name, as a browser does (§5.2 step 2)", () => {
    expect(parseSetCookie("")).toBeUndefined()
    expect(parseSetCookie("no-equals-sign; Path=/")).toBeUndefined()
    expect(parseSetCookie("=value; Path=/")).toBeUndefined()
  })

  it("leaves out attribute values a browser ignores, and never throws on a hostile header", () => {
    expect(parseSetCookie("a=1; Max-Age=12abc; Expires=not a date; SameSite=sideways; Path=relative; Domain=; Priority=urgent")?.attributes).toEqual({})
    expect(parseSetCookie("a=1; Max-Age=-5")?.attributes).toEqual({ maxAge: -5 })
    const hostile = ["a=1;;;; ; =; ==; Max-Age", "\u0000=\u0000; Expires=\uffff", `a=${"x".repeat(100_000)};${"; Path=/".repeat(10_000)}`, "a=1; __proto__=polluted; constructor=x"]
    for (const header of hostile) expect(() => parseSetCookie(header)).not.toThrow()
    expect(Object.getPrototypeOf(parseSetCookie("a=1; __proto__=x")?.attributes)).toBe(Object.prototype)
  })
})

describe("action options", () => {
  it("redirects unless told `false`, a form's text `\"false\"` included", () => {
    expect(shouldRedirect(undefined)).toBe(true)
    expect(shouldRedirect(true)).toBe(true)
    expect(shouldRedirect(false)).toBe(false)
    expect(shouldRedirect("false")).toBe(false)
  })

  it("passes only text fields on to the provider", () => {
    expect(actionFields({ email: "a@example.com", remember: true, none: undefined })).toEqual({ email: "a@example.com" })
  })
})

describe("isCrossSiteRequest (Fetch Metadata's Sec-Fetch-Site, RFC 6454 §7 Origin)", () => {
  const post = (headers: Record<string, string>) => new Request("https://app.example.com/account", { method: "POST", headers })

  it("refuses what the browser marks as sent by another site, a sibling subdomain included", () => {
    expect(isCrossSiteRequest(post({ "sec-fetch-site": "cross-site" }))).toBe(true)
    expect(isCrossSiteRequest(post({ "sec-fetch-site": "same-site" }))).toBe(true)
    // Sec-Fetch-Site wins over an Origin a browser would not send with it.
    expect(isCrossSiteRequest(post({ "sec-fetch-site": "cross-site", origin: "https://app.example.com" }))).toBe(true)
  })

  it("passes the app's own pages and what the user typed or bookmarked", () => {
    expect(isCrossSiteRequest(post({ "sec-fetch-site": "same-origin", origin: "https://evil.example" }))).toBe(false)
    expect(isCrossSiteRequest(post({ "sec-fetch-site": "none" }))).toBe(false)
  })

  it("without Sec-Fetch-Site (an older browser) refuses an Origin of another host, or one that is no URL", () => {
    expect(isCrossSiteRequest(post({ origin: "https://evil.example" }))).toBe(true)
    expect(isCrossSiteRequest(post({ origin: "https://app.example.com:8443" }))).toBe(true)
    // A sandboxed frame or a redirect across origins sends "null".
    expect(isCrossSiteRequest(post({ origin: "null" }))).toBe(true)
    expect(isCrossSiteRequest(post({ origin: "https://app.example.com" }))).toBe(false)
  })

  it("passes a request with neither header: not a browser's, so it carries no cookie another site could use", () => {
    expect(isCrossSiteRequest(post({}))).toBe(false)
  })
})
