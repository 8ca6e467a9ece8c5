/**
 * Security item 1: no URL that leaves the server is built from a request header. Each attack
 * is a forged `Host` / `X-Forwarded-Host` against `Auth()` with `trustHost: true`.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { Auth } from "../../src/index.js"
import { compileOriginPattern } from "../../src/http/origin-patterns.js"
import type { SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { PASSWORD, SECRET, acmeProvider, passwordProvider, setCookies } from "../helpers.js"

const EVIL = "evil.example"

interface Recorded {
  config: AuthConfig
  sent: SendVerificationRequestParams[]
  errors: string[]
}

function emailApp(overrides: Partial<AuthConfig> = {}): Recorded {
  const sent: SendVerificationRequestParams[] = []
  const errors: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [
      { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => { sent.push(params) } },
      acmeProvider(),
    ],
    logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    ...overrides,
  }
  return { config, sent, errors }
}

/** A CSRF token and cookie, fetched on `origin` (with the same forged headers the attack sends). */
async function csrf(config: AuthConfig, origin: string, headers: Record<string, string>): Promise<{ token: string; cookie: string }> {
  const response = await Auth(new Request(`${origin}/api/auth/csrf`, { headers }), config)
  const [name, value] = [...setCookies(response)][0] ?? ["", ""]
  return { token: ((await response.json()) as { csrfToken: string }).csrfToken, cookie: `${name}=${value}` }
}

async function post(config: AuthConfig, origin: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const { token, cookie } = await csrf(config, origin, headers)
  return Auth(
    new Request(`${origin}${path}`, {
      method: "POST",
      headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...form, csrfToken: token }).toString(),
    }),
    config,
  )
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("origins that leave the server", () => {
  it("magic link with a forged Host and no configured origin: refused, nothing sent", async () => {
    const app = emailApp()
    const response = await post(app.config, `https://${EVIL}`, "/api/auth/signin/email", { email: "victim@example.com" })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("Configuration")
    expect(app.sent).toHaveLength(0)
    expect(app.errors.join("\n")).toMatch(/AUTH_URL.*allowedOrigins/)
  })

  it("magic link with a forged X-Forwarded-Host while AUTH_URL is set: the link points at AUTH_URL", async () => {
    const app = emailApp({ url: "https://app.example.com" })
    await post(app.config, "https://app.example.com", "/api/auth/signin/email", { email: "victim@example.com" }, { "x-forwarded-host": EVIL })
    expect(app.sent).toHaveLength(1)
    expect(new URL(app.sent[0]?.url ?? "").origin).toBe("https://app.example.com")
  })

  it("magic link on a loopback development server needs no configuration", async () => {
    const app = emailApp()
    await post(app.config, "http://localhost:3000", "/api/auth/signin/email", { email: "dev@example.com" })
    expect(new URL(app.sent[0]?.url ?? "").origin).toBe("http://localhost:3000")
  })

  it("magic link on an allowlisted preview origin points at that preview", async () => {
    const app = emailApp({ url: "https://app.example.com", allowedOrigins: ["https://*.preview.example.com"] })
    await post(app.config, "https://app.example.com", "/api/auth/signin/email", { email: "a@example.com" }, { "x-forwarded-host": "pr-7.preview.example.com" })
    expect(new URL(app.sent[0]?.url ?? "").origin).toBe("https://pr-7.preview.example.com")
  })

  it("OAuth redirect_uri with a forged Host and no configured origin: refused before leaving for the provider", async () => {
    const app = emailApp()
    const response = await post(app.config, `https://${EVIL}`, "/api/auth/signin/acme", {})
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.origin).not.toBe("https://acme.example")
    expect(location.searchParams.get("error")).toBe("Configuration")
  })

  it("OAuth redirect_uri with a forged X-Forwarded-Host while AUTH_URL is set: built from AUTH_URL", async () => {
    const app = emailApp({ url: "https://app.example.com" })
    const response = await post(app.config, "https://app.example.com", "/api/auth/signin/acme", {}, { "x-forwarded-host": EVIL })
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.origin).toBe("https://acme.example")
    expect(location.searchParams.get("redirect_uri")).toBe("https://app.example.com/api/auth/callback/acme")
  })

  it("a host outside allowedOrigins is refused outright when no canonical URL is set", async () => {
    const app = emailApp({ allowedOrigins: ["https://app.example.com"] })
    const response = await Auth(new Request(`https://${EVIL}/api/auth/session`), app.config)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "UntrustedHost" })
  })

  it("reads AUTH_URL and AUTH_ALLOWED_ORIGINS from the environment", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    vi.stubEnv("AUTH_ALLOWED_ORIGINS", "https://*.preview.example.com, https://staging.example.com")
    const config = await resolveConfig({ secret: SECRET, providers: [] })
    expect(config.authUrl?.origin).toBe("https://app.example.com")
    expect(config.basePath).toBe("/auth")
    expect(config.origins.allowed.map((pattern) => pattern.source)).toEqual(["https://*.preview.example.com", "https://staging.example.com"])
  })
})

