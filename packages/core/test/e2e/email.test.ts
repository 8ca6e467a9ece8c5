import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Adapter, VerificationToken } from "../../src/adapters.js"
import type { EmailConfig, SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, acmeProvider, call, csrfToken, followEmailLink, location, passwordProvider } from "../helpers.js"
import { SECRET, e2eConfig } from "./harness.js"

interface Setup {
  config: AuthConfig & { errors: string[] }
  adapter: ReturnType<typeof MemoryAdapter>
  /** Every verification request handed to the provider, as its mail would carry it. */
  sent: SendVerificationRequestParams[]
  /** What reached the store's `createVerificationToken`. */
  stored: VerificationToken[]
}

function setup(options: { provider?: Partial<EmailConfig>; config?: Partial<AuthConfig>; adapter?: ReturnType<typeof MemoryAdapter> } = {}): Setup {
  const adapter = options.adapter ?? MemoryAdapter()
  const sent: SendVerificationRequestParams[] = []
  const stored: VerificationToken[] = []
  const recording: Adapter = {
    ...adapter,
    createVerificationToken: (token) => {
      stored.push(token)
      return adapter.createVerificationToken(token)
    },
  }
  const config = e2eConfig(
    [
      {
        id: "email",
        name: "Email",
        type: "email",
        from: "Sign-in <no-reply@app.example>",
        sendVerificationRequest: (params) => {
          sent.push(params)
        },
        ...options.provider,
      },
    ],
    { adapter: recording, ...options.config },
  )
  return { config, adapter, sent, stored }
}

/** Posts the sign-in form with an `email` field (or several). */
async function requestLink(config: AuthConfig, jar: Jar, email: string | string[], callbackUrl = "/welcome"): Promise<Response> {
  const form = new URLSearchParams({ csrfToken: await csrfToken(config, jar), callbackUrl })
  for (const value of Array.isArray(email) ? email : [email]) form.append("email", value)
  return call(config, jar, "/api/auth/signin/email", { form })
}

/** Opens the link (GET), then presses the confirmation page's button (POST), as a person does. */
const followLink = followEmailLink

async function session(config: AuthConfig, jar: Jar): Promise<unknown> {
  return (await call(config, jar, "/api/auth/session")).json()
}

afterEach(() => {
  vi.useRealTimers()
})

