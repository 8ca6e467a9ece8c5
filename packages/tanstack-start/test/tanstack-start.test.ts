/**
 * `TanStackStartAuth` as TanStack Start calls it, served in process: the server route's `GET` and
 * `POST` with `{ request }`, its request middleware with `next()`, and the server-side functions
 * inside a server function, whose request and response headers Start's `getWebRequest()` and
 * `appendResponseHeader()` reach (stubbed at that boundary: one `AsyncLocalStorage` per request,
 * as Start keeps its event) and whose thrown `Response` is the answer. Sign-ins go through a real
 * OpenID Provider (@portcullis/dev-idp) with the cookie-jar browser, which sends `Origin` and
 * `Sec-Fetch-Site` as a browser does. The built app in Chromium is `app.test.ts`'s.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "@portcullis/core"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import Credentials from "@portcullis/providers/credentials"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { expectedRecentAuthWalk, integrationTestConfig, walkRecentAuth } from "@portcullis/test-kit/idp-sign-in"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { TanStackStartAuth, type TanStackStartAuthResult } from "../src/index.js"

/** What Start keeps per request: the request, and the headers it adds to the response. */
const event = new AsyncLocalStorage<{ request: Request; headers: Headers }>()

vi.mock("@tanstack/react-start/server", () => ({
  getWebRequest: () => (event.getStore() ?? expect.unreachable("called outside a request")).request,
  appendResponseHeader: (name: string, value: string) => {
    ;(event.getStore() ?? expect.unreachable("called outside a request")).headers.append(name, value)
  },
}))

const APP = "http://localhost:3000"
const CLIENT = { id: "tss-test", secret: "tss-test-client-secret" }
const ALICE = { login: "alice@example.com", password: "alice-password" }
const FORM = { "content-type": "application/x-www-form-urlencoded" }

let idp: DevIdp
/** The app the IdP's back-channel logout posts reach. */
let current: ((request: Request) => Promise<Response>) | undefined

beforeAll(async () => {
  idp = await startDevIdp({
    consent: "auto",
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: ["idp", "idp-post"].map((id) => `${APP}/api/auth/callback/${id}`),
        backchannel_logout_uri: `${APP}/api/auth/backchannel-logout/idp`,
      },
    ],
    fetch: (request) => (current ?? expect.unreachable("no app"))(request),
  })
})

afterAll(async () => {
  await idp.close()
})

function config(overrides: Partial<AuthConfig> = {}): AuthConfig & { errors: string[] } {
  const credentials = Credentials({ credentials: { username: {}, password: {} }, authorize: (input) => (input.password === "right" ? { id: "ada", email: "ada@example.com" } : null) })
  return integrationTestConfig<AuthConfig>({ issuer: idp.issuer, client: CLIENT, secret: "a-tanstack-start-test-secret-of-32-chars", adapter: MemoryAdapter(), credentials }, overrides)
}

/** A server function as Start runs one: its value as JSON with the headers added to the response, or the `Response` it returned or threw. */
async function serverFunction(request: Request, handler: () => Promise<unknown>): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json" })
  try {
    const value = await event.run({ request, headers }, handler)
    if (value instanceof Response) return value
    return new Response(JSON.stringify(value ?? null), { headers })
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

/**
 * The app as the README writes it: the server route `/api/auth/$`, a server route behind
 * `authMiddleware` at `/me`, and server functions calling `auth()`, `signIn(form)`,
 * `signOut(form)` and the session and account functions.
 */
function app(start: TanStackStartAuthResult): (request: Request) => Promise<Response> {
  const functions: Record<string, (request: Request) => Promise<unknown>> = {
    "/session": async () => (await start.auth())?.user?.email ?? "signed out",
    "/signin": async (request) => start.signIn(await request.formData()),
    "/signout": async (request) => start.signOut(await request.formData()),
    "/token": () => start.getAccessToken("idp"),
    "/recent": () => start.requireRecentAuth(),
    "/devices": () => start.listSessions(),
    "/devices/others": () => start.revokeSessions({ others: true }),
    "/unlink": () => start.unlinkAccount({ provider: "idp" }),
  }
  const serve = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/api/auth/")) return (request.method === "GET" ? start.GET : start.POST)({ request })
    if (pathname === "/me") {
      const run = start.authMiddleware as unknown as { options: { server: (options: object) => Promise<{ response: Response }> } }
      const next = ({ context }: { context: { session: { user?: { email?: string } } | null } }) => Promise.resolve({ request, pathname, context, response: Response.json(context.session?.user?.email ?? "signed out") })
      return (await run.options.server({ request, pathname, context: {}, next })).response
    }
    const fn = functions[pathname]
    return fn === undefined ? new Response("not found", { status: 404 }) : serverFunction(request, () => fn(request))
  }
  current = serve
  return serve
}

