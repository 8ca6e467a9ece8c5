import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { CredentialsSignin, errorMessages } from "../../src/public-errors.js"
import type { User } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"

/** A configuration whose logger (and debug output) is captured, to check what reaches the logs. */
function setup(overrides: Partial<AuthConfig> = {}, provider = passwordProvider()): AuthConfig & { logs: string[] } {
  const logs: string[] = []
  const describe = (value: unknown): string => (value instanceof Error ? `${value.name}: ${value.message} ${describe(value.cause)}` : JSON.stringify(value))
  const config = testConfig({
    debug: true,
    providers: [provider],
    logger: {
      error: (error) => logs.push(`error ${describe(error)}`),
      warn: (code, message) => logs.push(`warn ${code} ${message ?? ""}`),
      debug: (message, metadata) => logs.push(`debug ${message} ${describe(metadata)}`),
    },
    ...overrides,
  })
  return { ...config, logs }
}

async function submit(config: AuthConfig, jar: Jar, form: Record<string, string> | URLSearchParams, path = "/api/auth/callback/credentials"): Promise<Response> {
  const token = await csrfToken(config, jar)
  const body = new URLSearchParams(form)
  if (!body.has("csrfToken")) body.set("csrfToken", token)
  return call(config, jar, path, { form: body })
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("credentials sign-in", () => {
  it("signs in with a JWT session and returns to the callbackUrl", async () => {
    const config = setup()
    const jar = new Jar()
    const response = await submit(config, jar, { username: "ada", password: PASSWORD, callbackUrl: "/dashboard" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const session: unknown = await (await call(config, jar, "/api/auth/session")).json()
    expect(session).toMatchObject({ user: { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" } })
  })

  it("hands the returned user, with its own fields, to the jwt callback and the signIn event", async () => {
    const seen: unknown[] = []
    const config = setup({
      callbacks: {
        // On later reads the callback gets no user: keep what the token already has.
        jwt: ({ token, user }) => ({ ...token, role: (user as User | undefined)?.role ?? token.role }),
        session: ({ session, token }) => ({ ...session, role: token.role }),
      },
      events: { signIn: (message) => void seen.push(message) },
    })
    const jar = new Jar()
    await submit(config, jar, { username: "ada", password: PASSWORD })
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ role: "admin" })
    expect(seen).toMatchObject([{ isNewUser: false, account: { type: "credentials", provider: "credentials", providerAccountId: "user-ada" } }])
  })

  it("sends a refused sign-in back to the sign-in page with error=CredentialsSignin&code=credentials", async () => {
    const config = setup()
    const jar = new Jar()
    const response = await submit(config, jar, { username: "ada", password: "wrong" })
    const target = location(response)
    expect(target.pathname).toBe("/api/auth/signin")
    expect(target.searchParams.get("error")).toBe("CredentialsSignin")
    expect(target.searchParams.get("code")).toBe("credentials")
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
    const page = await (await call(config, jar, target.pathname + target.search)).text()
    expect(page).toContain("Those details did not work. Check them and try again.")
  })

  it("carries the public code of a thrown CredentialsSignin", async () => {
    const config = setup({}, passwordProvider({ authorize: () => Promise.reject(new CredentialsSignin("Locked after 5 attempts.", { code: "locked" })) }))
    const target = location(await submit(config, new Jar(), { username: "ada", password: PASSWORD }))
    expect(target.searchParams.get("error")).toBe("CredentialsSignin")
    expect(target.searchParams.get("code")).toBe("locked")
    expect(config.logs.join("\n")).toContain("Locked after 5 attempts.")
  })

  it("replaces a public code that is not a short token by the default one", async () => {
    const config = setup({}, passwordProvider({ authorize: () => Promise.reject(new CredentialsSignin("x", { code: "<script>" })) }))
    expect(location(await submit(config, new Jar(), { username: "ada", password: PASSWORD })).searchParams.get("code")).toBe("credentials")
  })

  it("hands the app's own sign-in page the error and the code", async () => {
    const config = setup({ pages: { signIn: "/login" } })
    const response = await submit(config, new Jar(), { username: "ada", password: "wrong" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`)
  })

  it("keeps the page the user meant to reach when the credentials are refused", async () => {
    const response = await submit(setup(), new Jar(), { username: "ada", password: "wrong", callbackUrl: "/dashboard" })
    expect(location(response).searchParams.get("error")).toBe("CredentialsSignin")
    expect(location(response).searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
  })

  it("forwards only a well-formed code from the built-in sign-in route to the app's page", async () => {
    const config = setup({ pages: { signIn: "/login" } })
    const safe = await call(config, new Jar(), "/api/auth/signin?error=CredentialsSignin&code=locked")
    expect(safe.headers.get("location")).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=locked`)
    const hostile = await call(config, new Jar(), `/api/auth/signin?error=CredentialsSignin&code=${encodeURIComponent("<b>x</b>")}`)
    expect(hostile.headers.get("location")).toBe(`${ORIGIN}/login?error=CredentialsSignin`)
  })

  it("logs any other throw and shows a generic error, never the password", async () => {
    const config = setup({}, passwordProvider({ authorize: () => Promise.reject(new Error("database unreachable")) }))
    const response = await submit(config, new Jar(), { username: "ada", password: PASSWORD })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/error?error=CallbackRouteError`)
    const logs = config.logs.join("\n")
    expect(logs).toContain("database unreachable")
    expect(logs).not.toContain(PASSWORD)
  })

  it("refuses an authorize that returns something other than a user or null", async () => {
    const config = setup({}, passwordProvider({ authorize: () => "ada" as unknown as User }))
    expect(location(await submit(config, new Jar(), { username: "ada", password: PASSWORD })).searchParams.get("error")).toBe("CallbackRouteError")
  })

  it("lets the signIn callback see the credentials and refuse", async () => {
    const signIn = vi.fn((_params: unknown) => false)
    const config = setup({ callbacks: { signIn } })
    const response = await submit(config, new Jar(), { username: "ada", password: PASSWORD })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/error?error=AccessDenied`)
    expect(signIn.mock.calls).toMatchObject([[{ credentials: { username: "ada", password: PASSWORD }, account: { type: "credentials" } }]])
  })

  it("answers POST /signin/:id with the sign-in page, where the form posts to the callback", async () => {
    const config = setup()
    const jar = new Jar()
    const response = await submit(config, jar, {}, "/api/auth/signin/credentials")
    expect(location(response).pathname).toBe("/api/auth/signin")
  })

  it("does not sign in on GET", async () => {
    const config = setup()
    const response = await call(config, new Jar(), `/api/auth/callback/credentials?username=ada&password=${encodeURIComponent(PASSWORD)}`)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/error?error=InvalidProvider`)
  })
})

describe("credentials sign-in against hostile forms", () => {
  it("refuses a form without a CSRF token", async () => {
    const authorize = vi.fn(() => null)
    const config = setup({}, passwordProvider({ authorize }))
    const response = await call(config, new Jar(), "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD } })
    expect(location(response).searchParams.get("error")).toBe("MissingCSRF")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("refuses a field the provider does not declare", async () => {
    const authorize = vi.fn(() => null)
    const config = setup({}, passwordProvider({ authorize }))
    const target = location(await submit(config, new Jar(), { username: "ada", password: PASSWORD, isAdmin: "true" }))
    expect(target.searchParams.get("error")).toBe("CredentialsSignin")
    expect(target.searchParams.get("code")).toBe("invalid_input")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("refuses a repeated field (two passwords, one of them guessed)", async () => {
    const authorize = vi.fn(() => null)
    const config = setup({}, passwordProvider({ authorize }))
    const form = new URLSearchParams([["username", "ada"], ["password", "guess"], ["password", PASSWORD]])
    expect(location(await submit(config, new Jar(), form)).searchParams.get("code")).toBe("invalid_input")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("refuses an oversized field without reading it into authorize", async () => {
    const authorize = vi.fn(() => null)
    const config = setup({}, passwordProvider({ authorize }))
    expect(location(await submit(config, new Jar(), { username: "ada", password: "x".repeat(10_000) })).searchParams.get("code")).toBe("invalid_input")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("answers a body over the 64 KiB form limit with a 400, before reading any field", async () => {
    const authorize = vi.fn(() => null)
    const config = setup({}, passwordProvider({ authorize }))
    const response = await submit(config, new Jar(), { username: "ada", password: "x".repeat(100_000) })
    // The per-field limit alone would answer with a redirect (code=invalid_input): this is the body limit's own answer.
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: "UnknownAction", message: errorMessages.UnknownAction })
    expect(response.headers.get("set-cookie") ?? "").not.toContain("session-token")
    expect(config.logs.join("\n")).toContain("The request body is too large.")
    expect(authorize).not.toHaveBeenCalled()
  })

  it("keeps the password out of every log line, even with debug on", async () => {
    const console = [vi.spyOn(globalThis.console, "error"), vi.spyOn(globalThis.console, "warn"), vi.spyOn(globalThis.console, "debug"), vi.spyOn(globalThis.console, "log")]
    const config = setup()
    const forms: Record<string, string>[] = [
      { username: "ada", password: PASSWORD },
      { username: "ada", password: `${PASSWORD}!` },
      { username: "ada", password: PASSWORD, extra: PASSWORD },
      { username: "ada", [PASSWORD]: "x" },
    ]
    for (const form of forms) {
      await submit(config, new Jar(), form)
    }
    expect(config.logs.length).toBeGreaterThan(0)
    expect(config.logs.join("\n")).not.toContain(PASSWORD)
    for (const spy of console) expect(JSON.stringify(spy.mock.calls)).not.toContain(PASSWORD)
  })
})

describe("credentials sign-in with database sessions", () => {
  it("creates a session row for the user authorize returned, as the adapter stores it", async () => {
    const adapter = MemoryAdapter({ users: [{ id: "user-ada", email: "ada@example.com", emailVerified: null, name: "Ada Lovelace" }] })
    const config = setup({ adapter, session: { strategy: "database" } })
    const jar = new Jar()
    await submit(config, jar, { username: "ada", password: PASSWORD })
    const sessionToken = jar.cookies.get("authjs.session-token") ?? ""
    expect(sessionToken).toMatch(/^[\w-]{43,}$/)
    expect((await adapter.getSessionAndUser(sessionToken))?.user.id).toBe("user-ada")
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { id: "user-ada", name: "Ada Lovelace" } })
  })

  it("refuses a user the adapter does not store, creating nothing", async () => {
    const adapter = MemoryAdapter()
    const config = setup({ adapter, session: { strategy: "database" } })
    const jar = new Jar()
    const response = await submit(config, jar, { username: "ada", password: PASSWORD })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/error?error=CallbackRouteError`)
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
    expect(config.logs.join("\n")).toMatch(/does not store/)
  })
})

describe("a refused credentials form on the built-in sign-in page", () => {
  const KEPT = "authjs.credentials-input"

  async function refusedPage(config: AuthConfig, form: Record<string, string>): Promise<{ jar: Jar; page: string; response: Response }> {
    const jar = new Jar()
    const target = location(await submit(config, jar, form))
    const response = await call(config, jar, target.pathname + target.search)
    return { jar, page: await response.text(), response }
  }

  it("shows the username typed again, never the password, and focuses the password", async () => {
    const { jar, page } = await refusedPage(setup(), { username: "ada", password: "wrong-guess" })
    expect(page).toMatch(/<input id="credentials-username" name="username" type="text"[^>]* value="ada" required>/)
    expect(page).toMatch(/<input id="credentials-password" name="password" type="password"[^>]* autofocus required>/)
    expect(page).not.toContain("wrong-guess")
    // Read once: the cookie is cleared by the page that showed it.
    expect(jar.cookies.has(KEPT)).toBe(false)
  })

  it("puts the refusal inside the form it refers to, not above the other providers", async () => {
    const { page } = await refusedPage(setup({ providers: [testConfig().providers[0], passwordProvider()] as AuthConfig["providers"] }), { username: "ada", password: "x" })
    const alert = page.indexOf('role="alert"')
    expect(alert).toBeGreaterThan(page.indexOf('<form method="post" action="http://localhost:3000/api/auth/callback/credentials">'))
    expect(alert).toBeGreaterThan(page.indexOf("/signin/acme"))
    expect(page.match(/role="alert"/g)).toHaveLength(1)
  })

  it("keeps the password out of the cookie, which is HttpOnly and short-lived", async () => {
    const jar = new Jar()
    const response = await submit(setup(), jar, { username: "ada", password: "wrong-guess" })
    const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${KEPT}=`)) ?? ""
    expect(header).toMatch(/; Max-Age=300; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(header).not.toContain("wrong-guess")
    expect(new URLSearchParams(jar.cookies.get(KEPT)).get("field.username")).toBe("ada")
  })

  it("escapes a hostile username where the page puts it back", async () => {
    const hostile = `"><script>alert(1)</script><input value="`
    const { page } = await refusedPage(setup(), { username: hostile, password: "x" })
    expect(page).not.toContain("<script>alert(1)")
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;input value=&quot;"')
  })

  it("ignores a forged cookie: unknown providers and undeclared fields are dropped, and nothing shows without the refusal", async () => {
    const config = setup()
    const shown = async (cookie: string, query = "?error=CredentialsSignin&code=credentials") => {
      const jar = new Jar()
      jar.cookies.set(KEPT, cookie)
      const response = await call(config, jar, `/api/auth/signin${query}`)
      expect(response.status).toBe(200)
      expect(jar.cookies.has(KEPT)).toBe(false)
      return response.text()
    }
    expect(await shown("provider=nobody&field.username=eve")).not.toContain('value="eve"')
    expect(await shown("provider=credentials&field.password=eve&field.isAdmin=true")).not.toMatch(/value="(eve|true)"/)
    expect(await shown("provider=credentials&field.username=eve", "")).not.toContain('value="eve"')
    expect(await shown("%%%;;==&&")).toContain("Those details did not work")
    expect(await shown(`provider=credentials&field.username=${"e".repeat(5_000)}`)).not.toContain("eeee")
  })

  it("keeps nothing for the app's own sign-in page, for a field too long to be a username, or for an error that is not a refusal", async () => {
    const cookies = async (config: AuthConfig, form: Record<string, string>) => (await submit(config, new Jar(), form)).headers.getSetCookie().join("\n")
    expect(await cookies(setup({ pages: { signIn: "/login" } }), { username: "ada", password: "x" })).not.toContain(KEPT)
    expect(await cookies(setup(), { username: "a".repeat(1_000), password: "x" })).not.toContain(KEPT)
    expect(await cookies(setup(), { username: "ada", password: "x", extra: "1" })).not.toContain(KEPT)
    expect(await cookies(setup({}, passwordProvider({ authorize: () => Promise.reject(new Error("down")) })), { username: "ada", password: "x" })).not.toContain(KEPT)
  })
})
