import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest"
import { resolveConfig } from "../../src/config/config.js"
import type { FlowProvider } from "../../src/internal.js"
import type { InternalOAuthProvider } from "../../src/oauth/provider.js"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, getSession } from "../../src/index.js"
import { decode } from "../../src/session/jwt.js"
import type { AuthConfig } from "../../src/types.js"
import { acmeProvider, call, configError, csrfToken, Jar, ORIGIN, PASSWORD, passwordProvider, SECRET, testConfig } from "../helpers.js"

function oauth(provider: FlowProvider | undefined): InternalOAuthProvider | undefined {
  return provider?.type === "oauth" || provider?.type === "oidc" ? (provider.options as InternalOAuthProvider) : undefined
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

describe("configuration", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it("refuses a __Host- cookie name with a domain or a narrower path, which browsers would silently drop", async () => {
    expect(await configError(testConfig({ cookies: { sessionToken: { name: "__Host-sid", options: { domain: "example.com" } } } }))).toMatch(
      /^Configuration: `cookies.sessionToken.name` starts with `__Host-`/,
    )
    expect(await configError(testConfig({ cookies: { state: { name: "__Host-st", options: { path: "/auth" } } } }))).toMatch(/cookies\.state\.name/)
  })

  it("names a theme option the pages could not use", async () => {
    expect(await configError(testConfig({ theme: { colorScheme: "sepia" as never } }))).toMatch(/`theme.colorScheme`/)
    expect(await configError(testConfig({ theme: { brandColor: "red;background:url(x)" } }))).toMatch(/`theme.brandColor` must be a CSS color/)
    expect(await configError(testConfig({ theme: { buttonText: 42 as never } }))).toMatch(/`theme.buttonText`/)
    expect((await resolveConfig(testConfig({ theme: { colorScheme: "dark", brandColor: "#346df1", buttonText: "white" } }))).theme).toEqual({ colorScheme: "dark", brandColor: "#346df1", buttonText: "white" })
  })

  it("refuses a theme.homeUrl that would send the pages' users off the app, as a callbackUrl is (ASVS V3.5.1 open redirect)", async () => {
    for (const homeUrl of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "home", 42]) {
      expect(await configError(testConfig({ url: "https://app.example", theme: { homeUrl: homeUrl as string } })), String(homeUrl)).toMatch(/^Configuration: `theme.homeUrl` must be a path/)
    }
    expect(await configError(testConfig({ theme: { homeUrl: "https://app.example/" } }))).toMatch(/https:\/\/app\.example is neither/)
    for (const homeUrl of ["/", "/start?from=signin", "https://app.example/home", "https://www.app.example/"]) {
      const config = testConfig({ url: "https://app.example", allowedOrigins: ["https://www.app.example"], theme: { homeUrl } })
      expect((await resolveConfig(config)).theme.homeUrl).toBe(homeUrl)
    }
  })

  it("names a theme.brandName that is not a short name", async () => {
    for (const brandName of ["", "  ", "a".repeat(101), "Acme\nInc", 7]) {
      expect(await configError(testConfig({ theme: { brandName: brandName as string } })), JSON.stringify(brandName)).toMatch(/^Configuration: `theme.brandName` must be the app's name/)
    }
    expect((await resolveConfig(testConfig({ theme: { brandName: "Acme <Tools>" } }))).theme.brandName).toBe("Acme <Tools>")
  })

  it("names a bad url or allowedOrigins entry", async () => {
    expect(await configError(testConfig({ url: "not a url" }))).toMatch(/^Configuration: `url` must be an absolute http\(s\) URL/)
    expect(await configError(testConfig({ allowedOrigins: ["https://*.com"] }))).toMatch(/allowedOrigins\[0\]/)
    expect(await configError(testConfig({ allowedOrigins: "https://app.example.com" as unknown as string[] }))).toMatch(/`allowedOrigins` must be an array/)
  })

  it("names a missing secret", async () => {
    vi.stubEnv("AUTH_SECRET", "")
    expect(await configError({ providers: [] })).toMatch(/^MissingSecret: .*AUTH_SECRET/)
  })

  it("reads AUTH_SECRET, AUTH_URL and provider credentials from the environment", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", "https://app.example/auth")
    vi.stubEnv("AUTH_ACME_ID", "from-env")
    vi.stubEnv("AUTH_ACME_SECRET", "secret-from-env")
    const config = await resolveConfig({ providers: [acmeProvider({ clientId: undefined, clientSecret: undefined })] })
    expect(config.secrets).toEqual([SECRET])
    expect(config.basePath).toBe("/auth")
    expect(config.trustHost).toBe(true)
    expect(oauth(config.providers[0])?.clientId).toBe("from-env")
  })

  it("refuses duplicate provider ids", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider(), acmeProvider()] }))).toMatch(/^Configuration: .*"acme".*unique/)
  })

  it("refuses a check the provider type does not have", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider({ checks: ["nonce"] })] }))).toMatch(/checks.*"nonce"/)
    expect(await configError(testConfig({ providers: [acmeProvider({ checks: ["pkce", "bogus"] })] }))).toMatch(/checks.*"bogus"/)
  })

  it("refuses an oauth provider with no token endpoint", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider({ token: undefined })] }))).toMatch(/no `token` endpoint/)
  })

  it("refuses plain http endpoints, and allows them only on loopback with the explicit option", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider({ token: "http://acme.example/token" })] }))).toMatch(/token.*https/)
    const loopback = { token: "http://127.0.0.1:9/token", authorization: "http://127.0.0.1:9/a", userinfo: "http://127.0.0.1:9/u" }
    expect(await configError(testConfig({ providers: [acmeProvider(loopback)] }))).toMatch(/allowInsecureLoopbackRequests/)
    expect(oauth((await resolveConfig(testConfig({ providers: [acmeProvider({ ...loopback, allowInsecureLoopbackRequests: true })] }))).providers[0])?.allowInsecureRequests).toBe(true)
    expect(
      await configError(testConfig({ providers: [acmeProvider({ token: "http://evil.example/token", allowInsecureLoopbackRequests: true })] })),
    ).toMatch(/token.*https/)
  })

  it("needs an issuer for OpenID Connect providers and says where to put it", async () => {
    expect(await configError(testConfig({ providers: [{ id: "idp", name: "IdP", type: "oidc", clientId: "c", clientSecret: "s" }] }))).toMatch(
      /issuer.*AUTH_IDP_ISSUER/,
    )
  })

  it("says where a webauthn provider's flow comes from, and names unknown types", async () => {
    expect(await configError(testConfig({ providers: [{ id: "passkey", name: "Passkey", type: "webauthn" }] }))).toMatch(/"webauthn".*Passkey\(\)/)
    expect(await configError(testConfig({ providers: [{ id: "x", name: "X", type: "saml" } as never] }))).toMatch(/unknown `type`/)
  })

  it("checks email providers: a sender, a positive maxAge, and an adapter that stores tokens", async () => {
    const send = () => undefined
    const adapter = MemoryAdapter()
    const email = (overrides: Record<string, unknown> = {}) => ({ id: "email", name: "Email", type: "email" as const, sendVerificationRequest: send, ...overrides })
    expect(await configError(testConfig({ providers: [email({ sendVerificationRequest: undefined })], adapter }))).toMatch(/providers\["email"\]\.sendVerificationRequest/)
    expect(await configError(testConfig({ providers: [email({ maxAge: 0 })], adapter }))).toMatch(/providers\["email"\]\.maxAge/)
    expect(await configError(testConfig({ providers: [email()] }))).toMatch(/"email".*needs an `adapter`/)
    const { useVerificationToken: _omitted, ...withoutUse } = adapter
    expect(await configError(testConfig({ providers: [email()], adapter: withoutUse }))).toMatch(/missing methods.*useVerificationToken/)
    expect((await resolveConfig(testConfig({ providers: [email()], adapter }))).providers[0]).toMatchObject({ type: "email", options: { maxAge: 86_400 } })
  })

  it("checks credentials providers: an authorize function and well-formed fields", async () => {
    const credentials = (overrides: Record<string, unknown> = {}) => ({ ...passwordProvider(), ...overrides })
    expect(await configError(testConfig({ providers: [credentials({ authorize: undefined })] }))).toMatch(/providers\["credentials"\]\.authorize/)
    expect(await configError(testConfig({ providers: [credentials({ credentials: { csrfToken: {} } })] }))).toMatch(/credentials\.csrfToken/)
    expect(await configError(testConfig({ providers: [credentials({ credentials: { 'a"b': {} } })] }))).toMatch(/field name/)
    expect(await configError(testConfig({ providers: [credentials({ credentials: { pin: { type: "file" } } })] }))).toMatch(/credentials\.pin\.type/)
    const adapter = MemoryAdapter()
    const { getUser: _omitted, ...withoutGetUser } = adapter
    expect(await configError(testConfig({ providers: [credentials()], adapter: withoutGetUser, session: { strategy: "database" } }))).toMatch(/missing methods.*getUser/)
    expect((await resolveConfig(testConfig({ providers: [credentials()] }))).providers[0]).toMatchObject({
      type: "credentials",
      options: { fields: [
        { name: "username", label: "Username", type: "text" },
        { name: "password", label: "Password", type: "password" },
      ] },
    })
  })

  it("refuses ids that cannot be a path segment", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider({ id: "../x" })] }))).toMatch(/providers\[0\]\.id/)
  })

  it("names bad option values", async () => {
    expect(await configError(testConfig({ basePath: "api" }))).toMatch(/basePath/)
    expect(await configError(testConfig({ session: { maxAge: -1 } }))).toMatch(/session\.maxAge/)
    expect(await configError(testConfig({ session: { strategy: "database" } }))).toMatch(/needs an `adapter`/)
    expect(await configError(testConfig({ pages: { signIn: "//evil.example" } }))).toMatch(/pages\.signIn/)
    expect(await configError(testConfig({ cookies: { sessionToken: { name: "a;b" } } }))).toMatch(/cookies\.sessionToken\.name/)
    expect(await configError(testConfig({ adapter: { createUser: () => ({}) } as never }))).toMatch(/missing methods.*getUserByAccount/)
  })

  it("never mutates the caller's configuration", async () => {
    const config = deepFreeze(testConfig({ callbacks: {}, session: { maxAge: 60 } }))
    const response = await Auth(new Request("http://localhost:3000/api/auth/providers"), config)
    expect(response.status).toBe(200)
  })

  it("normalises providers once per configuration object, not per request", async () => {
    const factory = vi.fn(() => acmeProvider())
    const config = testConfig({ providers: [factory] })
    for (let i = 0; i < 5; i++) await Auth(new Request("http://localhost:3000/api/auth/session"), config)
    expect(factory).toHaveBeenCalledTimes(1)
  })

  it("answers a broken configuration with a typed error, not an exception or a 500", async () => {
    // No configuration to take a logger from: core's default logger says what is wrong.
    const printed: string[] = []
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(" "))
    })
    onTestFinished(() => {
      spy.mockRestore()
    })
    const response = await Auth(new Request("http://localhost:3000/api/auth/session"), { providers: "nope", secret: SECRET } as never)
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    const page = await Auth(new Request("http://localhost:3000/api/auth/signin", { headers: { accept: "text/html" } }), null as never)
    expect(page.status).toBe(503)
    expect(await page.text()).not.toMatch(/at \w+ \(|node_modules|\.ts:/)
    expect(printed).toEqual([expect.stringContaining("`providers` must be an array"), expect.stringContaining("needs a configuration object")])
  })
})

