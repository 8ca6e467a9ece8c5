import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { parseRoute } from "../../src/http/routes.js"
import { Jar, call, csrfToken, testConfig } from "../helpers.js"

describe("routes", () => {
  it("lists providers with their sign-in and callback URLs", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/providers")
    expect(await response.json()).toEqual({
      acme: {
        id: "acme",
        name: "Acme",
        type: "oauth",
        signinUrl: "http://localhost:3000/api/auth/signin/acme",
        callbackUrl: "http://localhost:3000/api/auth/callback/acme",
      },
    })
  })

  it("answers unknown paths 404 and wrong methods 405, in JSON", async () => {
    const missing = await call(testConfig(), new Jar(), "/api/auth/nothing")
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: "UnknownAction" })
    const method = await call(testConfig(), new Jar(), "/api/auth/providers", { method: "DELETE" })
    expect(method.status).toBe(405)
    expect(method.headers.get("allow")).toBe("GET, HEAD")
    const session = await call(testConfig(), new Jar(), "/api/auth/session", { method: "DELETE" })
    expect(session.headers.get("allow")).toBe("GET, HEAD, POST")
  })

  it("serves /signout/callback/:id on GET only, and nothing under it that is not one provider id", async () => {
    const post = await call(testConfig(), new Jar(), "/api/auth/signout/callback/acme", { method: "POST" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
    for (const path of ["/api/auth/signout/callback/a/b", "/api/auth/signout/elsewhere/acme"]) {
      expect((await call(testConfig(), new Jar(), path)).status).toBe(404)
    }
    // A provider whose flow signs out nowhere else: a typed refusal, not a 500.
    const plain = await call(testConfig(), new Jar(), "/api/auth/signout/callback/nobody")
    expect(plain.status).toBe(302)
    expect(plain.headers.get("location")).toContain("error=InvalidProvider")
  })

  it("answers a body that breaks off mid-upload with a 4xx, not a 503", async () => {
    const errors: string[] = []
    const config = testConfig({ logger: { error: (error) => errors.push(error.code), warn: () => undefined } })
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("csrfToken=abc&"))
        controller.error(new Error("socket hang up"))
      },
    })
    const request = new Request("http://localhost:3000/api/auth/signin/acme", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit)
    const response = await Auth(request, config)
    expect(response.status).toBeLessThan(500)
    expect(errors).toEqual(["UnknownAction"])
  })

  it("reads up to two segments after /mfa (/mfa/totp/setup), and one after every other action", () => {
    expect(parseRoute("/api/auth/mfa", "/api/auth")).toEqual({ action: "mfa", providerId: undefined })
    expect(parseRoute("/api/auth/mfa/totp/setup", "/api/auth")).toEqual({ action: "mfa", providerId: "totp/setup" })
    expect(parseRoute("/api/auth/mfa/totp/setup/x", "/api/auth")).toBeUndefined()
    expect(parseRoute("/api/auth/mfa//setup", "/api/auth")).toBeUndefined()
    expect(parseRoute("/api/auth/accounts/unlink/x", "/api/auth")).toBeUndefined()
    expect(parseRoute("/api/auth/reauth", "/api/auth")).toEqual({ action: "reauth", providerId: undefined })
  })

  it("honours basePath", async () => {
    const response = await Auth(new Request("http://localhost:3000/auth/providers"), testConfig({ basePath: "/auth/" }))
    expect(response.status).toBe(200)
  })

  it("refuses an untrusted host with a 400, not a 500", async () => {
    const response = await Auth(new Request("http://localhost:3000/api/auth/session"), testConfig({ trustHost: false }))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "UntrustedHost" })
  })

  it("uses the forwarded host only when trusted", async () => {
    const response = await Auth(
      new Request("http://internal:8080/api/auth/providers", { headers: { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" } }),
      testConfig(),
    )
    expect(((await response.json()) as { acme: { signinUrl: string } }).acme.signinUrl).toBe("https://app.example/api/auth/signin/acme")
  })

  it("refuses a forwarded host that a URL parser would read as another origin", async () => {
    for (const host of ["evil.example/path", "@evil.example", "app.example@evil.example", "app.example:3000#x", "a b", "[::1"]) {
      const response = await Auth(new Request("http://localhost:3000/api/auth/providers", { headers: { "x-forwarded-host": host } }), testConfig())
      expect(response.status, host).toBe(400)
      expect(await response.json(), host).toMatchObject({ error: "UntrustedHost" })
    }
    for (const [host, origin] of [["my_app:8080", "http://my_app:8080"], ["[::1]:3000", "http://[::1]:3000"], ["App.Example.", "http://app.example."]]) {
      const response = await Auth(new Request("http://localhost:3000/api/auth/providers", { headers: { "x-forwarded-host": host as string } }), testConfig())
      expect(((await response.json()) as { acme: { signinUrl: string } }).acme.signinUrl, host).toBe(`${origin as string}/api/auth/signin/acme`)
    }
  })

  it("renders the sign-in page with escaped provider names and brand colors, and no script", async () => {
    const provider = { id: "acme", name: '<img src=x onerror="alert(1)">', type: "oauth" as const, clientId: "c", clientSecret: "s", authorization: "https://a.example/a", token: "https://a.example/t", userinfo: "https://a.example/u", style: { brandColor: "#ff0000;background:url(x)" } }
    const response = await call(testConfig({ providers: [provider] }), new Jar(), "/api/auth/signin?error=OAuthAccountNotLinked&callbackUrl=%2Fback")
    const page = await response.text()
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
    expect(page).not.toContain("<script")
    expect(page).not.toContain("<img src=x")
    expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;")
    expect(page).not.toContain("url(x)")
    expect(page).toContain("already used with a different way of signing in")
    expect(page).toContain('name="callbackUrl" value="http://localhost:3000/back"')
  })

  it("shows the error page for known codes and a generic one for anything else", async () => {
    const denied = await call(testConfig(), new Jar(), "/api/auth/error?error=AccessDenied")
    expect(denied.status).toBe(403)
    expect(await denied.text()).toContain("This account is not allowed to sign in here.")
    const junk = await call(testConfig(), new Jar(), "/api/auth/error?error=%3Cscript%3E")
    expect(await junk.text()).not.toContain("<script>")
  })

  it("tells a person who cancelled at the provider that they cancelled, not that they were refused", async () => {
    const page = await (await call(testConfig(), new Jar(), "/api/auth/signin?error=AccessDenied")).text()
    expect(page).toContain("You cancelled the sign-in")
    expect(page).not.toContain("not allowed")
  })

  it("keeps its pages' URLs from other origins, yet lets their own form posts carry their Origin", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/signin")
    // `no-referrer` would make browsers send `Origin: null` on the page's forms, which SvelteKit's
    // CSRF check refuses (packages/sveltekit's browser test signs in through this page).
    expect(response.headers.get("referrer-policy")).toBe("same-origin")
  })

  it("shows a cancelled sign-in as a neutral notice, not as an error", async () => {
    const page = await (await call(testConfig(), new Jar(), "/api/auth/signin?error=AccessDenied")).text()
    expect(page).toMatch(/<p class="notice" role="status">You cancelled the sign-in/)
    expect(page).not.toContain('role="alert"')
    expect(page).not.toContain('class="error"')
  })

  it("points the site owner at the log only where core has just logged the failure, never on an error page anybody can link to", async () => {
    for (const code of ["Configuration", "MissingSecret", "UntrustedHost"]) {
      const typed = await (await call(testConfig(), new Jar(), `/api/auth/error?error=${code}`)).text()
      expect(typed).toContain("Sign-in is not working on this site right now.")
      expect(typed).not.toMatch(/\blog\b/i)
    }
    const errors: string[] = []
    const broken = { ...testConfig({ logger: { error: (error) => void errors.push(error.code) } }), secret: undefined }
    const logged = await call(broken, new Jar(), "/api/auth/signin", { headers: { accept: "text/html" } })
    expect(logged.status).toBe(503)
    expect(errors).toEqual(["MissingSecret"])
    expect(await logged.text()).toContain("Site owner: the server log says what went wrong.")
  })

  it("answers a browser's visit to an unknown auth path with an HTML page that links to sign-in", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/nothing-here", { headers: { accept: "text/html,application/xhtml+xml" } })
    expect(response.status).toBe(404)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
    const page = await response.text()
    expect(page).toContain("Page not found")
    expect(page).toContain('href="/api/auth/signin"')
  })

  it("redirects to the app's own pages when configured", async () => {
    const config = testConfig({ pages: { signIn: "/login", signOut: "/bye" } })
    const signin = await call(config, new Jar(), "/api/auth/signin?error=AccessDenied")
    expect(signin.headers.get("location")).toBe("http://localhost:3000/login?error=AccessDenied")
    const signout = await call(config, new Jar(), "/api/auth/signout")
    expect(signout.headers.get("location")).toBe("http://localhost:3000/bye")
  })

  it("refuses an unknown provider with a redirect to the error page", async () => {
    const config = testConfig()
    const jar = new Jar()
    const token = await csrfToken(config, jar)
    const response = await call(config, jar, "/api/auth/signin/nobody", { form: { csrfToken: token } })
    expect(response.headers.get("location")).toBe("http://localhost:3000/api/auth/error?error=InvalidProvider")
    const callback = await call(config, jar, "/api/auth/callback/nobody?code=x")
    expect(callback.headers.get("location")).toBe("http://localhost:3000/api/auth/error?error=InvalidProvider")
  })
})

