/**
 * The server-side calls (`signIn`, `signOut`, `updateSession`, `authBase`) as framework
 * integrations use them: one call from a server action answers what `Auth()` answers the route,
 * OAuth through the real OpenID Provider. The "server action" here is an app route on the
 * harness's origin, as a framework would run one: it reads the posted form and calls core once.
 */
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterAccount, AdapterSession, AdapterUserFields, VerificationToken } from "../../src/adapters.js"
import { UntrustedHost } from "../../src/errors/errors.js"
import { authBase, signIn, signOut, updateSession } from "../../src/index.js"
import type { SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { APP, Harness, e2eConfig, errorOf, idpProvider, useIdp } from "../e2e/harness.js"
import { Jar, ORIGIN, PASSWORD, call, location, passwordProvider, setCookies, testConfig } from "../helpers.js"

const idp = useIdp()

/** A store in maps with what the OAuth and email flows and database sessions use. */
function MemoryAdapter() {
  const users = new Map<string, AdapterUserFields>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const tokens = new Map<string, VerificationToken>()
  return {
    createUser: (user) => (users.set(user.id, user), user),
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail: (email) => [...users.values()].find((user) => user.email === email) ?? null,
    getUserByAccount: ({ provider, providerAccountId }) => users.get(accounts.get(`${provider} ${providerAccountId}`)?.userId ?? "") ?? null,
    updateUser: (user) => {
      const updated = { ...(users.get(user.id) as AdapterUserFields), ...user }
      users.set(user.id, updated)
      return updated
    },
    deleteUser: (id) => {
      const user = users.get(id) ?? null
      users.delete(id)
      return user
    },
    linkAccount: (account) => void accounts.set(`${account.provider} ${account.providerAccountId}`, account),
    createSession: (session) => (sessions.set(session.sessionToken, session), session),
    getSessionAndUser: (token) => {
      const session = sessions.get(token)
      const user = session === undefined ? undefined : users.get(session.userId)
      return session === undefined || user === undefined ? null : { session, user }
    },
    updateSession: (session) => {
      const updated = { ...(sessions.get(session.sessionToken) as AdapterSession), ...session }
      sessions.set(session.sessionToken, updated)
      return updated
    },
    deleteSession: (token) => {
      const session = sessions.get(token)
      sessions.delete(token)
      return session ?? null
    },
    createVerificationToken: (token) => (tokens.set(`${token.identifier} ${token.token}`, token), token),
    useVerificationToken: ({ identifier, token }) => {
      const found = tokens.get(`${identifier} ${token}`) ?? null
      tokens.delete(`${identifier} ${token}`)
      return found
    },
  } satisfies Adapter
}

/**
 * A browser on the app whose `POST /action/signin` and `POST /action/signout` are server actions:
 * `provider` and `redirectTo` are read from the form, the rest are the provider's fields, and
 * `authorize-*` fields become authorization parameters.
 */
function appWithActions(config: AuthConfig): Harness {
  return new Harness(config, async (request) => {
    const { pathname } = new URL(request.url)
    if (request.method !== "POST" || !pathname.startsWith("/action/")) {
      return new Response(`<p>app page ${pathname}</p>`, { headers: { "content-type": "text/html" } })
    }
    const form = await request.formData()
    const text = (name: string): string | undefined => {
      const value = form.get(name)
      return typeof value === "string" ? value : undefined
    }
    const redirectTo = text("redirectTo")
    if (pathname === "/action/signout") return signOut(request, config, { redirectTo })
    const fields = new FormData()
    const authorizationParams: Record<string, string> = {}
    for (const [name, value] of form) {
      if (typeof value !== "string") continue
      if (name.startsWith("authorize-")) authorizationParams[name.slice("authorize-".length)] = value
      else if (name !== "provider" && name !== "redirectTo") fields.append(name, value)
    }
    return signIn(request, config, text("provider"), { fields, redirectTo, authorizationParams })
  })
}

/** Submits an action's form from an app page, as a browser does, and follows where it leads. */
function submitAction(h: Harness, action: "signin" | "signout", form: Record<string, string>) {
  return h.browser.navigate(`${APP}/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    initiator: `${APP}/`,
  })
}

/** A request as a server action receives it: a POST to an app page, with the browser's cookies. */
function actionRequest(jar = new Jar(), headers: Record<string, string> = {}): Request {
  const init = new Headers({ "content-type": "multipart/form-data; boundary=x", accept: "text/x-component", ...headers })
  if (jar.cookies.size > 0) init.set("cookie", jar.header())
  return new Request(`${ORIGIN}/dashboard`, { method: "POST", headers: init, body: "--x--" })
}

describe("signIn from server code, through the real OpenID Provider", () => {
  it("starts the OAuth flow in one call from a browser that has no CSRF cookie yet, and the flow completes", async () => {
    const config = e2eConfig([idpProvider(idp())])
    const h = appWithActions(config)
    expect(h.browser.cookies(APP)).toEqual([])
    const atIdp = await submitAction(h, "signin", { provider: "idp", redirectTo: "/protected", "authorize-login_hint": "alice@example.com" })
    const authorize = new URL(atIdp.redirects.find((hop) => hop.startsWith(`${idp().issuer}/auth`)) ?? "")
    expect(authorize.searchParams.get("login_hint")).toBe("alice@example.com")
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${APP}/api/auth/callback/idp`)
    // The flow is bound to the CSRF cookie the call set, so the callback's browser check passes.
    expect(h.browser.cookies(APP).map((cookie) => cookie.name)).toContain("authjs.csrf-token")
    const landed = await h.login(atIdp)
    expect(landed.url).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { id: "alice", email: "alice@example.com" } })
    expect(config.errors).toEqual([])
  })

  it("binds the flow to the CSRF cookie the browser already has, which another browser does not hold", async () => {
    const config = e2eConfig([idpProvider(idp())])
    const h = appWithActions(config)
    await h.csrfToken()
    const before = h.browser.cookies(APP).find((cookie) => cookie.name === "authjs.csrf-token")?.value
    h.hold = true
    await h.login(await submitAction(h, "signin", { provider: "idp" }))
    expect(h.browser.cookies(APP).find((cookie) => cookie.name === "authjs.csrf-token")?.value).toBe(before)
    const callback = h.held ?? new URL(APP)
    // The same callback in a browser whose CSRF cookie is another: refused, not signed in.
    h.browser.deleteCookie(APP, "authjs.csrf-token")
    await h.csrfToken()
    expect(errorOf(await h.callback(callback))).toBe("InvalidCheck")
    expect(await h.session()).toBeNull()
  })

  it("keeps an off-origin redirectTo on the app: the flow ends on the app's origin", async () => {
    const config = e2eConfig([idpProvider(idp())])
    const h = appWithActions(config)
    const landed = await h.login(await submitAction(h, "signin", { provider: "idp", redirectTo: "https://evil.example/steal" }))
    expect(new URL(landed.url).origin).toBe(APP)
    expect(await h.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("signs out in one call: cookies cleared, the database session deleted, the signOut event sent", async () => {
    const adapter = MemoryAdapter()
    const events: unknown[] = []
    const config = e2eConfig([idpProvider(idp())], { adapter, events: { signOut: (message) => void events.push(message) } })
    const h = appWithActions(config)
    await h.login(await submitAction(h, "signin", { provider: "idp", redirectTo: "/protected" }))
    const token = h.browser.cookies(APP).find((cookie) => cookie.name === "authjs.session-token")?.value ?? ""
    expect(adapter.getSessionAndUser(token)).not.toBeNull()
    const landed = await submitAction(h, "signout", { redirectTo: "/bye" })
    expect(landed.url).toBe(`${APP}/bye`)
    expect(adapter.getSessionAndUser(token)).toBeNull()
    expect(h.browser.cookies(APP).map((cookie) => cookie.name)).not.toContain("authjs.session-token")
    expect(events).toMatchObject([{ session: { sessionToken: token } }])
    expect(await h.session()).toBeNull()
  })
})

describe("signIn from server code: what each provider answers", () => {
  it("signs in with credentials from FormData, posting to the provider's callback", async () => {
    const seen: string[] = []
    const config = testConfig({ providers: [passwordProvider({ authorize: (credentials, request) => (seen.push(new URL(request.url).pathname), passwordProvider().authorize(credentials, request)) })] })
    const fields = new FormData()
    fields.set("username", "ada")
    fields.set("password", PASSWORD)
    fields.set("csrfToken", "ignored")
    const response = await signIn(actionRequest(), config, "credentials", { fields, redirectTo: "/dashboard" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(seen).toEqual(["/api/auth/callback/credentials"])
    const jar = new Jar()
    jar.store(response)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { id: "user-ada" } })
  })

  it("sends a refused password to the sign-in page with CredentialsSignin, keeping where to return", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const response = await signIn(actionRequest(), config, "credentials", { fields: { username: "ada", password: "wrong" }, redirectTo: "/dashboard" })
    const target = location(response)
    expect(target.pathname).toBe("/api/auth/signin")
    expect(target.searchParams.get("error")).toBe("CredentialsSignin")
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
    expect(setCookies(response).has("authjs.session-token")).toBe(false)
  })

  it("sends an email sign-in link and redirects to the verify-request page", async () => {
    const sent: SendVerificationRequestParams[] = []
    const config = testConfig({
      adapter: MemoryAdapter(),
      providers: [{ id: "email", name: "Email", type: "email", from: "no-reply@app.example", sendVerificationRequest: (params) => void sent.push(params) }],
    })
    const response = await signIn(actionRequest(), config, "email", { fields: new URLSearchParams({ email: "Ada@Example.com" }), redirectTo: "/welcome" })
    expect(location(response).href).toBe(`${ORIGIN}/api/auth/verify-request?provider=email&type=email`)
    expect(sent).toHaveLength(1)
    expect(new URL(sent[0]?.url ?? "").searchParams.get("callbackUrl")).toBe(`${ORIGIN}/welcome`)
  })

  it("sends the browser to the sign-in page when no provider is named, with redirectTo as written", async () => {
    const response = await signIn(actionRequest(), testConfig(), undefined, { redirectTo: "/protected?tab=1" })
    expect(response.status).toBe(302)
    const target = location(response)
    expect(`${target.origin}${target.pathname}`).toBe(`${ORIGIN}/api/auth/signin`)
    expect(target.searchParams.get("callbackUrl")).toBe("/protected?tab=1")
  })

  it("sends the browser to the app's own sign-in page when it has one", async () => {
    const response = await signIn(actionRequest(), testConfig({ pages: { signIn: "/login" } }), undefined, { redirectTo: "/protected" })
    expect(location(response).href).toBe(`${ORIGIN}/login?callbackUrl=%2Fprotected`)
  })

  it("answers a redirect even when the caller's request asked for JSON (X-Auth-Return-Redirect)", async () => {
    const response = await signIn(actionRequest(new Jar(), { "x-auth-return-redirect": "1" }), testConfig(), "acme")
    expect(response.status).toBe(302)
    expect(location(response).origin).toBe("https://acme.example")
  })
})