describe("providers whose configuration is incomplete (issue 35)", () => {
  function logged(): { errors: string[]; logger: AuthConfig["logger"] } {
    const errors: string[] = []
    return { errors, logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined } }
  }

  it("leaves out a provider without its client id and logs it once per process, over requests and over configurations built per request", async () => {
    const { errors, logger } = logged()
    const build = () => testConfig({ logger, providers: [acmeProvider(), acmeProvider({ id: "half", clientId: undefined })] })
    const config = build()
    for (let i = 0; i < 3; i++) {
      const listed = await Auth(new Request(`${ORIGIN}/api/auth/providers`), config)
      expect(Object.keys((await listed.json()) as object)).toEqual(["acme"])
    }
    for (let i = 0; i < 3; i++) expect((await Auth(new Request(`${ORIGIN}/api/auth/providers`), build())).status).toBe(200)
    expect(errors).toEqual(["Configuration: half: set `clientId` or AUTH_HALF_ID."])
  })

  it("keeps failing the whole configuration when every provider is incomplete, naming each one's values", async () => {
    const message = await configError(testConfig({ providers: [acmeProvider({ clientId: undefined }), acmeProvider({ id: "idp", type: "oidc", clientSecret: "" })] }))
    expect(message).toBe(
      'Configuration: No provider can sign in: acme: set `clientId` or AUTH_ACME_ID. idp: set `clientSecret` or AUTH_IDP_SECRET (or `client.token_endpoint_auth_method: "none"` for a public client); set `issuer` or AUTH_IDP_ISSUER.',
    )
    const response = await Auth(new Request(`${ORIGIN}/api/auth/session`), testConfig({ providers: [acmeProvider({ clientId: "" })] }))
    expect(response.status).toBe(503)
  })

  it("still refuses a value that is there but unusable, as a configuration error for every route", async () => {
    expect(await configError(testConfig({ providers: [acmeProvider(), acmeProvider({ id: "half", clientId: 42 })] }))).toMatch(/`providers\["half"\]\.clientId` must be a string/)
  })
})

