/**
 * The middleware on real Hono apps served in process (`app.fetch`), signing in through a real
 * OpenID Provider (@portcullis/dev-idp, one for the file) with the cookie-jar browser, which sends
 * `Origin` and `Sec-Fetch-Site` as a browser does, so Hono's own `csrf()` judges its requests.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import Credentials from "@portcullis/providers/credentials"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { credentialsSignIn, csrfToken as kitCsrfToken, expectedRecentAuthWalk, integrationTestConfig, signInThroughIdp, walkRecentAuth } from "@portcullis/test-kit/idp-sign-in"
import { Hono } from "hono"
import { csrf } from "hono/csrf"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { authHandler, getAccessToken, getAuthUser, initAuthConfig, listSessions, requireRecentAuth, revokeSessions, unlinkAccount, verifyAuth, type AuthEnv, type HonoAuthConfig } from "../src/index.js"

const APP = "http://localhost:3000"
const CLIENT = { id: "hono-test", secret: "hono-test-client-secret" }
const ALICE = { login: "alice@example.com", password: "alice-password" }

let idp: DevIdp
/** The app the IdP's back-channel logout posts reach. */
let current: Hono<AuthEnv> | undefined

beforeAll(async () => {
  idp = await startDevIdp({
    consent: "auto",
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: ["idp", "idp-post"].flatMap((id) => [`${APP}/api/auth/callback/${id}`, `${APP}/v1/auth/callback/${id}`]),
        grant_types: ["authorization_code", "refresh_token"],
        backchannel_logout_uri: `${APP}/api/auth/backchannel-logout/idp`,
      },
    ],
    fetch: async (request) => (current ?? expect.unreachable("no app")).fetch(request),
  })
})

afterAll(async () => {
  await idp.close()
})

function config(overrides: Partial<HonoAuthConfig> = {}): HonoAuthConfig & { errors: string[] } {
  const credentials = Credentials({ credentials: { username: {}, password: {} }, authorize: (input) => (input.password === "right" ? { id: "ada", email: "ada@example.com" } : null) })
  return integrationTestConfig<HonoAuthConfig>({ issuer: idp.issuer, client: CLIENT, secret: "a-hono-test-secret-of-at-least-32-characters", adapter: MemoryAdapter(), credentials, checks: ["pkce", "state", "nonce"] }, overrides)
}

/** The app as the README shows it: `initAuthConfig` for everyone, `authHandler` on its path, then the app's routes. */
function honoApp(authConfig: HonoAuthConfig, options: { csrfFirst?: boolean } = {}): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>()
  if (options.csrfFirst === true) app.use(csrf())
  app.use(initAuthConfig(authConfig))
  app.use("/api/auth/*", authHandler())
  if (options.csrfFirst !== true) app.use(csrf())
  app.get("/", async (c) => c.text((await c.var.auth())?.user?.email ?? "signed out"))
  // A response the handler builds itself: a renewal must still reach it.
  app.get("/raw", async (c) => new Response((await c.var.auth())?.user?.email ?? "signed out"))
  app.get("/me", verifyAuth(), (c) => c.json(c.var.authUser.session))
  app.get("/user", async (c) => c.json(await getAuthUser(c)))
  app.get("/token", async (c) => c.json(await getAccessToken(c, "idp")))
  app.get("/devices", async (c) => c.json(await listSessions(c)))
  app.get("/recent", async (c) => c.json(await requireRecentAuth(c)))
  app.post("/devices/others", async (c) => c.json(await revokeSessions(c, { others: true })))
  app.post("/unlink", async (c) => unlinkAccount(c, { provider: "idp" }))
  app.post("/profile", (c) => c.text("saved"))
  current = app
  return app
}

function browserFor(app: Hono<AuthEnv>): TestBrowser {
  return new TestBrowser({ routes: { [APP]: (request) => Promise.resolve(app.fetch(request)) } })
}

const csrfToken = (browser: TestBrowser, base?: string): Promise<string> => kitCsrfToken(browser, APP, base)

function signIn(browser: TestBrowser, provider?: string, base?: string): Promise<Page> {
  return signInThroughIdp(browser, { app: APP, account: ALICE, provider, base })
}

