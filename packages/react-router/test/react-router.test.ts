/**
 * `ReactRouterAuth`'s handlers and server functions as React Router calls them (with `{ request }`,
 * a thrown `Response` ending the request), served in process, signing in through a real OpenID
 * Provider (@portcullis/dev-idp, one for the file) with the cookie-jar browser, which sends
 * `Origin` and `Sec-Fetch-Site` as a browser does.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "@portcullis/core"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import Credentials from "@portcullis/providers/credentials"
import { expectedRecentAuthWalk, integrationTestConfig, walkRecentAuth } from "@portcullis/test-kit/idp-sign-in"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { ReactRouterAuth, type ReactRouterAuthResult } from "../src/index.js"

const APP = "http://localhost:3000"
const CLIENT = { id: "rr-test", secret: "rr-test-client-secret" }
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
  return integrationTestConfig<AuthConfig>({ issuer: idp.issuer, client: CLIENT, secret: "a-react-router-test-secret-of-32-characters", adapter: MemoryAdapter(), credentials }, overrides)
}

/**
 * The app as the README writes it, routed as React Router routes it: the resource route
 * `api.auth.$` (loader for GET, action otherwise), the root loader at `/`, the sign-in and
 * sign-out form actions, and routes calling the server functions. A thrown `Response` is the
 * answer, as React Router makes it.
 */
function app(rr: ReactRouterAuthResult): (request: Request) => Promise<Response> {
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    "/": async (request) => {
      const result = await rr.rootAuthLoader({ request })
      return Response.json(result.data.session?.user?.email ?? "signed out", result.init ?? {})
    },
    "/signin": async (request) => new Response(await rr.signInAction({ request })),
    "/signout": async (request) => new Response(await rr.signOutAction({ request })),
    "/token": async (request) => Response.json(await rr.getAccessToken(request, "idp")),
    "/recent": async (request) => Response.json(await rr.requireRecentAuth(request)),
    "/devices": async (request) => Response.json(await rr.listSessions(request)),
    "/devices/others": async (request) => Response.json(await rr.revokeSessions(request, { others: true })),
    "/unlink": (request) => rr.unlinkAccount(request, { provider: "idp" }),
  }
  const serve = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url)
    try {
      if (pathname.startsWith("/api/auth/")) return await (request.method === "GET" ? rr.loader : rr.action)({ request })
      return await (routes[pathname] ?? (() => Promise.resolve(new Response("not found", { status: 404 }))))(request)
    } catch (thrown) {
      if (thrown instanceof Response) return thrown
      throw thrown
    }
  }
  current = serve
  return serve
}

function browserFor(serve: (request: Request) => Promise<Response>): TestBrowser {
  return new TestBrowser({ routes: { [APP]: serve } })
}

/** Signs in with the provider through the app's own sign-in form action; returns where the browser lands. */
async function signIn(browser: TestBrowser, provider = "idp"): Promise<Page> {
  const body = new URLSearchParams({ providerId: provider, redirectTo: "/" })
  const login = await browser.navigate(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: `${APP}/` })
  if (new URL(login.url).origin === APP) return login
  let page = await browser.submitForm(login, { values: ALICE })
  // A form_post answer is a page whose form posts the code to the app.
  for (let i = 0; i < 3 && new URL(page.url).origin !== APP && page.body.includes("<form"); i++) page = await browser.submitForm(page)
  return page
}

async function who(browser: TestBrowser): Promise<unknown> {
  return (await browser.request(`${APP}/`)).json()
}

describe("requireRecentAuth", () => {
  it("V7.5.1: answers the session after a recent sign-in, and the re-authentication page once it is stale", async () => {
    const browser = browserFor(app(ReactRouterAuth(config({ session: { strategy: "jwt" } }))))
    const walked = await walkRecentAuth(browser, { app: APP, signIn: () => browser.navigate(`${APP}/signin`, { method: "POST", headers: FORM, body: new URLSearchParams({ providerId: "credentials", username: "ada", password: "right", redirectTo: "/" }), initiator: `${APP}/` }), clock: vi })
    expect(walked).toMatchObject(expectedRecentAuthWalk(APP, "ada@example.com"))
  })
})