describe("rotating the secret of a live configuration object", () => {
  const NEXT = "the-next-secret-that-is-also-32-characters-or-more"
  const COOKIE = "authjs.session-token"

  function rotatingApp(secret: string | string[] = [SECRET]): AuthConfig {
    return testConfig({ secret, providers: [passwordProvider()] })
  }

  /** Signs ada in; answers the sealed session token. */
  async function signIn(config: AuthConfig): Promise<string> {
    const jar = new Jar()
    await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password: PASSWORD } })
    const token = jar.cookies.get(COOKIE)
    if (token === undefined) throw new Error("the sign-in set no session cookie")
    return token
  }

  async function sessionOf(config: AuthConfig, token: string): Promise<unknown> {
    const response = await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie: `${COOKIE}=${token}` } }), config)
    return response.json()
  }

  it("attack: after `config.secret = [next]`, a session sealed (and remembered) under the removed secret no longer opens", async () => {
    const config = rotatingApp()
    const token = await signIn(config)
    expect(await sessionOf(config, token)).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await sessionOf(config, token)).toMatchObject({ user: { name: "Ada Lovelace" } })
    config.secret = [NEXT]
    expect(await sessionOf(config, token)).toBeNull()
    expect(await getSession(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie: `${COOKIE}=${token}` } }), config)).toBeNull()
  })

  it("attack: after the secrets array is edited in place, a session under the removed secret no longer opens", async () => {
    const secrets = [SECRET]
    const config = rotatingApp(secrets)
    const token = await signIn(config)
    expect(await sessionOf(config, token)).toMatchObject({ user: { name: "Ada Lovelace" } })
    secrets[0] = NEXT
    expect(await sessionOf(config, token)).toBeNull()
  })

  it("seals new sessions with the new first secret, and still opens those of a secret kept second", async () => {
    const config = rotatingApp(SECRET)
    const before = await signIn(config)
    config.secret = [NEXT, SECRET]
    const after = await signIn(config)
    expect(await decode({ token: after, secret: NEXT, salt: COOKIE })).toMatchObject({ name: "Ada Lovelace" })
    await expect(decode({ token: after, secret: SECRET, salt: COOKIE })).rejects.toThrow(/another secret|not configured/)
    expect(await sessionOf(config, before)).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await sessionOf(config, after)).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("refuses a rotation to an unusable secret with a typed error, and recovers once it is fixed", async () => {
    const config = rotatingApp()
    const token = await signIn(config)
    config.secret = [""]
    const refused = await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie: `${COOKIE}=${token}` } }), config)
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ error: "Configuration" })
    config.secret = [SECRET]
    expect(await sessionOf(config, token)).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("reads the rest of the configuration once: an unchanged secret costs no new normalisation", async () => {
    const factory = vi.fn(() => passwordProvider())
    const config = testConfig({ secret: [SECRET], providers: [factory] })
    const token = await signIn(config)
    for (let i = 0; i < 3; i++) expect(await sessionOf(config, token)).toMatchObject({ user: { name: "Ada Lovelace" } })
    config.secret = [NEXT]
    expect(await sessionOf(config, token)).toBeNull()
    expect(factory).toHaveBeenCalledTimes(1)
  })
})
