/**
 * @portcullis/express on real Express 4 and 5 servers: a whole OpenID Connect sign-in against the
 * dev IdP, the session read server-side with getSession (and its renewal reaching the client),
 * trust proxy, several Set-Cookie headers and hostile bodies.
 */
import { TestBrowser } from "@portcullis/test-kit/browser"
import { afterAll, describe, expect, it, vi } from "vitest"
// Imported by path, as core's tests do: the memory adapter is not a dependency of this package.
import { MemoryAdapter } from "../../adapter-memory/src/index.js"
import { MOUNTS, startApp, type AppOptions, type ExpressVersion, type RunningApp } from "./app.js"

const ALICE = { login: "alice@example.com", password: "alice-password" }

const running: RunningApp[] = []

async function start(options: AppOptions): Promise<RunningApp> {
  const app = await startApp(options)
  running.push(app)
  return app
}

afterAll(async () => {
  await Promise.all(running.map((app) => app.close()))
})

async function csrf(browser: TestBrowser, app: RunningApp): Promise<string> {
  const response = await browser.request(`${app.url}/auth/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

/** Signs in through the sign-in form, the IdP's login page and the callback; returns where it lands. */
async function signIn(browser: TestBrowser, app: RunningApp, callbackUrl = "/me"): Promise<{ url: string; body: string }> {
  const csrfToken = await csrf(browser, app)
  const login = await browser.navigate(`${app.url}/auth/signin/idp`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl }),
    initiator: `${app.url}/auth/signin`,
  })
  expect(new URL(login.url).origin).toBe(app.idp.issuer)
  return browser.submitForm(login, { values: ALICE })
}

async function me(browser: TestBrowser, app: RunningApp): Promise<{ session: { user?: { email?: string } } | null; response: Response }> {
  const response = await browser.request(`${app.url}/me`)
  return { session: ((await response.json()) as { session: { user?: { email?: string } } | null }).session, response }
}

/** The URLs `GET /providers` advertises: built from the origin Auth() resolved for the request. */
async function advertisedCallback(app: RunningApp, headers: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/auth/providers`, { headers })
}

