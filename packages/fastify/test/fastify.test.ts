/**
 * The plugin on real Fastify apps (`app.inject()`, Fastify's whole request pipeline without a
 * socket), signing in through a real OpenID Provider (@portcullis/dev-idp, one for the file) with
 * the cookie-jar browser, which sends `Origin` and `Sec-Fetch-Site` as a browser does.
 */
import fastifyCookie from "@fastify/cookie"
import fastifyCsrf from "@fastify/csrf-protection"
import fastifyFormbody from "@fastify/formbody"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import Credentials from "@portcullis/providers/credentials"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { credentialsSignIn, csrfToken as kitCsrfToken, expectedRecentAuthWalk, integrationTestConfig, signInThroughIdp, walkRecentAuth } from "@portcullis/test-kit/idp-sign-in"
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { getAccessToken, listSessions, portcullis, requireRecentAuth, revokeSessions, unlinkAccount, type FastifyAuthConfig } from "../src/index.js"

const APP = "http://localhost:3000"
const CLIENT = { id: "fastify-test", secret: "fastify-test-client-secret" }
const ALICE = { login: "alice@example.com", password: "alice-password" }
const FORM = { "content-type": "application/x-www-form-urlencoded" }

let idp: DevIdp
/** The app the IdP's back-channel logout posts reach. */
let current: FastifyInstance | undefined

/** A web `Request` through `app.inject()`, and its answer as a web `Response`. */
async function inject(app: FastifyInstance, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const headers: Record<string, string> = { host: url.host }
  request.headers.forEach((value, name) => (headers[name] = value))
  const payload = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer())
  const answer = await app.inject({ method: request.method as "GET", url: `${url.pathname}${url.search}`, headers, ...(payload === undefined ? {} : { payload }) })
  const out = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) out.append(name, String(item))
  return new Response([101, 204, 304].includes(answer.statusCode) ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: out })
}

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
    fetch: (request) => inject(current ?? expect.unreachable("no app"), request),
  })
})

afterAll(async () => {
  await idp.close()
})

function config(overrides: Partial<FastifyAuthConfig> = {}): FastifyAuthConfig & { errors: string[] } {
  const credentials = Credentials({ credentials: { username: {}, password: {} }, authorize: (input) => (input.password === "right" ? { id: "ada", email: "ada@example.com" } : null) })
  return integrationTestConfig<FastifyAuthConfig>({ issuer: idp.issuer, client: CLIENT, secret: "a-fastify-test-secret-of-at-least-32-characters", adapter: MemoryAdapter(), credentials, checks: ["pkce", "state", "nonce"] }, overrides)
}

/**
 * The app as the README shows it: the plugin first, `@fastify/formbody` for the app's forms,
 * `@fastify/csrf-protection` on the app's own POST routes (or, with `globalCsrf`, as a root hook).
 */
async function fastifyApp(authConfig: FastifyAuthConfig, options: FastifyServerOptions & { globalCsrf?: boolean } = {}): Promise<FastifyInstance> {
  const { globalCsrf, ...fastifyOptions } = options
  const app = Fastify(fastifyOptions)
  await app.register(fastifyCookie)
  await app.register(fastifyFormbody)
  await app.register(fastifyCsrf)
  const csrf = app.csrfProtection.bind(app)
  if (globalCsrf === true) app.addHook("onRequest", csrf)
  await app.register(portcullis, authConfig)
  app.get("/", async (request) => (await request.auth())?.user?.email ?? "signed out")
  app.get("/twice", async (request) => {
    const [first, second] = [request.auth(), request.auth()]
    return { same: first === second, email: (await first)?.user?.email }
  })
  app.get("/with-cookie", async (request, reply) => {
    void reply.setCookie("theme", "dark", { path: "/" })
    return (await request.auth())?.user?.email ?? "signed out"
  })
  app.get("/form", async (_request, reply) => reply.generateCsrf())
  app.get("/token", async (request) => getAccessToken(request, "idp"))
  app.get("/devices", async (request) => listSessions(request))
  app.get("/recent", async (request) => requireRecentAuth(request))
  app.post("/devices/others", { preHandler: csrf }, async (request) => revokeSessions(request, { others: true }))
  app.post("/unlink", { preHandler: csrf }, async (request) => unlinkAccount(request, { provider: "idp" }))
  app.post("/profile", { preHandler: csrf }, (request) => ({ saved: request.body }))
  await app.ready()
  current = app
  return app
}

function browserFor(app: FastifyInstance): TestBrowser {
  return new TestBrowser({ routes: { [APP]: (request) => inject(app, request) } })
}

