import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, call, csrfToken, passwordProvider, testConfig } from "../helpers.js"

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

describe("a page opened on another loopback name than AUTH_URL (http://127.0.0.1:3000 while AUTH_URL says localhost)", () => {
  const APP = "http://localhost:3000"
  const OTHER = "http://127.0.0.1:3000"

  function localApp(url = APP) {
    const errors: string[] = []
    const config = testConfig({ url, logger: { error: (error) => errors.push(`${error.name}: ${error.message}`), warn: () => undefined } })
    return { config, errors }
  }

  /** What a browser on `origin` does: opens the sign-in page there, keeping the cookies it sets. */
  async function openSignIn(config: AuthConfig, origin: string): Promise<{ page: string; cookie: string }> {
    const response = await Auth(new Request(`${origin}/api/auth/signin?callbackUrl=%2Fme`, { headers: { accept: "text/html" } }), config)
    return { page: await response.text(), cookie: response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ") }
  }

  /** The form's POST to the app's origin (where the form's action points), carrying the Origin of the page: no cookie of that other name goes along. */
  function postFrom(origin: string, form: Record<string, string>, headers: Record<string, string> = { origin }): Request {
    return new Request(`${APP}/api/auth/signin/acme`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() })
  }

  function hidden(page: string, name: string): string {
    return new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replaceAll("&amp;", "&") ?? ""
  }

  it("names both origins in the log and on the sign-in page it sends the browser to, on AUTH_URL's origin with the requested page kept (ASVS 3.5.1)", async () => {
    const { config, errors } = localApp()
    const { page } = await openSignIn(config, OTHER)
    // As Chromium posts it: the pages' referrer policy (same-origin) makes a cross-origin post's Origin "null", with no Referer.
    const form = { csrfToken: hidden(page, "csrfToken"), callbackUrl: hidden(page, "callbackUrl"), openedAt: hidden(page, "openedAt") }
    const response = await Auth(postFrom(OTHER, form, { origin: "null" }), config)
    expect(response.status).toBe(302)
    const to = new URL(response.headers.get("location") ?? "")
    expect(`${to.origin}${to.pathname}`).toBe(`${APP}/api/auth/signin`)
    expect(to.searchParams.get("error")).toBe("MissingCSRF")
    expect(to.searchParams.get("callbackUrl")).toBe(`${APP}/me`)
    expect(errors).toEqual([expect.stringMatching(/^MissingCSRF: This app's URL is http:\/\/localhost:3000 \(AUTH_URL or `url`\) but the page was opened at http:\/\/127\.0\.0\.1:3000: open it at http:\/\/localhost:3000/)])

    const retry = await Auth(new Request(to, { headers: { accept: "text/html" } }), config)
    const shown = await retry.text()
    expect(shown).toContain("This app&#39;s address is http://localhost:3000, but the page was opened at http://127.0.0.1:3000")
    expect(shown).not.toContain("open for too long")
    expect(hidden(shown, "callbackUrl")).toBe(`${APP}/me`)
    // The other name is described, never linked to.
    expect(shown).not.toMatch(/(href|action)="http:\/\/127\.0\.0\.1/)
  })

  it("does the same for a password form, which posts to its callback (ASVS 3.5.1)", async () => {
    const errors: string[] = []
    const config = testConfig({
      url: APP,
      providers: [passwordProvider()],
      logger: { error: (error) => errors.push(`${error.name}: ${error.message}`), warn: () => undefined },
    })
    const { page } = await openSignIn(config, OTHER)
    const form = { csrfToken: hidden(page, "csrfToken"), callbackUrl: hidden(page, "callbackUrl"), openedAt: hidden(page, "openedAt"), username: "ada", password: "pw" }
    const response = await Auth(
      new Request(`${APP}/api/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" }, body: new URLSearchParams(form).toString() }),
      config,
    )
    const to = new URL(response.headers.get("location") ?? "")
    expect(to.searchParams.get("error")).toBe("MissingCSRF")
    expect(to.searchParams.get("openedAt")).toBe(OTHER)
    expect(to.searchParams.get("callbackUrl")).toBe(`${APP}/me`)
    expect(errors).toEqual([expect.stringMatching(/but the page was opened at http:\/\/127\.0\.0\.1:3000/)])
  })

  it("reads the Origin, else the Referer, else the form's word, and describes each as an origin only", async () => {
    for (const [headers, form] of [
      [{ origin: OTHER }, {}],
      [{ referer: `${OTHER}/api/auth/signin?callbackUrl=%2Fsecret-path` }, {}],
      [{ origin: "null" }, { openedAt: `${OTHER}/secret-path` }],
    ] as const) {
      const { config, errors } = localApp()
      await Auth(postFrom(OTHER, { csrfToken: "from-the-other-page", ...form }, headers), config)
      expect(errors.join("\n"), JSON.stringify(headers)).toMatch(/opened at http:\/\/127\.0\.0\.1:3000:/)
      expect(errors.join("\n")).not.toContain("secret-path")
    }
  })

  it("attack: a non-loopback Origin, or a non-loopback AUTH_URL, is never described", async () => {
    for (const [url, origin] of [
      [APP, "https://evil.example"],
      [APP, "http://127.0.0.1.evil.example:3000"],
      ["https://app.example.com", OTHER],
    ] as const) {
      for (const request of [postFrom(origin, { csrfToken: "x" }), postFrom(origin, { csrfToken: "x", openedAt: origin }, { origin: "null" })]) {
        const { config, errors } = localApp(url)
        const response = await Auth(request, config)
        expect(new URL(response.headers.get("location") ?? "").searchParams.has("openedAt"), origin).toBe(false)
        expect(errors.join("\n"), origin).not.toMatch(/opened at/)
      }
    }
  })

  it("attack: a crafted sign-in link naming another origin shows nothing of it unless it is a loopback name", async () => {
    const { config } = localApp()
    for (const openedAt of ["https://evil.example", "javascript:alert(1)", "http://127.0.0.1:3000/<script>"]) {
      const page = await (await Auth(new Request(`${APP}/api/auth/signin?error=MissingCSRF&openedAt=${encodeURIComponent(openedAt)}`, { headers: { accept: "text/html" } }), config)).text()
      expect(page, openedAt).not.toMatch(/evil|javascript|<script>/)
    }
  })

  it("warns on the sign-in page itself, with a link to the sign-in page on AUTH_URL's origin keeping the requested page", async () => {
    const { config } = localApp()
    const { page } = await openSignIn(config, OTHER)
    expect(page).toContain("This app&#39;s address is http://localhost:3000, but this page was opened at http://127.0.0.1:3000")
    expect(page).toContain(`href="${APP}/api/auth/signin?callbackUrl=${encodeURIComponent(`${APP}/me`)}"`)
    expect(page).not.toMatch(/href="http:\/\/127\.0\.0\.1/)
    // On the app's own origin, nothing is said.
    expect((await openSignIn(config, APP)).page).not.toContain("was opened at")
  })
})