describe("authHandler", () => {
  it("serves the routes under the path it is mounted on: /api/auth/*, and /auth/* of an app routed at /v1", async () => {
    const authConfig = config()
    const sub = new Hono().use("/auth/*", authHandler(authConfig))
    const app = new Hono().route("/v1", sub)
    const providers = (await (await app.request(`${APP}/v1/auth/providers`)).json()) as Record<string, { signinUrl: string }>
    expect(providers.idp?.signinUrl).toBe(`${APP}/v1/auth/signin/idp`)
    const browser = browserFor(app as unknown as Hono<AuthEnv>)
    expect((await signIn(browser, "idp", "/v1/auth")).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/v1/auth/session`)).json()).toMatchObject({ user: { email: ALICE.login } })
    expect(authConfig.errors).toEqual([])
  })

  it("takes the base path a mount with a parameter matched (/:tenant/auth/*), each tenant its own", async () => {
    const app = new Hono().use("/:tenant/auth/*", authHandler(config()))
    for (const tenant of ["acme", "globex"]) {
      const providers = (await (await app.request(`${APP}/${tenant}/auth/providers`)).json()) as Record<string, { callbackUrl: string }>
      expect(providers.idp?.callbackUrl).toBe(`${APP}/${tenant}/auth/callback/idp`)
    }
  })

  it("signs in with credentials after a middleware read the form body through Hono (c.req.parseBody())", async () => {
    const authConfig = config({ session: { strategy: "jwt" } })
    const app = new Hono<AuthEnv>()
    app.use(async (c, next) => {
      if (c.req.method === "POST") await c.req.parseBody()
      await next()
    })
    app.use("/api/auth/*", authHandler(authConfig))
    const browser = browserFor(app)
    const body = new URLSearchParams({ csrfToken: await csrfToken(browser), username: "ada", password: "right", callbackUrl: "/" })
    const landed = await browser.navigate(`${APP}/api/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, initiator: `${APP}/api/auth/signin` })
    expect(landed.url, authConfig.errors.join("\n")).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/api/auth/session`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("gives core the address getConnInfo reports, so the per-client limit answers the 31st sign-in start of a minute 429", async () => {
    const app = new Hono()
    app.use("/api/auth/*", authHandler(config({ getConnInfo: () => ({ remote: { address: "203.0.113.7" } }) })))
    const browser = browserFor(app as unknown as Hono<AuthEnv>)
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) {
      const body = new URLSearchParams({ csrfToken: await csrfToken(browser), callbackUrl: "/" })
      statuses.push((await browser.request(`${APP}/api/auth/signin/idp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, initiator: `${APP}/`, redirect: "manual" })).status)
    }
    expect(statuses.slice(0, 30).every((status) => status === 302), String(statuses)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })
})

describe("requireRecentAuth", () => {
  it("V7.5.1: answers the session after a recent sign-in, and the re-authentication page once it is stale", async () => {
    const browser = browserFor(honoApp(config({ session: { strategy: "jwt" } })))
    const walked = await walkRecentAuth(browser, { app: APP, signIn: () => credentialsSignIn(browser, APP, { username: "ada", password: "right" }), clock: vi })
    expect(walked).toMatchObject(expectedRecentAuthWalk(APP, "ada@example.com"))
  })
})

