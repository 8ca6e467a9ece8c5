import { describe, expect, it } from "vitest"
import { Jar, call, csrfToken, testConfig } from "./helpers.js"

function errorOf(response: Response): string | null {
  return new URL(response.headers.get("location") ?? "http://x/").searchParams.get("error")
}

describe("CSRF", () => {
  it("issues a token once and keeps it while the cookie is valid", async () => {
    const config = testConfig()
    const jar = new Jar()
    const first = await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/csrf")
    expect(((await response.json()) as { csrfToken: string }).csrfToken).toBe(first)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("refuses a sign-in POST with no token", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/signin/acme", { form: {} })
    expect(response.status).toBe(302)
    expect(errorOf(response)).toBe("MissingCSRF")
  })

  it("refuses a token that does not match the cookie", async () => {
    const config = testConfig()
    const jar = new Jar()
    await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/signin/acme", { form: { csrfToken: "guessed" } })
    expect(errorOf(response)).toBe("MissingCSRF")
  })

  it("refuses a cookie planted with a matching token but a forged MAC", async () => {
    const jar = new Jar()
    jar.cookies.set("authjs.csrf-token", "planted|AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    const response = await call(testConfig(), jar, "/api/auth/signin/acme", { form: { csrfToken: "planted" } })
    expect(errorOf(response)).toBe("MissingCSRF")
  })

  it("refuses a cookie minted under another secret", async () => {
    const jar = new Jar()
    const token = await csrfToken(testConfig({ secret: "some-other-secret-that-is-long-enough-x" }), jar)
    const response = await call(testConfig(), jar, "/api/auth/signout", { form: { csrfToken: token } })
    expect(errorOf(response)).toBe("MissingCSRF")
  })

  it("accepts the matching pair and redirects to the provider", async () => {
    const config = testConfig()
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/signin/acme", { form: { csrfToken: token, callbackUrl: "/after" } })
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.origin + location.pathname).toBe("https://acme.example/authorize")
    expect(location.searchParams.get("code_challenge_method")).toBe("S256")
    expect(location.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/acme")
    expect(jar.cookies.get("authjs.callback-url")).toBe(encodeURIComponent("http://localhost:3000/after"))
  })

  it("answers JSON instead of a redirect to the fetch-based client", async () => {
    const config = testConfig()
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/signin/acme", { form: { csrfToken: token }, headers: { "x-auth-return-redirect": "1" } })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { url: string }).url).toMatch(/^https:\/\/acme\.example\/authorize\?/)
  })
})
