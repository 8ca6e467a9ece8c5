/**
 * End-to-end harness: the app (Auth() in process at http://localhost:3000) and a real OpenID
 * Provider (oidc-provider, on 127.0.0.1), driven by a cookie-jar browser.
 */
import { startDevIdp, type DevIdp, type DevIdpOptions } from "@portcullis/dev-idp"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { afterAll, afterEach, beforeAll } from "vitest"
import { Auth } from "../../src/index.js"
import type { OIDCConfig, OAuth2Config } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"

export const APP = "http://localhost:3000"
export const SECRET = "an-end-to-end-secret-of-at-least-32-chars"
export const CLIENT = { id: "core-e2e", secret: "core-e2e-client-secret" }

/** The provider ids every test configuration knows; the OP has their callback URLs registered. */
export const PROVIDER_IDS = ["idp", "idp-post", "idp-oauth", "idp-userinfo", "idp-second"] as const

export async function startIdp(options: Partial<DevIdpOptions> = {}): Promise<DevIdp> {
  return startDevIdp({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: PROVIDER_IDS.map((id) => `${APP}/api/auth/callback/${id}`),
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
    ...options,
  })
}

/**
 * One OpenID Provider for a test file: started before its tests, reset (hooks, delays, request
 * log) after each, closed after all. Returns an accessor, valid inside tests and hooks.
 */
export function useIdp(options: Partial<DevIdpOptions> = {}): () => DevIdp {
  let idp: DevIdp | undefined
  beforeAll(async () => {
    idp = await startIdp(options)
  })
  afterEach(() => {
    idp?.reset()
  })
  afterAll(async () => {
    await idp?.close()
  })
  return () => {
    if (idp === undefined) throw new Error("useIdp(): the OpenID Provider is only there inside tests and hooks")
    return idp
  }
}

/** An OpenID Connect provider for the dev IdP, with every check on. */
export function idpProvider(idp: DevIdp, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "idp",
    name: "Demo IdP",
    type: "oidc",
    issuer: idp.issuer,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    checks: ["pkce", "state", "nonce"],
    allowInsecureLoopbackRequests: true,
    ...overrides,
  }
}

/** The same IdP seen as a plain OAuth 2.0 provider with explicit endpoints. */
export function oauthProvider(idp: DevIdp, overrides: Partial<OAuth2Config> = {}): OAuth2Config {
  return {
    id: "idp-oauth",
    name: "Demo OAuth",
    type: "oauth",
    authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid email profile" } },
    token: `${idp.issuer}/token`,
    userinfo: `${idp.issuer}/me`,
    issuer: idp.issuer,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    checks: ["pkce", "state"],
    allowInsecureLoopbackRequests: true,
    ...overrides,
  }
}

/**
 * A browser with the app served in process. With `hold` set, the next callback request is
 * recorded and answered with a blank page instead of reaching `Auth()`, so a test can tamper
 * with it and replay it.
 */
export class Harness {
  readonly browser: TestBrowser
  held: URL | undefined
  hold = false

  /** `app` answers the app's own paths (outside `/api/auth`), e.g. a server action; default a plain page. */
  constructor(readonly config: AuthConfig, app?: (request: Request) => Promise<Response>) {
    this.browser = new TestBrowser({
      routes: {
        [APP]: async (request) => {
          const url = new URL(request.url)
          if (this.hold && url.pathname.startsWith("/api/auth/callback/")) {
            this.held = url
            this.hold = false
            return new Response("held", { status: 200 })
          }
          if (url.pathname.startsWith("/api/auth")) return Auth(request, this.config)
          if (app !== undefined) return app(request)
          return new Response(`<p>app page ${url.pathname}</p>`, { headers: { "content-type": "text/html" } })
        },
      },
    })
  }

  async csrfToken(): Promise<string> {
    const response = await this.browser.request(`${APP}/api/auth/csrf`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Posts the sign-in form for a provider and follows to the provider's login page. */
  async startSignIn(providerId: string, callbackUrl = "/protected"): Promise<Page> {
    const csrfToken = await this.csrfToken()
    return this.browser.navigate(`${APP}/api/auth/signin/${providerId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl }),
      initiator: `${APP}/api/auth/signin`,
    })
  }

  /** Logs in at the OP and approves consent when asked; returns the page the flow ends on. */
  async login(page: Page, account = { login: "alice@example.com", password: "alice-password" }): Promise<Page> {
    // The OP remembers a signed-in user: later flows come straight back without a login form.
    if (new URL(page.url).origin === APP) return page
    let current = await this.browser.submitForm(page, { values: account })
    for (let i = 0; i < 3 && new URL(current.url).origin !== APP; i++) {
      if (!current.body.includes("<form")) break
      const consent = current.body.includes(">Allow<")
      current = consent ? await this.browser.submitForm(current, { button: "Allow" }) : await this.browser.submitForm(current)
    }
    return current
  }

  /** A whole sign-in: returns the page the browser lands on. */
  async signIn(providerId = "idp", callbackUrl = "/protected"): Promise<Page> {
    return this.login(await this.startSignIn(providerId, callbackUrl))
  }

  /** Runs a sign-in up to (not including) the callback request, and returns the callback URL. */
  async holdCallback(providerId = "idp"): Promise<URL> {
    this.hold = true
    await this.signIn(providerId)
    const held = this.held
    if (held === undefined) throw new Error("the flow never reached the callback")
    this.held = undefined
    return held
  }

  async session(): Promise<unknown> {
    const response = await this.browser.request(`${APP}/api/auth/session`)
    return response.json()
  }

  /** Requests the (possibly tampered) callback as the browser would and returns where it lands. */
  async callback(url: URL | string): Promise<Page> {
    return this.browser.navigate(url, { initiator: "http://127.0.0.1/" })
  }
}

/** The error code of the page a flow ended on. */
export function errorOf(page: Page): string | null {
  return new URL(page.url).searchParams.get("error")
}

/** A configuration for the e2e tests, logging into an array instead of the console. */
export function e2eConfig(providers: AuthConfig["providers"], overrides: Partial<AuthConfig> = {}): AuthConfig & { errors: string[] } {
  const errors: string[] = []
  return {
    secret: SECRET,
    trustHost: true,
    providers,
    logger: {
      error: (error) => errors.push(`${error.code}: ${error.message}`),
      warn: () => undefined,
    },
    ...overrides,
    errors,
  }
}