describe("signIn from server code: hostile input is answered, never thrown", () => {
  it("answers an unknown provider with the error page's InvalidProvider", async () => {
    const response = await signIn(actionRequest(), testConfig(), "no-such-provider", { redirectTo: "/dashboard" })
    expect(location(response).pathname).toBe("/api/auth/error")
    expect(location(response).searchParams.get("error")).toBe("InvalidProvider")
  })

  it("answers a provider id with path characters as an unknown provider, not another route", async () => {
    const response = await signIn(actionRequest(), testConfig({ providers: [passwordProvider()] }), "../callback/credentials", { fields: { username: "ada", password: PASSWORD } })
    expect(location(response).searchParams.get("error")).toBe("InvalidProvider")
    expect(setCookies(response).has("authjs.session-token")).toBe(false)
  })

  it("keeps an off-origin redirectTo on the app's origin", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const response = await signIn(actionRequest(), config, "credentials", { fields: { username: "ada", password: PASSWORD }, redirectTo: "https://evil.example/steal" })
    expect(location(response).origin).toBe(ORIGIN)
    const page = await signIn(actionRequest(), config, undefined, { redirectTo: "//evil.example/steal" })
    expect(location(page).searchParams.get("callbackUrl")).toBe(ORIGIN)
  })

  it("answers an untrusted host in place with UntrustedHost", async () => {
    const config = testConfig({ trustHost: false, providers: [passwordProvider()] })
    for (const id of [undefined, "credentials"]) {
      const response = await signIn(actionRequest(), config, id, { fields: { username: "ada", password: PASSWORD } })
      expect(response.status).toBe(400)
      expect(response.headers.get("location")).toBeNull()
      expect(await response.json()).toMatchObject({ error: "UntrustedHost" })
    }
    expect((await signOut(actionRequest(), config)).status).toBe(400)
  })

  it("answers an invalid configuration rather than throwing", async () => {
    const logged: string[] = []
    const config = { providers: [], secret: 42, logger: { error: (error: { code: string }) => logged.push(error.code) } } as unknown as AuthConfig
    const response = await signIn(actionRequest(), config, "credentials")
    expect(response.status).toBeGreaterThanOrEqual(500)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    expect(logged).toEqual(["Configuration"])
  })

  it("refuses a sign-in POSTed to core's own route without a CSRF token: only a server call skips the check", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const response = await call(config, new Jar(), "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD } })
    expect(location(response).searchParams.get("error")).toBe("MissingCSRF")
  })
})