describe.each([4, 5] as ExpressVersion[])("Express %i", (version) => {
  // Tests that need nothing special share one app (and OpenID Provider) per version.
  let shared: Promise<RunningApp> | undefined
  const defaultApp = (): Promise<RunningApp> => (shared ??= start({ version }))

  it.each(MOUNTS[version])("signs in, reads the session server-side and signs out, mounted at %s", async (mount) => {
    const app = await start({ version, mount })
    const browser = new TestBrowser()
    expect((await me(browser, app)).session).toBeNull()

    const landed = await signIn(browser, app)
    expect(landed.url).toBe(`${app.url}/me`)
    expect(JSON.parse(landed.body)).toMatchObject({ session: { user: { email: "alice@example.com" } } })

    const csrfToken = await csrf(browser, app)
    const out = await browser.navigate(`${app.url}/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/me" }),
      initiator: `${app.url}/auth/signout`,
    })
    expect(JSON.parse(out.body)).toEqual({ session: null })
    expect(app.errors).toEqual([])
  })

  it("reads the body stream itself when no body parser is mounted", async () => {
    const app = await start({ version, bodyParsers: false })
    const landed = await signIn(new TestBrowser(), app)
    expect(JSON.parse(landed.body)).toMatchObject({ session: { user: { email: "alice@example.com" } } })
  })

  it("takes its base path from a mount without a wildcard", async () => {
    const app = await start({ version, mount: "/auth" })
    const response = await fetch(`${app.url}/auth/providers`)
    const { idp } = (await response.json()) as { idp: { callbackUrl: string } }
    expect(idp.callbackUrl).toBe(`${app.url}/auth/callback/idp`)
  })

  it("serves the config's basePath when registered as a route rather than mounted", async () => {
    const app = await start({ version, route: true, config: { basePath: "/auth" } })
    const response = await fetch(`${app.url}/auth/providers`)
    const { idp } = (await response.json()) as { idp: { callbackUrl: string } }
    expect(idp.callbackUrl).toBe(`${app.url}/auth/callback/idp`)
  })

  it("accepts a JSON sign-in body that express.json() already parsed", async () => {
    const app = await defaultApp()
    const browser = new TestBrowser()
    const csrfToken = await csrf(browser, app)
    const response = await browser.request(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-auth-return-redirect": "1" },
      body: JSON.stringify({ csrfToken, callbackUrl: "/me" }),
      initiator: `${app.url}/auth/signin`,
    })
    expect(response.status).toBe(200)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).origin).toBe(app.idp.issuer)
  })

  it("hands getAccessToken the signed-in user's provider token, and null when signed out", async () => {
    const app = await start({ version, config: { adapter: MemoryAdapter() } })
    const browser = new TestBrowser()
    const signedOut = (await (await browser.request(`${app.url}/token`)).json()) as { token: unknown }
    expect(signedOut.token).toBeNull()
    await signIn(browser, app)
    const { token } = (await (await browser.request(`${app.url}/token`)).json()) as { token: { accessToken?: unknown; tokenType?: unknown } | null }
    expect(typeof token?.accessToken).toBe("string")
    expect(token?.tokenType).toBe("bearer")
    const userinfo = await fetch(`${app.idp.issuer}/me`, { headers: { authorization: `Bearer ${String(token?.accessToken)}` } })
    expect(userinfo.status).toBe(200)
  })

  it("lists the user's sessions through the mounted route and listSessions, and ends the other device's with revokeSessions", async () => {
    const app = await start({ version, config: { adapter: MemoryAdapter(), session: { strategy: "database" } } })
    const laptop = new TestBrowser()
    const phone = new TestBrowser()
    await signIn(laptop, app)
    await signIn(phone, app)
    const routed = (await (await laptop.request(`${app.url}/auth/sessions`)).json()) as { current: boolean }[]
    expect(routed.map((entry) => entry.current)).toEqual([true, false])
    const listed = (await (await laptop.request(`${app.url}/devices`)).json()) as { sessions: { current: boolean }[] }
    expect(listed.sessions.map((entry) => entry.current)).toEqual([true, false])
    expect(await (await laptop.request(`${app.url}/devices/others`, { method: "POST" })).json()).toEqual({ revoked: 1 })
    expect((await me(phone, app)).session).toBeNull()
    expect((await me(laptop, app)).session?.user?.email).toBe("alice@example.com")
    const stranger = (await (await new TestBrowser().request(`${app.url}/devices`)).json()) as { sessions: unknown }
    expect(stranger.sessions).toBeNull()
  })

  it("V7.5.1: requireRecentAuth answers the session after a recent sign-in, and the re-authentication page once it is stale", async () => {
    const app = await defaultApp()
    const browser = new TestBrowser()
    expect(await (await browser.request(`${app.url}/recent`)).json()).toEqual({ ok: false, url: `${app.url}/auth/signin?callbackUrl=${encodeURIComponent(`${app.url}/recent`)}` })
    await signIn(browser, app)
    expect(await (await browser.request(`${app.url}/recent`)).json()).toMatchObject({ ok: true, session: { user: { email: "alice@example.com" } } })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 601_000)
    try {
      expect(await (await browser.request(`${app.url}/recent`)).json()).toEqual({ ok: false, url: `${app.url}/auth/reauth?callbackUrl=${encodeURIComponent(`${app.url}/recent`)}` })
    } finally {
      vi.useRealTimers()
    }
  })

  it("forwards a session renewal found by getSession to the browser", async () => {
    // updateAge 0: every read slides the session, so the read in /me must set a new cookie.
    const app = await start({ version, config: { session: { updateAge: 0 } } })
    const browser = new TestBrowser()
    await signIn(browser, app)
    const before = browser.cookies(app.url).find((cookie) => cookie.name === "authjs.session-token")?.value
    const { session, response } = await me(browser, app)
    expect(session?.user?.email).toBe("alice@example.com")
    const renewed = response.headers.getSetCookie().filter((cookie) => cookie.startsWith("authjs.session-token="))
    expect(renewed).toHaveLength(1)
    const after = browser.cookies(app.url).find((cookie) => cookie.name === "authjs.session-token")?.value
    expect(after).toBeDefined()
    expect(after).not.toBe(before)
  })

  it("sends each Set-Cookie as its own header, beside the app's own cookie", async () => {
    const app = await defaultApp()
    const browser = new TestBrowser()
    const csrfToken = await csrf(browser, app)
    const response = await browser.request(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/me" }),
      initiator: `${app.url}/auth/signin`,
    })
    expect(response.status).toBe(302)
    const names = response.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf("=")))
    expect(names.sort()).toEqual(["app-visit", "authjs.callback-url", "authjs.nonce", "authjs.pkce.code_verifier", "authjs.state"])
  })

  it("ignores X-Forwarded-Host and -Proto when trust proxy is off", async () => {
    const app = await defaultApp()
    const response = await advertisedCallback(app, { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" })
    const { idp } = (await response.json()) as { idp: { callbackUrl: string } }
    expect(idp.callbackUrl).toBe(`${app.url}/auth/callback/idp`)
  })

  it("honours X-Forwarded-Host and -Proto when trust proxy is on", async () => {
    // The proxy names an origin the app lists, as core requires before building URLs from it.
    const app = await start({ version, trustProxy: "loopback", config: { allowedOrigins: ["https://app.example:8443"] } })
    const response = await advertisedCallback(app, { "x-forwarded-host": "app.example:8443", "x-forwarded-proto": "https" })
    const { idp } = (await response.json()) as { idp: { callbackUrl: string } }
    expect(idp.callbackUrl).toBe("https://app.example:8443/auth/callback/idp")
  })

  describe("per-client limits keyed by req.ip", () => {
    const tight = { rateLimit: { perClient: { signIn: { limit: 2 } } } }
    const signInFrom = async (app: RunningApp, forwardedFor: string) =>
      (await fetch(`${app.url}/auth/signin/idp`, { method: "POST", redirect: "manual", headers: { "x-forwarded-for": forwardedFor } })).status

    it("counts every request by its socket address when trust proxy is off, whatever X-Forwarded-For says", async () => {
      const app = await start({ version, config: tight })
      const answers = [await signInFrom(app, "203.0.113.1"), await signInFrom(app, "203.0.113.2"), await signInFrom(app, "203.0.113.3")]
      expect(answers.slice(0, 2).every((status) => status !== 429)).toBe(true)
      expect(answers[2]).toBe(429)
    })

    it("counts each client the trusted proxy names when trust proxy is on, and answers 429 with Retry-After", async () => {
      const app = await start({ version, trustProxy: "loopback", config: tight })
      // A client's own entries left of the proxy's count for nothing: Express takes the hop the proxy appended.
      for (const header of ["203.0.113.1", "6.6.6.6, 203.0.113.1"]) expect(await signInFrom(app, header)).not.toBe(429)
      const refused = await fetch(`${app.url}/auth/signin/idp`, { method: "POST", redirect: "manual", headers: { "x-forwarded-for": "7.7.7.7, 203.0.113.1" } })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(await signInFrom(app, "203.0.113.2")).not.toBe(429)
      // IPv6 clients count by their /64.
      expect(await signInFrom(app, "2001:db8:5:6::1")).not.toBe(429)
      expect(await signInFrom(app, "2001:db8:5:6::2")).not.toBe(429)
      expect(await signInFrom(app, "2001:db8:5:6:ffff::3")).toBe(429)
      // The posts carry no CSRF token: those under the limit are refused for that, and nothing else fails.
      expect(app.errors.filter((error) => !error.startsWith("MissingCSRF:"))).toEqual([])
    })
  })

  it("answers 400 to a trusted forwarded host that smuggles a path", async () => {
    const app = await start({ version, trustProxy: true })
    const response = await advertisedCallback(app, { "x-forwarded-host": "evil.example/steal?x=" })
    expect(response.status).toBe(400)
  })

  it("answers 4xx, not 500, to a body over the parser's limit", async () => {
    const app = await defaultApp()
    const response = await fetch(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `csrfToken=${"a".repeat(300_000)}`,
    })
    expect(response.status).toBe(413)
  })

  it("answers 4xx, not 500, to a parsed body over core's limit", async () => {
    const app = await defaultApp()
    const response = await fetch(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: `csrfToken=${"a".repeat(80_000)}`,
    })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
  })

  it("answers 4xx, not 500, to a huge body no parser read", async () => {
    const app = await defaultApp()
    const response = await fetch(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "text/plain", accept: "application/json" },
      body: "a".repeat(1_000_000),
    })
    expect(response.status).toBe(400)
  })

  it("answers 400, not 500, to malformed JSON", async () => {
    const app = await defaultApp()
    const response = await fetch(`${app.url}/auth/signin/idp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{ not json",
    })
    expect(response.status).toBe(400)
  })

  it("reads no session from a forged cookie, and clears it", async () => {
    const app = await defaultApp()
    const response = await fetch(`${app.url}/me`, { headers: { cookie: "authjs.session-token=forged.value" } })
    expect(await response.json()).toEqual({ session: null })
    expect(response.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^authjs\.session-token=; Max-Age=0/))
  })
})