describe("loopback origins named by a header", () => {
  /**
   * Request headers that name a loopback host the request URL does not have. Core never reads
   * the standard `Forwarded` header (an integration such as Express applies it, under its own
   * trust setting, to the request URL); its cases keep it that way.
   */
  const FORGED: Record<string, string>[] = [
    { "x-forwarded-host": "localhost" },
    { "x-forwarded-host": "localhost:3000" },
    { "x-forwarded-host": "evil.localhost" },
    { "x-forwarded-host": "127.0.0.2" },
    { "x-forwarded-host": "[::1]" },
    { "x-forwarded-host": "[::1]:8080", "x-forwarded-proto": "http" },
    { forwarded: "host=localhost" },
    { forwarded: 'for=192.0.2.1;host="127.0.0.1:3000";proto=http' },
  ]

  for (const headers of FORGED) {
    const name = Object.entries(headers).map(([header, value]) => `${header}: ${value}`).join(", ")

    it(`attack: ${name} with only trustHost builds no redirect_uri on that loopback name`, async () => {
      const app = emailApp()
      const response = await post(app.config, `https://${EVIL}`, "/api/auth/signin/acme", {}, headers)
      const location = new URL(response.headers.get("location") ?? "")
      expect(location.origin).not.toBe("https://acme.example")
      expect(location.searchParams.get("redirect_uri")).toBeNull()
      expect(location.searchParams.get("error")).toBe("Configuration")
    })

    it(`attack: ${name} with only trustHost emails no sign-in link on that loopback name`, async () => {
      const app = emailApp()
      await post(app.config, `https://${EVIL}`, "/api/auth/signin/email", { email: "victim@example.com" }, headers)
      expect(app.sent).toHaveLength(0)
      expect(app.errors.join("\n")).toMatch(/AUTH_URL.*allowedOrigins/)
    })
  }

  it("the request URL's own loopback host still gets a redirect_uri without configuration: 127.0.0.1", async () => {
    const app = emailApp()
    const response = await post(app.config, "http://127.0.0.1:3000", "/api/auth/signin/acme", {})
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.origin).toBe("https://acme.example")
    expect(location.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:3000/api/auth/callback/acme")
  })

  it("a proxy that repeats the request URL's own loopback host in X-Forwarded-Host (as dev servers do) still works", async () => {
    const app = emailApp()
    await post(app.config, "http://localhost:3000", "/api/auth/signin/email", { email: "dev@example.com" }, { "x-forwarded-host": "localhost:3000" })
    expect(new URL(app.sent[0]?.url ?? "").origin).toBe("http://localhost:3000")
  })

  it("a loopback name listed in allowedOrigins is admitted from X-Forwarded-Host: configuration, not the header, decides", async () => {
    const app = emailApp({ allowedOrigins: ["http://localhost:5173"] })
    const response = await post(app.config, "http://127.0.0.1:3000", "/api/auth/signin/acme", {}, { "x-forwarded-host": "localhost:5173" })
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("redirect_uri")).toBe("http://localhost:5173/api/auth/callback/acme")
  })
})