describe("hostile requests", () => {
  const bodies: [string, BodyInit, string][] = [
    ["an oversized form", "a=" + "x".repeat(200_000), "application/x-www-form-urlencoded"],
    ["invalid JSON", "{", "application/json"],
    ["a JSON array", "[]", "application/json"],
    ["an unsupported type", "<xml/>", "application/xml"],
    ["binary garbage", new Uint8Array([0xff, 0xfe, 0x00, 0x01]), "application/x-www-form-urlencoded"],
  ]
  for (const [name, body, type] of bodies) {
    it(`answers ${name} without an exception or a 500`, async () => {
      for (const path of ["/api/auth/signin/acme", "/api/auth/callback/acme", "/api/auth/signout"]) {
        const response = await Auth(new Request(`http://localhost:3000${path}`, { method: "POST", body, headers: { "content-type": type } }), testConfig())
        expect(response.status).toBeGreaterThanOrEqual(300)
        expect(response.status).toBeLessThan(500)
        expect(await response.text()).not.toMatch(/\n\s+at /)
      }
    })
  }

  it("answers hostile cookies and paths without an exception or a 500", async () => {
    const cookies = ["authjs.session-token=%%%", "authjs.session-token.0=a; authjs.session-token.1=b", `authjs.csrf-token=${"|".repeat(9000)}`, "=;=;;", "authjs.state=x".repeat(500)]
    for (const cookie of cookies) {
      for (const path of ["/api/auth/session", "/api/auth/csrf", "/api/auth/callback/acme?code=x&state=y", "/api/auth/signin", "/api/auth/%E0%A4%A"]) {
        const response = await Auth(new Request(`http://localhost:3000${path}`, { headers: { cookie } }), testConfig())
        expect(response.status).toBeLessThan(500)
      }
    }
  })
})