function browserFor(serve: (request: Request) => Promise<Response>): TestBrowser {
  return new TestBrowser({ routes: { [APP]: serve } })
}

/** Signs in with the provider through the form posted to the sign-in server function; returns where the browser lands. */
async function signIn(browser: TestBrowser, provider = "idp"): Promise<Page> {
  const login = await browser.navigate(`${APP}/signin`, { method: "POST", headers: FORM, body: new URLSearchParams({ providerId: provider, redirectTo: "/" }), initiator: `${APP}/` })
  if (new URL(login.url).origin === APP) return login
  let page = await browser.submitForm(login, { values: ALICE })
  // A form_post answer is a page whose form posts the code to the app.
  for (let i = 0; i < 3 && new URL(page.url).origin !== APP && page.body.includes("<form"); i++) page = await browser.submitForm(page)
  return page
}

async function who(browser: TestBrowser, path = "/session"): Promise<unknown> {
  return (await browser.request(`${APP}${path}`)).json()
}

describe("requireRecentAuth", () => {
  it("V7.5.1: answers the session after a recent sign-in, and the re-authentication page once it is stale", async () => {
    const browser = browserFor(app(TanStackStartAuth(config({ session: { strategy: "jwt" } }))))
    const signIn = () => browser.navigate(`${APP}/signin`, { method: "POST", headers: FORM, body: new URLSearchParams({ providerId: "credentials", username: "ada", password: "right", redirectTo: "/" }), initiator: `${APP}/` })
    const walked = await walkRecentAuth(browser, { app: APP, signIn, clock: vi })
    expect(walked).toMatchObject(expectedRecentAuthWalk(APP, "ada@example.com"))
  })
})

describe("the server route and auth()", () => {
  it("serves the auth routes from /api/auth/$ and signs in through the dev IdP; auth() in a server function and the request middleware see the session", async () => {
    const authConfig = config()
    const browser = browserFor(app(TanStackStartAuth(authConfig)))
    expect([await who(browser), await who(browser, "/me")]).toEqual(["signed out", "signed out"])
    const providers = (await (await browser.request(`${APP}/api/auth/providers`)).json()) as Record<string, { callbackUrl: string }>
    expect(providers.idp?.callbackUrl).toBe(`${APP}/api/auth/callback/idp`)
    expect((await signIn(browser)).url).toBe(`${APP}/`)
    expect([await who(browser), await who(browser, "/me")]).toEqual([ALICE.login, ALICE.login])
    expect(authConfig.errors).toEqual([])
  })

  it("puts a renewed session cookie on the server function's response and on the middleware's", async () => {
    const browser = browserFor(app(TanStackStartAuth(config({ session: { strategy: "jwt", updateAge: 0 } }))))
    await signIn(browser)
    for (const path of ["/session", "/me"]) {
      const response = await browser.request(`${APP}${path}`)
      expect(await response.json()).toBe(ALICE.login)
      expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("authjs.session-token="))).toHaveLength(1)
    }
  })

  it("lets the provider's response_mode=form_post callback (a cross-site POST to the server route) reach core, which checks state and PKCE (ASVS V10.2.1)", async () => {
    const authConfig = config()
    const browser = browserFor(app(TanStackStartAuth(authConfig)))
    expect((await signIn(browser, "idp-post")).url).toBe(`${APP}/`)
    expect(await who(browser)).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("lets the provider's back-channel logout (a form POST without Origin, OpenID Connect Back-Channel Logout 1.0 §2.5) end the session", async () => {
    const browser = browserFor(app(TanStackStartAuth(config())))
    await signIn(browser)
    const [sent] = await idp.endSessions("alice")
    expect(sent).toMatchObject({ clientId: CLIENT.id, error: undefined })
    expect(await who(browser)).toBe("signed out")
  })
})