describe("allowedOrigins patterns", () => {
  const admits = (pattern: string, origin: string): boolean => compileOriginPattern(pattern, "allowedOrigins[0]").test(origin)

  it("lets * stand for one label's letters, digits and dashes, never a dot", () => {
    expect(admits("https://*.preview.example.com", "https://pr-1.preview.example.com")).toBe(true)
    expect(admits("https://*.preview.example.com", "https://a.b.preview.example.com")).toBe(false)
    expect(admits("https://*.preview.example.com", "https://preview.example.com")).toBe(false)
    expect(admits("https://my-app-*.vercel.app", "https://my-app-git-main-team.vercel.app")).toBe(true)
    expect(admits("https://my-app-*.vercel.app", "https://other-app.vercel.app")).toBe(false)
  })

  it("matches scheme and port exactly", () => {
    expect(admits("https://*.preview.example.com", "http://pr-1.preview.example.com")).toBe(false)
    expect(admits("https://app.example.com", "https://app.example.com:8443")).toBe(false)
    expect(admits("https://app.example.com:443", "https://app.example.com")).toBe(true)
    expect(admits("http://localhost:3000", "http://localhost:3000")).toBe(true)
  })

  it("refuses a suffix attack: the pattern's host is not a prefix of an attacker's", () => {
    expect(admits("https://app.example.com", "https://app.example.com.evil.example")).toBe(false)
    expect(admits("https://*.example.com", "https://x.example.com.evil.example")).toBe(false)
  })

  it("refuses patterns that would admit a whole public suffix or are not origins", () => {
    for (const entry of ["https://*.com", "https://*", "https://app.*.example.com", "https://app.example.com/path", "ftp://x.example.com", "app.example.com"]) {
      expect(() => compileOriginPattern(entry, "allowedOrigins[0]"), entry).toThrow(/allowedOrigins\[0\]/)
    }
  })
})

describe("sessions across origins", () => {
  const CANONICAL = "https://app.example.com"
  const PREVIEW_HOST = "pr-7.preview.example.com"

  /** Signs in with the password provider on the origin the forwarded host names; returns the session cookie. */
  async function signInOn(config: AuthConfig, forwardedHost: string): Promise<string> {
    const headers = { "x-forwarded-host": forwardedHost }
    const response = await post(config, CANONICAL, "/api/auth/callback/credentials", { username: "ada", password: PASSWORD }, headers)
    const [name, value] = [...setCookies(response)].find(([cookie]) => cookie.endsWith("session-token")) ?? ["", ""]
    expect(value).not.toBe("")
    return `${name}=${value}`
  }

  async function sessionOn(config: AuthConfig, forwardedHost: string, cookie: string): Promise<unknown> {
    const response = await Auth(new Request(`${CANONICAL}/api/auth/session`, { headers: { cookie, "x-forwarded-host": forwardedHost } }), config)
    return response.json()
  }

  function previewApp(overrides: Partial<AuthConfig> = {}): AuthConfig {
    const logger = { error: () => undefined, warn: () => undefined }
    return { secret: SECRET, url: CANONICAL, allowedOrigins: ["https://*.preview.example.com"], providers: [passwordProvider()], logger, ...overrides }
  }

  it("a session minted on a preview deployment is not accepted by the stable one, nor the reverse", async () => {
    const config = previewApp()
    const preview = await signInOn(config, PREVIEW_HOST)
    expect(await sessionOn(config, PREVIEW_HOST, preview)).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await sessionOn(config, "app.example.com", preview)).toBeNull()
    const stable = await signInOn(config, "app.example.com")
    expect(await sessionOn(config, "app.example.com", stable)).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await sessionOn(config, PREVIEW_HOST, stable)).toBeNull()
  })

  it("shares sessions across origins when the app shares the session cookie with a domain", async () => {
    const config = previewApp({ cookies: { sessionToken: { options: { domain: "example.com" } } } })
    const preview = await signInOn(config, PREVIEW_HOST)
    expect(await sessionOn(config, "app.example.com", preview)).toMatchObject({ user: { name: "Ada Lovelace" } })
  })
})