const csrfToken = (browser: TestBrowser, base?: string): Promise<string> => kitCsrfToken(browser, APP, base)

function signIn(browser: TestBrowser, provider?: string, base?: string): Promise<Page> {
  return signInThroughIdp(browser, { app: APP, account: ALICE, provider, base })
}

/** A post of the app's own, with the token `@fastify/csrf-protection` hands out. */
async function appPost(browser: TestBrowser, path: string, fields: Record<string, string> = {}): Promise<Response> {
  const token = await (await browser.request(`${APP}/form`)).text()
  return browser.request(`${APP}${path}`, { method: "POST", headers: FORM, body: new URLSearchParams({ ...fields, _csrf: token }), initiator: `${APP}/` })
}

describe("requireRecentAuth", () => {
  it("V7.5.1: answers the session after a recent sign-in, and the re-authentication page once it is stale", async () => {
    const browser = browserFor(await fastifyApp(config({ session: { strategy: "jwt" } })))
    const walked = await walkRecentAuth(browser, { app: APP, signIn: () => credentialsSignIn(browser, APP, { username: "ada", password: "right" }), clock: vi })
    expect(walked).toMatchObject(expectedRecentAuthWalk(APP, "ada@example.com"))
  })
})

describe("fastify.register(portcullis, config)", () => {
  it("serves the routes at {prefix}{basePath}: /api/auth by default, /v1/auth registered with prefix /v1 and basePath /auth", async () => {
    const plain = await fastifyApp(config())
    const providers = (await (await inject(plain, new Request(`${APP}/api/auth/providers`))).json()) as Record<string, { signinUrl: string }>
    expect(providers.idp?.signinUrl).toBe(`${APP}/api/auth/signin/idp`)

    const authConfig = config({ basePath: "/auth" })
    const app = Fastify()
    await app.register(async (v1) => {
      await v1.register(portcullis, authConfig)
      v1.get("/me", async (request) => (await request.auth())?.user?.email ?? "signed out")
    }, { prefix: "/v1" })
    await app.ready()
    const browser = browserFor(app)
    expect((await signIn(browser, "idp", "/v1/auth")).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/v1/me`)).text()).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("leaves @fastify/formbody to the app's routes and hands core the raw form: a credentials sign-in, the app's parser never called for it", async () => {
    const authConfig = config({ session: { strategy: "jwt" } })
    const app = Fastify()
    let parsed = 0
    app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      parsed++
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    })
    await app.register(portcullis, authConfig)
    app.post("/profile", (request) => request.body)
    await app.ready()
    const browser = browserFor(app)
    const body = new URLSearchParams({ csrfToken: await csrfToken(browser), username: "ada", password: "right", callbackUrl: "/" })
    const landed = await browser.navigate(`${APP}/api/auth/callback/credentials`, { method: "POST", headers: FORM, body, initiator: `${APP}/api/auth/signin` })
    expect(landed.url, authConfig.errors.join("\n")).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/api/auth/session`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(parsed).toBe(0)
    expect(await (await browser.request(`${APP}/profile`, { method: "POST", headers: FORM, body: "name=ada", initiator: `${APP}/` })).json()).toEqual({ name: "ada" })
    expect(parsed).toBe(1)
  })

  it("takes host, protocol and client address from Fastify: X-Forwarded-* only under trustProxy, the per-client limit keyed by request.ip (ASVS V4.1.3)", async () => {
    const forwarded = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }
    const direct = await fastifyApp(config())
    const ignored = (await (await inject(direct, new Request(`${APP}/api/auth/providers`, { headers: forwarded }))).json()) as Record<string, { signinUrl: string }>
    expect(ignored.idp?.signinUrl).toBe(`${APP}/api/auth/signin/idp`)
    const proxied = await fastifyApp(config(), { trustProxy: true })
    const trusted = (await (await inject(proxied, new Request(`${APP}/api/auth/providers`, { headers: forwarded }))).json()) as Record<string, { signinUrl: string }>
    expect(trusted.idp?.signinUrl).toBe("https://app.example/api/auth/signin/idp")
    // A Host that is not a plain host[:port] names no origin.
    expect((await direct.inject({ url: "/api/auth/providers", headers: { host: "evil.example/x" } })).statusCode).toBe(400)

    // Each start claims another client: only a proxy Fastify trusts may say so.
    const starts = async (app: FastifyInstance): Promise<number[]> => {
      const browser = browserFor(app)
      const statuses: number[] = []
      for (let i = 0; i < 31; i++) {
        const body = new URLSearchParams({ csrfToken: await csrfToken(browser), callbackUrl: "/" })
        statuses.push((await browser.request(`${APP}/api/auth/signin/idp`, { method: "POST", headers: { ...FORM, "x-forwarded-for": `203.0.113.${String(i)}` }, body, initiator: `${APP}/`, redirect: "manual" })).status)
      }
      return statuses
    }
    expect((await starts(await fastifyApp(config()))).at(-1)).toBe(429)
    expect((await starts(await fastifyApp(config(), { trustProxy: true }))).every((status) => status === 302)).toBe(true)
  })
})