describe("the resource route and the root loader", () => {
  it("serves the auth routes from api.auth.$ and signs in through the dev IdP; the root loader sees the session", async () => {
    const authConfig = config()
    const browser = browserFor(app(ReactRouterAuth(authConfig)))
    expect(await who(browser)).toBe("signed out")
    const providers = (await (await browser.request(`${APP}/api/auth/providers`)).json()) as Record<string, { callbackUrl: string }>
    expect(providers.idp?.callbackUrl).toBe(`${APP}/api/auth/callback/idp`)
    expect((await signIn(browser)).url).toBe(`${APP}/`)
    expect(await who(browser)).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("hands a renewed session cookie to the root loader's data(), so React Router writes it on the page", async () => {
    const browser = browserFor(app(ReactRouterAuth(config({ session: { strategy: "jwt", updateAge: 0 } }))))
    await signIn(browser)
    const response = await browser.request(`${APP}/`)
    expect(await response.json()).toBe(ALICE.login)
    expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("authjs.session-token="))).toHaveLength(1)
  })

  it("lets the provider's response_mode=form_post callback (a cross-site POST to the resource route) reach core, which checks state and PKCE (ASVS V10.2.1)", async () => {
    const authConfig = config()
    const browser = browserFor(app(ReactRouterAuth(authConfig)))
    expect((await signIn(browser, "idp-post")).url).toBe(`${APP}/`)
    expect(await who(browser)).toBe(ALICE.login)
    expect(authConfig.errors).toEqual([])
  })

  it("lets the provider's back-channel logout (a form POST without Origin, OpenID Connect Back-Channel Logout 1.0 §2.5) end the session", async () => {
    const browser = browserFor(app(ReactRouterAuth(config())))
    await signIn(browser)
    const [sent] = await idp.endSessions("alice")
    expect(sent).toMatchObject({ clientId: CLIENT.id, error: undefined })
    expect(await who(browser)).toBe("signed out")
  })
})

describe("signInAction and signOutAction", () => {
  it("signs in with a credentials form (a 303 with the session cookie) and out, each back where the form says", async () => {
    const browser = browserFor(app(ReactRouterAuth(config({ session: { strategy: "jwt" } }))))
    const body = new URLSearchParams({ providerId: "credentials", username: "ada", password: "right", redirectTo: "/" })
    const answer = await browser.request(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: `${APP}/`, redirect: "manual" })
    expect([answer.status, answer.headers.get("location")]).toEqual([303, `${APP}/`])
    expect(await who(browser)).toBe("ada@example.com")
    const out = await browser.request(`${APP}/signout`, { method: "POST", headers: FORM, body: "redirectTo=/bye", initiator: `${APP}/`, redirect: "manual" })
    expect([out.status, out.headers.get("location")]).toEqual([303, `${APP}/bye`])
    expect(await who(browser)).toBe("signed out")
  })

  it("returns the URL instead of redirecting for redirect=false, and a wrong password lands on the sign-in page with its code", async () => {
    const browser = browserFor(app(ReactRouterAuth(config())))
    const body = new URLSearchParams({ providerId: "credentials", username: "ada", password: "wrong", redirectTo: "/", redirect: "false" })
    const answer = await browser.request(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: `${APP}/` })
    expect(await answer.text()).toMatch(/\/api\/auth\/signin\?.*error=CredentialsSignin/)
    expect(await who(browser)).toBe("signed out")
  })

  it("refuses a sign-in posted from another site with 403, by Sec-Fetch-Site and by Origin (OWASP ASVS V3.5.1)", async () => {
    const serve = app(ReactRouterAuth(config()))
    const body = "providerId=credentials&username=ada&password=right"
    const forged = await browserFor(serve).request(`${APP}/signin`, { method: "POST", headers: FORM, body, initiator: "https://evil.example/", redirect: "manual" })
    expect(forged.status).toBe(403)
    const byOrigin = await serve(new Request(`${APP}/signin`, { method: "POST", headers: { ...FORM, origin: "https://evil.example" }, body }))
    expect(byOrigin.status).toBe(403)
    expect(forged.headers.getSetCookie()).toEqual([])
  })

  it("answers 400, not 500, to a body that is not a form", async () => {
    const serve = app(ReactRouterAuth(config()))
    const answer = await serve(new Request(`${APP}/signin`, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body: "not multipart" }))
    expect(answer.status).toBe(400)
  })
})

describe("the server functions", () => {
  it("getAccessToken, listSessions, revokeSessions({ others }) and unlinkAccount answer for the signed-in user", async () => {
    const serve = app(ReactRouterAuth(config()))
    const laptop = browserFor(serve)
    const phone = browserFor(serve)
    await signIn(laptop)
    await signIn(phone)
    expect(await (await laptop.request(`${APP}/token`)).json()).toMatchObject({ accessToken: expect.stringMatching(/./) as unknown })
    const devices = (await (await laptop.request(`${APP}/devices`)).json()) as { current: boolean }[]
    expect(devices.map((device) => device.current)).toEqual([true, false])
    const revoked = await laptop.request(`${APP}/devices/others`, { method: "POST", initiator: `${APP}/` })
    expect((await revoked.json()) as unknown).toMatchObject({ revoked: 1 })
    expect(await who(phone)).toBe("signed out")
    expect((await laptop.request(`${APP}/devices/others`, { method: "POST", initiator: "https://evil.example/" })).status).toBe(403)
    // Alice's only way in: core refuses to unlink it.
    const unlinked = await laptop.request(`${APP}/unlink`, { method: "POST", initiator: `${APP}/` })
    expect([unlinked.status, await unlinked.json()]).toEqual([400, expect.objectContaining({ error: "LastSignInMethod" })])
  })
})