describe("signOut and updateSession from server code", () => {
  async function signedIn(config: AuthConfig): Promise<Jar> {
    const jar = new Jar()
    jar.store(await signIn(actionRequest(), config, "credentials", { fields: { username: "ada", password: PASSWORD } }))
    return jar
  }

  it("signs out to redirectTo, and to the app's origin for an off-origin one", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const jar = await signedIn(config)
    const response = await signOut(actionRequest(jar), config, { redirectTo: "https://evil.example/" })
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(setCookies(response).get("authjs.session-token")).toBe("")
    jar.store(response)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("updates the session through the jwt and session callbacks", async () => {
    const config = testConfig({
      providers: [passwordProvider()],
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, nickname: (session as { nickname?: unknown }).nickname } : token),
        session: ({ session, token }) => ({ ...session, nickname: token.nickname }),
      },
    })
    const jar = await signedIn(config)
    const response = await updateSession(actionRequest(jar), config, { nickname: "Ada" })
    expect(((await response.json()) as Session & { nickname?: string }).nickname).toBe("Ada")
    jar.store(response)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ nickname: "Ada" })
    expect(await (await updateSession(actionRequest(), config, { nickname: "Eve" })).json()).toBeNull()
  })
})

describe("authBase", () => {
  it("answers the origin and base path core serves a request on", async () => {
    expect(await authBase(actionRequest(), testConfig())).toEqual({ origin: ORIGIN, basePath: "/api/auth", url: `${ORIGIN}/api/auth` })
    const configured = testConfig({ trustHost: undefined, url: "https://app.example/custom/auth/" })
    expect(await authBase(actionRequest(), configured)).toEqual({ origin: "https://app.example", basePath: "/custom/auth", url: "https://app.example/custom/auth" })
  })

  it("takes a forwarded host only as core's trust rules allow", async () => {
    const forwarded = actionRequest(new Jar(), { "x-forwarded-host": "preview-1.app.example", "x-forwarded-proto": "https" })
    const config = testConfig({ url: "https://app.example", allowedOrigins: ["https://preview-*.app.example"] })
    expect((await authBase(forwarded, config)).origin).toBe("https://preview-1.app.example")
    const other = actionRequest(new Jar(), { "x-forwarded-host": "evil.example" })
    expect((await authBase(other, config)).origin).toBe("https://app.example")
  })

  it("rejects an untrusted host with UntrustedHost", async () => {
    await expect(authBase(actionRequest(), testConfig({ trustHost: false }))).rejects.toBeInstanceOf(UntrustedHost)
    await expect(authBase(actionRequest(new Jar(), { "x-forwarded-host": "evil.example/x" }), testConfig())).rejects.toBeInstanceOf(UntrustedHost)
  })
})