describe("email sign-in", () => {
  it("sends a link, shows verify-request, and signs a new user in with emailVerified set", async () => {
    const { config, adapter, sent } = setup()
    const jar = new Jar()
    const response = await requestLink(config, jar, "  Ada@Example.COM ")
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/verify-request?provider=email&type=email`)
    expect(sent).toHaveLength(1)
    const request = sent[0] as SendVerificationRequestParams
    expect(request.identifier).toBe("ada@example.com")
    expect(request.provider).toMatchObject({ id: "email", from: "Sign-in <no-reply@app.example>", maxAge: 86_400 })
    expect(request.token).toMatch(/^[\w-]{43}$/)
    expect(request.expires.getTime()).toBeGreaterThan(Date.now() + 86_000_000)
    const link = new URL(request.url)
    expect(link.pathname).toBe("/api/auth/callback/email")
    expect(Object.fromEntries(link.searchParams)).toEqual({ callbackUrl: `${ORIGIN}/welcome`, token: request.token, email: "ada@example.com" })

    const verify = await call(config, jar, "/api/auth/verify-request?provider=email&type=email")
    expect(await verify.text()).toContain("Check your email")

    const signedIn = await followLink(config, new Jar(), request.url)
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    const user = await adapter.getUserByEmail("ada@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
  })

  it("starts a session in the browser that follows the link", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    const browser = new Jar()
    await followLink(config, browser, sent[0]?.url ?? "")
    expect(await session(config, browser)).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("stores the token only as an HMAC keyed by the secret", async () => {
    const { config, sent, stored } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    expect(stored).toHaveLength(1)
    expect(stored[0]?.token).not.toBe(sent[0]?.token)
    expect(stored[0]?.token).not.toContain(sent[0]?.token ?? "")
    expect(stored[0]?.token).toMatch(/^[\w-]{43}$/)
  })

  it("answers the same whether or not the address has a user", async () => {
    const adapter = MemoryAdapter({ users: [{ id: "u1", email: "known@example.com", emailVerified: null }] })
    const { config } = setup({ adapter })
    const known = await requestLink(config, new Jar(), "known@example.com")
    const unknown = await requestLink(config, new Jar(), "unknown@example.com")
    expect(known.status).toBe(unknown.status)
    expect(known.headers.get("location")).toBe(unknown.headers.get("location"))
  })

  it("signs a user whose email a provider verified in by a link (rule R1 does not apply)", async () => {
    const verifiedAt = new Date("2026-01-01T00:00:00Z")
    const adapter = MemoryAdapter({
      users: [{ id: "u1", email: "ada@example.com", emailVerified: verifiedAt, name: "Ada" }],
      accounts: [{ userId: "u1", type: "oidc", provider: "idp", providerAccountId: "ada-at-idp" }],
    })
    const { config, sent } = setup({ adapter })
    await requestLink(config, new Jar(), "ada@example.com")
    const jar = new Jar()
    await followLink(config, jar, sent[0]?.url ?? "")
    expect(await session(config, jar)).toMatchObject({ user: { id: "u1", name: "Ada" } })
  })

  it("refuses a link into a user who only claimed the address at a provider (squatted email)", async () => {
    const adapter = MemoryAdapter({
      users: [{ id: "squatter", email: "ada@example.com", emailVerified: null, name: "Not Ada" }],
      accounts: [{ userId: "squatter", type: "oauth", provider: "acme", providerAccountId: "mallory" }],
    })
    const { config, sent } = setup({ adapter })
    await requestLink(config, new Jar(), "ada@example.com")
    const jar = new Jar()
    const landed = location(await followLink(config, jar, sent[0]?.url ?? ""))
    expect(landed.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await session(config, jar)).toBeNull()
    expect((await adapter.getUser("squatter"))?.emailVerified).toBeNull()
    expect(config.errors.join("\n")).toMatch(/never verified/)
  })

  it("signs such a user in, marking the email verified, when the email provider sets allowDangerousEmailAccountLinking", async () => {
    const adapter = MemoryAdapter({
      users: [{ id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" }],
      accounts: [{ userId: "u1", type: "oidc", provider: "idp", providerAccountId: "ada-at-idp" }],
    })
    const updated: unknown[] = []
    const { config, sent } = setup({
      adapter,
      provider: { allowDangerousEmailAccountLinking: true },
      config: { events: { updateUser: (message) => { updated.push(message) } } },
    })
    await requestLink(config, new Jar(), "ada@example.com")
    const jar = new Jar()
    await followLink(config, jar, sent[0]?.url ?? "")
    expect(await session(config, jar)).toMatchObject({ user: { id: "u1", name: "Ada" } })
    expect((await adapter.getUser("u1"))?.emailVerified).toBeInstanceOf(Date)
    expect(updated).toHaveLength(1)
    expect(updated[0]).toMatchObject({ user: { id: "u1" } })
    expect((updated[0] as { user: { emailVerified: unknown } }).user.emailVerified).toBeInstanceOf(Date)
  })

  it("sends a new user to pages.newUser", async () => {
    const { config, sent } = setup({ config: { pages: { newUser: "/onboarding" } } })
    await requestLink(config, new Jar(), "ada@example.com")
    const landed = location(await followLink(config, new Jar(), sent[0]?.url ?? ""))
    expect(landed.pathname).toBe("/onboarding")
    expect(landed.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/welcome`)
  })

  it("works with JWT sessions beside the adapter", async () => {
    const { config, adapter, sent } = setup({ config: { session: { strategy: "jwt" } } })
    await requestLink(config, new Jar(), "ada@example.com")
    const jar = new Jar()
    await followLink(config, jar, sent[0]?.url ?? "")
    const user = await adapter.getUserByEmail("ada@example.com")
    expect(await session(config, jar)).toMatchObject({ user: { id: user?.id, email: "ada@example.com" } })
  })

  it("still accepts a link made before the secret was rotated", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    const rotated = { ...config, secret: ["a-brand-new-secret-of-at-least-32-characters", SECRET] }
    const jar = new Jar()
    expect(location(await followLink(rotated, jar, sent[0]?.url ?? "")).pathname).toBe("/welcome")
  })

  it("keys the stored HMAC with the provider's own secret (Auth.js's `secret` option): a link stored under it does not verify under the app's", async () => {
    const own = "an-email-provider-secret-of-32-characters"
    const { config, sent, adapter } = setup({ provider: { secret: own } })
    await requestLink(config, new Jar(), "ada@example.com")
    await requestLink(config, new Jar(), "ada@example.com")
    const appKeyed = setup({ adapter }).config
    expect(location(await followLink(appKeyed, new Jar(), sent[0]?.url ?? "")).searchParams.get("error")).toBe("Verification")
    expect(location(await followLink(config, new Jar(), sent[1]?.url ?? "")).pathname).toBe("/welcome")
  })

  it("uses the provider's normalizeIdentifier and generateVerificationToken", async () => {
    const token = "t".repeat(64)
    const { config, sent } = setup({
      provider: { normalizeIdentifier: (value) => value.trim().replace(/\+[^@]*@/, "@"), generateVerificationToken: () => token },
    })
    await requestLink(config, new Jar(), "ada+news@example.com")
    expect(sent[0]).toMatchObject({ identifier: "ada@example.com", token })
  })

  it("refuses a custom token shorter than 32 bytes of entropy", async () => {
    const { config, sent, stored } = setup({ provider: { generateVerificationToken: () => "123456" } })
    const response = await requestLink(config, new Jar(), "ada@example.com")
    expect(location(response).searchParams.get("error")).toBe("Configuration")
    expect(sent).toEqual([])
    expect(stored).toEqual([])
  })

  it("removes the token and reports EmailSignInError when the email cannot be sent", async () => {
    const adapter = MemoryAdapter()
    const { config, stored } = setup({ adapter, provider: { sendVerificationRequest: () => Promise.reject(new Error("SMTP down")) } })
    const response = await requestLink(config, new Jar(), "ada@example.com")
    const target = location(response)
    expect(target.pathname).toBe("/api/auth/signin")
    expect(target.searchParams.get("error")).toBe("EmailSignInError")
    expect(config.errors.join("\n")).toMatch(/sendVerificationRequest/)
    expect(stored).toHaveLength(1)
    expect(adapter.useVerificationToken({ identifier: "ada@example.com", token: stored[0]?.token ?? "" })).toBeNull()
  })

  it("lets the signIn callback refuse before any email is sent", async () => {
    const signIn = vi.fn((_params: unknown) => false)
    const { config, sent } = setup({ config: { callbacks: { signIn } } })
    const response = await requestLink(config, new Jar(), "ada@example.com")
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/error?error=AccessDenied`)
    expect(sent).toEqual([])
    expect(signIn.mock.calls).toMatchObject([[{ email: { verificationRequest: true }, user: { email: "ada@example.com" } }]])
  })

  it("redirects to the app's own verify-request page", async () => {
    const { config } = setup({ config: { pages: { verifyRequest: "/check-your-inbox" } } })
    const response = await requestLink(config, new Jar(), "ada@example.com")
    expect(response.headers.get("location")).toBe(`${ORIGIN}/check-your-inbox?provider=email&type=email`)
  })
})

describe("concurrent first sign-ins by link (a lost race ends in the winner's user)", () => {
  it("links for one new address followed at once all sign in as the one user created, none on an error page", async () => {
    const { config, adapter, sent } = setup()
    for (let i = 0; i < 3; i++) await requestLink(config, new Jar(), "ada@example.com")
    const jars = sent.map(() => new Jar())
    const answers = await Promise.all(sent.map((mail, i) => followLink(config, jars[i] as Jar, mail.url)))
    expect(answers.map((answer) => answer.headers.get("location")), config.errors.join("\n")).toEqual(sent.map(() => `${ORIGIN}/welcome`))
    const user = await adapter.getUserByEmail("ada@example.com")
    const sessions = (await Promise.all(jars.map((jar) => session(config, jar)))) as { user?: { id?: string } }[]
    expect(user?.id).toBeDefined()
    expect(sessions.map((signedIn) => signedIn.user?.id)).toEqual(sent.map(() => user?.id))
  })
})

describe("sign-in links", () => {
  it("survives a mail scanner pre-fetching the link: GET uses nothing", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    const url = sent[0]?.url ?? ""
    for (let i = 0; i < 3; i++) {
      const scanned = await call(config, new Jar(), url)
      expect(scanned.status).toBe(200)
      expect(scanned.headers.get("set-cookie") ?? "").not.toContain("session-token")
    }
    const jar = new Jar()
    expect(location(await followLink(config, jar, url)).pathname).toBe("/welcome")
    expect(await session(config, jar)).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("refuses a used link with Verification", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    const url = sent[0]?.url ?? ""
    await followLink(config, new Jar(), url)
    const again = new Jar()
    expect(location(await followLink(config, again, url)).href).toBe(`${ORIGIN}/api/auth/error?error=Verification`)
    expect(again.cookies.has("authjs.session-token")).toBe(false)
  })

  it("refuses an expired link with Verification", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { config, sent } = setup({ provider: { maxAge: 60 } })
    await requestLink(config, new Jar(), "ada@example.com")
    vi.setSystemTime(Date.now() + 61_000)
    const jar = new Jar()
    expect(location(await followLink(config, jar, sent[0]?.url ?? "")).href).toBe(`${ORIGIN}/api/auth/error?error=Verification`)
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
  })

  it("refuses a link whose token was tampered with", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "ada@example.com")
    const url = new URL(sent[0]?.url ?? "")
    url.searchParams.set("token", `${url.searchParams.get("token") ?? ""}x`)
    expect(location(await followLink(config, new Jar(), url.href)).searchParams.get("error")).toBe("Verification")
  })

  it("refuses a token used for another address", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "mallory@example.com")
    const url = new URL(sent[0]?.url ?? "")
    url.searchParams.set("email", "ada@example.com")
    expect(location(await followLink(config, new Jar(), url.href)).searchParams.get("error")).toBe("Verification")
  })

  it("refuses the confirmation POST without the CSRF token (login CSRF)", async () => {
    const { config, sent } = setup()
    await requestLink(config, new Jar(), "mallory@example.com")
    const url = new URL(sent[0]?.url ?? "")
    const victim = new Jar()
    const response = await call(config, victim, url.pathname, { form: Object.fromEntries(url.searchParams) })
    expect(location(response).searchParams.get("error")).toBe("MissingCSRF")
    expect(victim.cookies.has("authjs.session-token")).toBe(false)
  })

  it("refuses a link with a repeated or missing parameter", async () => {
    const { config } = setup()
    for (const query of ["email=a%40b.co", "token=abc", "token=a&token=b&email=a%40b.co", `token=${"x".repeat(600)}&email=a%40b.co`, "token=abc&email=a%40b.co%2C%20d%40e.f"]) {
      const response = await call(config, new Jar(), `/api/auth/callback/email?${query}`)
      expect(response.headers.get("location"), query).toBe(`${ORIGIN}/api/auth/error?error=Verification`)
    }
  })

  it("escapes the link's values on the confirmation page", async () => {
    const { config } = setup()
    const response = await call(config, new Jar(), `/api/auth/callback/email?token=${encodeURIComponent('"><script>alert(1)</script>')}&email=a%40b.co`)
    const html = await response.text()
    expect(html).not.toContain("<script>")
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
  })
})

describe("email sign-in against hostile addresses", () => {
  const hostile: [string, string | string[]][] = [
    ["a list of two addresses", "a@b.c, d@e.f"],
    ["a list without a space", "a@b.co,d@e.f"],
    ["a semicolon list", "a@b.co;d@e.f"],
    ["a display name", "Ada <ada@example.com>"],
    ["a quoted display name hiding a second address", '"victim@example.com" <attacker@evil.example>'],
    ["a header injection", "ada@example.com\r\nBcc: everyone@example.com"],
    ["a 10 kB string", `${"a".repeat(10_240)}@example.com`],
    ["a 10 kB domain", `ada@${"a".repeat(10_240)}.com`],
    ["two @ signs", "ada@evil.example@example.com"],
    ["a comment", "ada(comment)@example.com"],
    ["no domain", "ada@"],
    ["no dot in the domain", "ada@localhost"],
    ["an empty field", ""],
    ["two email fields", ["ada@example.com", "mallory@evil.example"]],
  ]
  for (const [name, email] of hostile) {
    it(`refuses ${name} with EmailSignInError, storing and sending nothing`, async () => {
      const { config, sent, stored } = setup()
      const response = await requestLink(config, new Jar(), email)
      expect(response.status).toBe(302)
      const target = location(response)
      expect(target.pathname).toBe("/api/auth/signin")
      expect(target.searchParams.get("error")).toBe("EmailSignInError")
      expect(sent).toEqual([])
      expect(stored).toEqual([])
    })
  }

  it("refuses a sign-in form without a CSRF token", async () => {
    const { config, sent } = setup()
    const response = await call(config, new Jar(), "/api/auth/signin/email", { form: { email: "ada@example.com" } })
    expect(location(response).searchParams.get("error")).toBe("MissingCSRF")
    expect(sent).toEqual([])
  })

  it("refuses an address the provider's normalizeIdentifier rejects", async () => {
    const { config, sent } = setup({
      provider: {
        normalizeIdentifier: (value) => {
          if (!value.endsWith("@example.com")) throw new Error("only example.com")
          return value
        },
      },
    })
    expect(location(await requestLink(config, new Jar(), "ada@evil.example")).searchParams.get("error")).toBe("EmailSignInError")
    expect(sent).toEqual([])
  })
})

describe("the built-in sign-in page", () => {
  it("offers the email form and the credentials form beside the OAuth buttons", async () => {
    const { config } = setup()
    const all = { ...config, providers: [passwordProvider(), ...config.providers, acmeProvider()], session: { strategy: "jwt" as const } }
    const page = await (await call(all, new Jar(), "/api/auth/signin?callbackUrl=%2Fback")).text()
    expect(page).toContain(`action="${ORIGIN}/api/auth/signin/email"`)
    expect(page).toContain('<input id="email-email" name="email" type="email"')
    expect(page).toContain(`action="${ORIGIN}/api/auth/callback/credentials"`)
    expect(page).toContain('<label for="credentials-username">Username</label><input id="credentials-username" name="username" type="text"')
    expect(page).toContain('name="password" type="password"')
    expect(page.indexOf("Sign in with Acme")).toBeLessThan(page.indexOf("Sign in with Email"))
    expect(page.indexOf("Sign in with Email")).toBeLessThan(page.indexOf("Sign in with Password"))
    expect(page.match(/name="callbackUrl" value="http:\/\/localhost:3000\/back"/g)).toHaveLength(3)
    expect(page).not.toContain("<script")
  })
})
