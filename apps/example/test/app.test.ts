import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "@portcullis/core"
import { encode } from "@portcullis/core/jwt"
import type { OIDCConfig } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"

import { createApp, type AppOptions } from "../src/app.js"
import { createAuthConfig } from "../src/auth.js"
import { createDemoUserCheck, DEMO_USER, demoUserProvider } from "../src/demo-user.js"
import { selectEmailProvider } from "../src/email.js"

const APP = "http://localhost:3000"
const SECRET = "a-unit-test-secret-of-at-least-32-chars"
const DAY = 24 * 60 * 60 * 1000

// Never contacted: these tests stop before any request to the provider.
const demo: OIDCConfig = {
  id: "demo",
  name: "Dev IdP",
  type: "oidc",
  issuer: "http://127.0.0.1:9",
  clientId: "example-app",
  clientSecret: "unused",
  allowInsecureLoopbackRequests: true,
}

const alice = { id: "u-alice", name: "Alice Example", email: "alice@example.com", emailVerified: null, image: "http://127.0.0.1:9/a.svg" }

function app(auth: Partial<Parameters<typeof createAuthConfig>[0]> = {}, options: Partial<AppOptions> = {}) {
  const errors: string[] = []
  const sessionStrategy = auth.sessionStrategy ?? "database"
  const config: AuthConfig = createAuthConfig({
    providers: [demo],
    secret: SECRET,
    url: "http://localhost:3000",
    sessionStrategy,
    adapter: MemoryAdapter({
      users: [alice],
      sessions: [{ sessionToken: "alice-session", userId: alice.id, expires: new Date(Date.now() + DAY) }],
      // As a sign-in leaves them: a session without a record is refused.
      sessionRecords: [
        { id: "alice-session-record", userId: alice.id, sessionToken: "alice-session", createdAt: new Date(), lastSeenAt: new Date(), expires: new Date(Date.now() + DAY) },
        { id: "alice-jwt-record", userId: alice.id, sessionToken: null, createdAt: new Date(), lastSeenAt: new Date(), expires: new Date(Date.now() + DAY) },
      ],
    }),
    logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    ...auth,
  })
  const hono = createApp({
    auth: config,
    sessionStrategy,
    clientScript: "/* client */",
    demoIdpUrl: "http://127.0.0.1:9",
    providers: [],
    emailDelivery: "terminal",
    ...options,
  })
  return { hono, errors }
}