describe("signIn and signOut in server functions", () => {
  it("signs in with a posted credentials form (a 303 with the session cookie) and out, each where the form says", async () => {
    const browser = browserFor(app(TanStackStartAuth(config({ session: { strategy: "jwt" } }))))
    const body = new URLSearchParams({ providerId: "credentials", username: "ada", password: "right", redirectTo: "/" })
    const answer = await browser.request(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: `${APP}/`, redirect: "manual" })
    expect([answer.status, answer.headers.get("location")]).toEqual([303, `${APP}/`])
    expect(await who(browser)).toBe("ada@example.com")
    const out = await browser.request(`${APP}/signout`, { method: "POST", headers: FORM, body: "redirectTo=/bye", initiator: `${APP}/`, redirect: "manual" })
    expect([out.status, out.headers.get("location")]).toEqual([303, `${APP}/bye`])
    expect(await who(browser)).toBe("signed out")
  })

  it("returns the URL with the cookies on the response for redirect=false, and a wrong password lands on the sign-in page with its code", async () => {
    const browser = browserFor(app(TanStackStartAuth(config({ session: { strategy: "jwt" } }))))
    const wrong = new URLSearchParams({ providerId: "credentials", username: "ada", password: "wrong", redirectTo: "/", redirect: "false" })
    expect(await (await browser.request(`${APP}/signin`, { method: "POST", headers: FORM, body: wrong, initiator: `${APP}/` })).json()).toMatch(/\/api\/auth\/signin\?.*error=CredentialsSignin/)
    const right = new URLSearchParams({ providerId: "credentials", username: "ada", password: "right", redirectTo: "/", redirect: "false" })
    const answer = await browser.request(`${APP}/signin`, { method: "POST", headers: FORM, body: right, initiator: `${APP}/` })
    expect([answer.status, await answer.json()]).toEqual([200, `${APP}/`])
    expect(await who(browser)).toBe("ada@example.com")
  })

  it("refuses a sign-in posted from another site with 403, by Sec-Fetch-Site and by Origin, since Start checks no origin on server functions (OWASP ASVS V3.5.1)", async () => {
    const serve = app(TanStackStartAuth(config()))
    const body = "providerId=credentials&username=ada&password=right"
    const forged = await browserFor(serve).request(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: "https://evil.example/", redirect: "manual" })
    expect([forged.status, forged.headers.getSetCookie()]).toEqual([403, []])
    const byOrigin = await serve(new Request(`${APP}/signout`, { method: "POST", headers: { ...FORM, origin: "https://evil.example" }, body: "" }))
    expect(byOrigin.status).toBe(403)
    const garbled = await serve(new Request(`${APP}/signin`, { method: "POST", headers: { ...FORM, origin: "null" }, body }))
    expect(garbled.status).toBe(403)
  })
})

describe("the session and account functions", () => {
  it("getAccessToken, listSessions, revokeSessions({ others }) and unlinkAccount answer for the signed-in user", async () => {
    const serve = app(TanStackStartAuth(config()))
    const laptop = browserFor(serve)
    const phone = browserFor(serve)
    await signIn(laptop)
    await signIn(phone)
    expect(await (await laptop.request(`${APP}/token`)).json()).toMatchObject({ accessToken: expect.stringMatching(/./) as unknown })
    const devices = (await (await laptop.request(`${APP}/devices`)).json()) as { current: boolean }[]
    expect(devices.map((device) => device.current)).toEqual([true, false])
    expect((await laptop.request(`${APP}/devices/others`, { method: "POST", initiator: "https://evil.example/" })).status).toBe(403)
    expect(await (await laptop.request(`${APP}/devices/others`, { method: "POST", initiator: `${APP}/` })).json()).toMatchObject({ revoked: 1 })
    expect(await who(phone)).toBe("signed out")
    // Alice's only way in: core refuses to unlink it.
    const unlinked = await laptop.request(`${APP}/unlink`, { method: "POST", initiator: `${APP}/` })
    expect([unlinked.status, await unlinked.json()]).toEqual([400, expect.objectContaining({ error: "LastSignInMethod" })])
  })
})
