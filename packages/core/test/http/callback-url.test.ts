import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, PASSWORD, Jar, call, csrfToken, passwordProvider, testConfig } from "../helpers.js"
import { sameOriginOnly } from "../../src/http/callback-url.js"

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

  it("lets the redirect callback choose a same-origin path, but never a non-http scheme", async () => {
    const config = testConfig({ callbacks: { redirect: ({ url, baseUrl }) => (url.startsWith("/") ? `${baseUrl}/welcome` : url) } })
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const chosen = await call(config, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl: "/x" } })
    expect(chosen.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    const script = await call(config, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl: "javascript:alert(1)" } })
    expect(script.headers.get("location")).toBe(ORIGIN)
  })
})

describe("a redirect callback that answers another origin", () => {
  const APP = "https://app.example.com"
  /** The classic mistake: a prefix test where an origin comparison belongs. */
  const prefixOnly = ({ url, baseUrl }: { url: string; baseUrl: string }) => (url.startsWith(baseUrl) ? url : baseUrl)
  const attacks = ["https://app.example.com@evil.example/", "https://app.example.com.evil.example/steal?session=s3cr3t-in-query"]

  function watched(overrides: Partial<AuthConfig> = {}) {
    const warnings: string[] = []
    const config = testConfig({ url: APP, callbacks: { redirect: prefixOnly }, logger: { error: () => undefined, warn: (code, message) => warnings.push(`${code}: ${message ?? ""}`) }, ...overrides })
    return { config, warnings }
  }

  async function signOutTo(config: AuthConfig, jar: Jar, callbackUrl: string): Promise<string | null> {
    const token = await csrfToken(config, jar)
    return (await call(config, jar, "/api/auth/signout", { form: { csrfToken: token, callbackUrl } })).headers.get("location")
  }

  it("is refused: the browser is sent to the app's origin, for the userinfo and the suffix trick", async () => {
    const { config } = watched()
    const jar = new Jar()
    for (const url of attacks) {
      expect(prefixOnly({ url, baseUrl: APP }), "the callback lets it through").toBe(url)
      expect(await signOutTo(config, jar, url)).toBe(APP)
    }
  })

  it("is refused after a sign-in too, where the callback decides the landing page", async () => {
    const { config } = watched({ providers: [passwordProvider()] })
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const signedIn = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: token, username: "ada", password: PASSWORD, callbackUrl: attacks[0] ?? "" } })
    expect(new URL(signedIn.headers.get("location") ?? "").origin).toBe(APP)
  })

  it("is warned about once per distinct origin, naming the origin and nothing of the path or query", async () => {
    const { config, warnings } = watched()
    const jar = new Jar()
    for (const url of [...attacks, ...attacks]) await signOutTo(config, jar, url)
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/^RedirectOffOrigin: .*https:\/\/evil\.example\b/)
    expect(warnings[1]).toMatch(/https:\/\/app\.example\.com\.evil\.example\b/)
    expect(warnings.join("\n")).not.toMatch(/steal|s3cr3t/)
    expect(warnings.join("\n")).toMatch(/new URL\(url, baseUrl\)\.origin/)
  })

  it("keeps its warnings bounded whatever origins requests make it answer", async () => {
    const { config, warnings } = watched({ callbacks: { redirect: ({ url }) => url } })
    const jar = new Jar()
    for (let i = 0; i < 150; i++) expect(await signOutTo(config, jar, `https://host-${i}.evil.example/`)).toBe(APP)
    expect(warnings.length).toBeGreaterThan(0)
    expect(warnings.length).toBeLessThanOrEqual(100)
  })

  it("is never answered by the origin comparison SECURITY.md and the README show", async () => {
    const documented = ({ url, baseUrl }: { url: string; baseUrl: string }) =>
      URL.canParse(url, baseUrl) && new URL(url, baseUrl).origin === baseUrl ? new URL(url, baseUrl).href : baseUrl
    const { config, warnings } = watched({ callbacks: { redirect: documented } })
    const jar = new Jar()
    for (const url of attacks) expect(await signOutTo(config, jar, url)).toBe(`${APP}/`)
    expect(await signOutTo(config, jar, "/account?tab=keys")).toBe(`${APP}/account?tab=keys`)
    expect(warnings).toEqual([])
  })

  it("may answer an origin the app admits (`allowedOrigins`), without a warning", async () => {
    const { config, warnings } = watched({ allowedOrigins: ["https://*.preview.example.com"], callbacks: { redirect: ({ url }) => url } })
    const jar = new Jar()
    expect(await signOutTo(config, jar, "https://pr-7.preview.example.com/done")).toBe("https://pr-7.preview.example.com/done")
    expect(warnings).toEqual([])
  })
})