describe("the pages", () => {
  it("serves the signed-out home page with a strict policy", async () => {
    const response = await app().hono.request(`${APP}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect(response.headers.get("cache-control")).toBe("private, no-store")
    expect(await response.text()).toContain("You are not signed in")
  })

  it("sends a visitor without a session from /protected to the sign-in page, keeping the query", async () => {
    const response = await app().hono.request(`${APP}/protected?tab=1`)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("/api/auth/signin?callbackUrl=%2Fprotected%3Ftab%3D1")
  })

  it("shows the protected page to a user with a database session", async () => {
    const response = await app().hono.request(`${APP}/protected`, { headers: { cookie: "authjs.session-token=alice-session" } })
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain("Protected page")
    expect(page).toContain(">Alice Example</p>")
  })

  it("reads a JWT session when the strategy is jwt", async () => {
    const token = await encode({
      token: { sub: alice.id, name: "Alice Example", email: alice.email, picture: alice.image, sessionId: "alice-jwt-record" },
      secret: SECRET,
      salt: "authjs.session-token",
      maxAge: 3600,
    })
    const { hono } = app({ sessionStrategy: "jwt" })
    const response = await hono.request(`${APP}/`, { headers: { cookie: `authjs.session-token=${token}` } })
    const page = await response.text()
    expect(page).toContain(">Alice Example</p>")
    expect(page).toContain("JWT session")
  })

  it("treats an unreadable session cookie as signed out and clears it", async () => {
    const { hono } = app({ sessionStrategy: "jwt" })
    const response = await hono.request(`${APP}/protected`, { headers: { cookie: "authjs.session-token=forged" } })
    expect(response.status).toBe(302)
    expect(response.headers.get("set-cookie")).toMatch(/^authjs\.session-token=;.*Max-Age=0/i)
  })

  it("answers a failed session read with an error page, and reports it", async () => {
    const adapter = MemoryAdapter()
    adapter.getSessionAndUser = () => Promise.reject(new Error("the store is down"))
    const reported: unknown[] = []
    const { hono, errors } = app({ adapter }, { onError: (error) => reported.push(error) })
    const response = await hono.request(`${APP}/`, { headers: { cookie: "authjs.session-token=any" } })
    expect(response.status).toBe(503)
    expect(await response.text()).toContain("Something went wrong")
    expect(String(reported[0])).toMatch(/Reading the session failed: GET \/api\/auth\/session answered 503/)
    expect(errors[0]).toMatch(/^AdapterError/)
  })

  it("answers 404 with a page for unknown paths", async () => {
    const response = await app().hono.request(`${APP}/nothing-here`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain("Nothing is served at <code>/nothing-here</code>")
  })
})

describe("the assets", () => {
  it("serves the bundled client script and the stylesheet", async () => {
    const { hono } = app()
    const script = await hono.request(`${APP}/assets/client.js`)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(await script.text()).toBe("/* client */")
    const style = await hono.request(`${APP}/assets/style.css`)
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8")
  })

  it("serves an icon, also where browsers look for one unasked", async () => {
    const { hono } = app()
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const icon = await hono.request(`${APP}${path}`)
      expect(icon.status).toBe(200)
      expect(icon.headers.get("content-type")).toBe("image/svg+xml")
    }
  })
})

describe("the auth routes", () => {
  it("hands /api/auth/* to Auth()", async () => {
    const response = await app().hono.request(`${APP}/api/auth/providers`)
    expect(await response.json()).toMatchObject({ demo: { id: "demo", name: "Dev IdP", type: "oidc" } })
  })

  it("serves core's default sign-in page with the Dev IdP button", async () => {
    const page = await (await app().hono.request(`${APP}/api/auth/signin?callbackUrl=%2Fprotected`)).text()
    expect(page).toContain("Sign in with Dev IdP</span></button>")
    expect(page).toContain('name="callbackUrl" value="http://localhost:3000/protected"')
  })
})

describe("the demo user and email sign-in", () => {
  it("offers the email form and the demo user's username and password form on core's sign-in page", async () => {
    const email = selectEmailProvider({}, () => undefined).provider
    const providers = [demo, ...(email === undefined ? [] : [email]), demoUserProvider(createDemoUserCheck("a-demo-password"))]
    const page = await (await app({ providers }).hono.request(`${APP}/api/auth/signin`)).text()
    expect(page).toContain('action="http://localhost:3000/api/auth/signin/email"')
    expect(page).toContain('action="http://localhost:3000/api/auth/callback/credentials"')
    expect(page).toContain('<input id="credentials-password" name="password" type="password"')
    expect(page).toContain("Sign in with Demo user</span></button>")
  })

  it("stores the demo user in the default memory adapter, for database sessions", async () => {
    const config = createAuthConfig({ providers: [demo], secret: SECRET, url: "http://localhost:3000", sessionStrategy: "database" })
    expect(await config.adapter?.getUser?.(DEMO_USER.id)).toEqual(DEMO_USER)
  })
})

describe("check your email", () => {
  function emailApp() {
    const email = selectEmailProvider({}, () => undefined)
    return app({ providers: [demo, ...(email.provider === undefined ? [] : [email.provider])] }, { linkSentTo: email.linkSentTo }).hono
  }

  async function askForLink(hono: ReturnType<typeof emailApp>, address: string): Promise<Response> {
    const csrf = await hono.request(`${APP}/api/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ")
    return hono.request(`${APP}/api/auth/signin/email`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: address }).toString(),
    })
  }

  it("names the address the link was sent to, in a cookie only the check-email page gets", async () => {
    const hono = emailApp()
    const response = await askForLink(hono, " Carol@Example.org ")
    expect(response.headers.get("location")).toBe(`${APP}/api/auth/verify-request?provider=email&type=email`)
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("example.link-sent-to=")) ?? ""
    expect(cookie).toBe("example.link-sent-to=carol%40example.org; Path=/api/auth/verify-request; Max-Age=600; HttpOnly; SameSite=Lax")
    const page = await (await hono.request(`${APP}/api/auth/verify-request?provider=email&type=email`, { headers: { cookie: cookie.split(";")[0] ?? "" } })).text()
    expect(page).toContain('Your sign-in link for <strong data-testid="link-address">carol@example.org</strong> is ready.')
  })

  it("sets no cookie when no link was sent", async () => {
    const response = await askForLink(emailApp(), "not an address")
    expect(response.headers.get("location")).toContain("error=EmailSignInError")
    expect(response.headers.getSetCookie().join("\n")).not.toContain("example.link-sent-to")
  })

  it("shows a forged cookie's value only escaped, and ignores one that is not URL-encoded text", async () => {
    const hono = emailApp()
    const forged = await (await hono.request(`${APP}/api/auth/verify-request`, { headers: { cookie: `example.link-sent-to=${encodeURIComponent("<img src=x onerror=alert(1)>")}` } })).text()
    expect(forged).not.toContain("<img src=x")
    expect(forged).toContain("&lt;img src=x onerror=alert(1)&gt;")
    const garbled = await hono.request(`${APP}/api/auth/verify-request`, { headers: { cookie: "example.link-sent-to=%E0%A4%A" } })
    expect(garbled.status).toBe(200)
    expect(await garbled.text()).not.toContain("link-address")
  })
})