describe("reading the session: c.var.auth(), verifyAuth(), the server functions", () => {
  it("is signed out, then signed in through the dev IdP: c.var.auth(), verifyAuth's 401 and c.var.authUser", async () => {
    const authConfig = config()
    const browser = browserFor(honoApp(authConfig))
    expect(await (await browser.request(`${APP}/`)).text()).toBe("signed out")
    const refused = await browser.request(`${APP}/me`)
    expect([refused.status, await refused.json()]).toEqual([401, { error: "SignInRequired" }])
    expect((await signIn(browser)).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    expect(await (await browser.request(`${APP}/me`)).json()).toMatchObject({ user: { email: ALICE.login } })
    expect(authConfig.errors).toEqual([])
  })

  it("answers getAuthUser(c) as @hono/auth-js does: { session } when signed in, null when signed out", async () => {
    const browser = browserFor(honoApp(config()))
    expect(await (await browser.request(`${APP}/user`)).json()).toBeNull()
    await signIn(browser)
    expect(await (await browser.request(`${APP}/user`)).json()).toMatchObject({ session: { user: { email: ALICE.login } } })
  })

  it("takes the config as a function of the context, to read secrets from c.env as Workers give them", async () => {
    let built: HonoAuthConfig | undefined
    const app = new Hono<{ Bindings: { AUTH_SECRET: string } } & AuthEnv>()
    app.use(initAuthConfig((c) => (built ??= config({ secret: (c.env as { AUTH_SECRET: string }).AUTH_SECRET }))))
    app.use("/api/auth/*", authHandler())
    app.get("/", async (c) => c.text((await c.var.auth())?.user?.email ?? "signed out"))
    const env = { AUTH_SECRET: "a-secret-from-the-workers-env-of-32-chars" }
    expect(await (await app.request(`${APP}/`, {}, env)).text()).toBe("signed out")
    expect((await app.request(`${APP}/api/auth/providers`, {}, env)).status).toBe(200)
    expect(built?.secret).toBe(env.AUTH_SECRET)
  })

  it("adds a renewed session cookie to the response, also one the handler built with new Response()", async () => {
    const browser = browserFor(honoApp(config({ session: { strategy: "jwt", updateAge: 0 } })))
    await signIn(browser)
    for (const path of ["/", "/raw"]) {
      const response = await browser.request(`${APP}${path}`)
      expect(await response.text()).toBe(ALICE.login)
      expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("authjs.session-token=")), path).toHaveLength(1)
    }
  })

  it("getAccessToken, listSessions, revokeSessions({ others }) and unlinkAccount answer for the signed-in user", async () => {
    const authConfig = config()
    const app = honoApp(authConfig)
    const laptop = browserFor(app)
    const phone = browserFor(app)
    await signIn(laptop)
    await signIn(phone)
    expect(await (await laptop.request(`${APP}/token`)).json()).toMatchObject({ accessToken: expect.stringMatching(/./) as unknown })
    const devices = (await (await laptop.request(`${APP}/devices`)).json()) as { current: boolean }[]
    expect(devices.map((device) => device.current)).toEqual([true, false])
    const revoked = await laptop.request(`${APP}/devices/others`, { method: "POST", initiator: `${APP}/` })
    expect((await revoked.json()) as unknown).toMatchObject({ revoked: 1 })
    expect(await (await phone.request(`${APP}/`)).text()).toBe("signed out")
    // Alice's only way in: core refuses to unlink it.
    const unlinked = await laptop.request(`${APP}/unlink`, { method: "POST", initiator: `${APP}/` })
    expect([unlinked.status, await unlinked.json()]).toEqual([400, expect.objectContaining({ error: "LastSignInMethod" })])
  })
})

describe("Hono's csrf() left on (OWASP ASVS V3.5.1)", () => {
  it("still refuses the app's own form posted from another site, with authHandler mounted before it", async () => {
    const browser = browserFor(honoApp(config()))
    const forged = await browser.request(`${APP}/profile`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=x", initiator: "https://evil.example/" })
    expect(forged.status).toBe(403)
    const own = await browser.request(`${APP}/profile`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=x", initiator: `${APP}/` })
    expect(await own.text()).toBe("saved")
  })

  it("lets the provider's response_mode=form_post callback (a cross-site POST) reach core, which checks state and PKCE (ASVS 10.2.1)", async () => {
    const authConfig = config()
    const browser = browserFor(honoApp(authConfig))
    expect((await signIn(browser, "idp-post")).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("lets the provider's back-channel logout (a form POST without Origin, OpenID Connect Back-Channel Logout 1.0 §2.5) end the session", async () => {
    const browser = browserFor(honoApp(config()))
    await signIn(browser)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    const [sent] = await idp.endSessions("alice")
    expect(sent).toMatchObject({ clientId: CLIENT.id, error: undefined })
    expect(await (await browser.request(`${APP}/`)).text()).toBe("signed out")
  })

  it("refuses both with 403 when csrf() runs before authHandler: why the README mounts it first", async () => {
    const app = honoApp(config(), { csrfFirst: true })
    const browser = browserFor(app)
    const landed = await signIn(browser, "idp-post")
    expect(new URL(landed.url).pathname).toBe("/api/auth/callback/idp-post")
    expect(landed.response.status).toBe(403)
    const logout = await app.request(`${APP}/api/auth/backchannel-logout/idp`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "logout_token=x" })
    expect(logout.status).toBe(403)
  })
})
