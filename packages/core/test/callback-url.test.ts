import { describe, expect, it } from "vitest"
import { ORIGIN, Jar, call, csrfToken, testConfig } from "./helpers.js"
import { sameOriginOnly } from "../src/callback-url.js"

describe("callbackUrl", () => {
  const hostile = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http://localhost:3000.evil.example/",
    "http://localhost:3000@evil.example/",
    "/%0d%0aSet-Cookie:x=1",
    "\t//evil.example",
    "/\t/evil.example",
    "x".repeat(5000),
  ]

  for (const url of hostile) {
    it(`never leaves the origin for ${JSON.stringify(url.slice(0, 40))}`, () => {
      const resolved = sameOriginOnly(url, ORIGIN)
      expect(new URL(resolved).origin).toBe(ORIGIN)
      expect(resolved).not.toMatch(/[\r\n]/)
    })
  }

  it("keeps relative paths and same-origin URLs", () => {
    expect(sameOriginOnly("/dashboard?tab=1", ORIGIN)).toBe(`${ORIGIN}/dashboard?tab=1`)
    expect(sameOriginOnly(`${ORIGIN}/x`, ORIGIN)).toBe(`${ORIGIN}/x`)
  })

  it("sends a hostile callbackUrl on sign-out back to the origin, with no 500", async () => {
    const config = testConfig()
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    for (const url of hostile) {
      const response = await call(config, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl: url } })
      expect(response.status).toBe(302)
      expect(new URL(response.headers.get("location") ?? "").origin).toBe(ORIGIN)
    }
  })

  it("lets the redirect callback allow another origin, but never a non-http scheme", async () => {
    const allowing = testConfig({ callbacks: { redirect: ({ url }) => url } })
    const jar = new Jar()
    const token = await csrfToken(allowing, jar)
    const away = await call(allowing, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl: "https://partner.example/" } })
    expect(away.headers.get("location")).toBe("https://partner.example/")
    const script = await call(allowing, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl: "javascript:alert(1)" } })
    expect(script.headers.get("location")).toBe(ORIGIN)
  })
})