describe("request.auth() and the server functions", () => {
  it("is signed out, then signed in through the dev IdP; one read per request however often it is called", async () => {
    const authConfig = config()
    const browser = browserFor(await fastifyApp(authConfig))
    expect(await (await browser.request(`${APP}/`)).text()).toBe("signed out")
    expect((await signIn(browser)).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    expect(await (await browser.request(`${APP}/twice`)).json()).toEqual({ same: true, email: ALICE.login })
    expect(authConfig.errors).toEqual([])
  })

  it("adds a renewed session cookie to the reply beside the app's own reply.setCookie (@fastify/cookie)", async () => {
    const browser = browserFor(await fastifyApp(config({ session: { strategy: "jwt", updateAge: 0 } })))
    await signIn(browser)
    const response = await browser.request(`${APP}/with-cookie`)
    expect(await response.text()).toBe(ALICE.login)
    const names = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0])
    expect(names.sort()).toEqual(["authjs.session-token", "theme"])
  })

  it("getAccessToken, listSessions, revokeSessions({ others }) and unlinkAccount answer for the signed-in user", async () => {
    const app = await fastifyApp(config())
    const laptop = browserFor(app)
    const phone = browserFor(app)
    await signIn(laptop)
    await signIn(phone)
    expect(await (await laptop.request(`${APP}/token`)).json()).toMatchObject({ accessToken: expect.stringMatching(/./) as unknown })
    const devices = (await (await laptop.request(`${APP}/devices`)).json()) as { current: boolean }[]
    expect(devices.map((device) => device.current)).toEqual([true, false])
    expect((await (await appPost(laptop, "/devices/others")).json()) as unknown).toMatchObject({ revoked: 1 })
    expect(await (await phone.request(`${APP}/`)).text()).toBe("signed out")
    // Alice's only way in: core refuses to unlink it.
    const unlinked = await appPost(laptop, "/unlink")
    expect([unlinked.status, await unlinked.json()]).toEqual([400, expect.objectContaining({ error: "LastSignInMethod" })])
  })
})

describe("@fastify/csrf-protection left on (OWASP ASVS V3.5.1)", () => {
  it("still refuses the app's own form posted without its token, and takes it with the token", async () => {
    const browser = browserFor(await fastifyApp(config()))
    const forged = await browser.request(`${APP}/profile`, { method: "POST", headers: FORM, body: "name=x", initiator: "https://evil.example/" })
    expect(forged.status).toBe(403)
    expect(await (await appPost(browser, "/profile", { name: "x" })).json()).toMatchObject({ saved: { name: "x" } })
  })

  it("lets the provider's response_mode=form_post callback (a cross-site POST) reach core, which checks state and PKCE (ASVS 10.2.1)", async () => {
    const authConfig = config()
    const browser = browserFor(await fastifyApp(authConfig))
    expect((await signIn(browser, "idp-post")).url).toBe(`${APP}/`)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("lets the provider's back-channel logout (a form POST without Origin or cookies, OpenID Connect Back-Channel Logout 1.0 §2.5) end the session", async () => {
    const browser = browserFor(await fastifyApp(config()))
    await signIn(browser)
    expect(await (await browser.request(`${APP}/`)).text()).toBe(ALICE.login)
    const [sent] = await idp.endSessions("alice")
    expect(sent).toMatchObject({ clientId: CLIENT.id, error: undefined })
    expect(await (await browser.request(`${APP}/`)).text()).toBe("signed out")
  })

  it("refuses both with 403 when csrfProtection is a root onRequest hook: why the README puts it on the app's routes", async () => {
    const app = await fastifyApp(config(), { globalCsrf: true })
    const browser = browserFor(app)
    const body = new URLSearchParams({ csrfToken: await csrfToken(browser), callbackUrl: "/" })
    const start = await browser.request(`${APP}/api/auth/signin/idp-post`, { method: "POST", headers: FORM, body, initiator: `${APP}/api/auth/signin`, redirect: "manual" })
    expect(start.status).toBe(403)
    const logout = await app.inject({ method: "POST", url: "/api/auth/backchannel-logout/idp", headers: FORM, payload: "logout_token=x" })
    expect(logout.statusCode).toBe(403)
  })
})
