/**
 * X over OAuth 1.0a (`version: "1.0A"`): next-auth v4's configuration shape, the kit's end-to-end
 * sign-in, and one test per attack on the flow, each against the kit's simulated X.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth, type AuthConfig } from "@portcullis/core"
import { FLOW, type Account } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"
import { testProvider, useSimulatedOAuth1Provider } from "../testing.js"
import fixture from "./fixture-oauth1.json" with { type: "json" }
import Twitter, { type TwitterLegacyUserConfig } from "./index.js"

const user = {
  id: "1532781650112634880",
  name: "Marta Ribeiro",
  email: "marta@example.dev",
  image: "https://pbs.twimg.com/profile_images/1532782093465223168/Qm3bX2pA.jpg",
}

testProvider((config: TwitterLegacyUserConfig) => Twitter(config), { config: { version: "1.0A" }, fixture, user })

const credentials = { clientId: "test-client-id", clientSecret: "test-client-secret" }

describe("Twitter({ version: \"1.0A\" })", () => {
  it("has next-auth v4's shape, on X's documented endpoints, carrying the OAuth 1.0a flow", () => {
    const provider = Twitter({ ...credentials, version: "1.0A" })
    expect(provider).toMatchObject({
      id: "twitter",
      type: "oauth",
      version: "1.0A",
      requestTokenUrl: "https://api.x.com/oauth/request_token",
      authorization: "https://api.x.com/oauth/authenticate",
      accessTokenUrl: "https://api.x.com/oauth/access_token",
      profileUrl: "https://api.x.com/1.1/account/verify_credentials.json?include_email=true",
    })
    expect(provider[FLOW].name).toBe("OAuth 1.0a")
    expect(Twitter(credentials)).not.toHaveProperty("requestTokenUrl")
  })

  it("lets each endpoint be overridden", () => {
    const provider = Twitter({
      ...credentials,
      version: "1.0A",
      requestTokenUrl: "https://proxy.example/request_token",
      authorization: "https://api.x.com/oauth/authorize",
      accessTokenUrl: "https://proxy.example/access_token",
      profileUrl: "https://proxy.example/verify_credentials.json",
    })
    expect(provider).toMatchObject({
      requestTokenUrl: "https://proxy.example/request_token",
      authorization: "https://api.x.com/oauth/authorize",
      accessTokenUrl: "https://proxy.example/access_token",
      profileUrl: "https://proxy.example/verify_credentials.json",
    })
  })

  it("keeps a missing avatar and email as null", async () => {
    const { email: _email, profile_image_url_https: _image, ...bare } = fixture
    expect(await Twitter({ ...credentials, version: "1.0A" }).profile?.(bare, {})).toEqual({ ...user, email: null, image: null })
  })
})

describe("OAuth 1.0a attacks, against a simulated X", () => {
  const make = () => Twitter({ ...credentials, version: "1.0A", timeout: 1000, callbackTimeout: 1500 })
  const simulated = useSimulatedOAuth1Provider(make, fixture)
  const logged: string[] = []
  const linked: Account[] = []
  const config: AuthConfig = {
    secret: "DVSTu9noe+hQ2cnlVL9jfLuMtpieQli90GwTZ/TKRMM=",
    trustHost: true,
    debug: true,
    adapter: MemoryAdapter(),
    providers: [make()],
    events: { linkAccount: ({ account }) => void linked.push(account) },
    logger: {
      error: (error) => logged.push(`${error.name} ${error.message} ${String((error.cause as Error | undefined)?.message)} ${error.stack ?? ""}`),
      warn: (code, message) => logged.push(`${code} ${message ?? ""}`),
      debug: (message, metadata) => logged.push(`${message} ${JSON.stringify(metadata)}`),
    },
  }
  const app = (request: Request) => Auth(request, config)
  const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "http://x").searchParams.get("error")
  const cookieName = "authjs.oauth1"

  it("signs in, storing oauth_token and oauth_token_secret on the linked account", async () => {
    const browser = simulated().browser(app)
    const authorization = await simulated().start(browser, "twitter")
    expect([...authorization.searchParams.keys()], "the browser is sent with the request token alone").toEqual(["oauth_token"])
    const landed = await browser.call(simulated().authorize(authorization))
    expect(landed.headers.get("location")).toBe("http://localhost:3000/")
    const session = (await (await browser.call("/api/auth/session")).json()) as { user: { email: string } }
    expect(session.user.email).toBe(user.email)
    const stored = await config.adapter?.getUserByAccount?.({ provider: "twitter", providerAccountId: user.id })
    expect(stored?.email).toBe(user.email)
    const account = linked.at(-1)
    expect(account).toMatchObject({ provider: "twitter", type: "oauth", providerAccountId: user.id })
    expect(typeof account?.oauth_token).toBe("string")
    expect(typeof account?.oauth_token_secret).toBe("string")
    expect(account).not.toHaveProperty("access_token")
  })

  it("refuses a request token whose answer lacks oauth_callback_confirmed=true", async () => {
    simulated().override("requestToken", { headers: { "content-type": "text/html" }, body: "oauth_token=t0k3n-unconfirmed&oauth_token_secret=s3cr3t-unconfirmed" })
    try {
      const browser = simulated().browser(app)
      const sent = await simulated().start(browser, "twitter")
      expect(sent.searchParams.get("error")).toBe("OAuthSignInError")
      expect(browser.cookies.has(cookieName), "no request token was remembered").toBe(false)
    } finally {
      simulated().override("requestToken", undefined)
    }
  })

  it("refuses a callback carrying another browser's request token (login CSRF)", async () => {
    const attacker = simulated().browser(app)
    const stolen = simulated().authorize(await simulated().start(attacker, "twitter"))
    const victim = simulated().browser(app)
    await simulated().start(victim, "twitter")
    const answered = await victim.call(stolen)
    expect(errorOf(answered)).toBe("InvalidCheck")
    expect(await (await victim.call("/api/auth/session")).json()).toBeNull()
  })

  it("refuses a callback in a browser that started no sign-in", async () => {
    const attacker = simulated().browser(app)
    const stolen = simulated().authorize(await simulated().start(attacker, "twitter"))
    const victim = simulated().browser(app)
    await victim.call("/api/auth/csrf")
    expect(errorOf(await victim.call(stolen))).toBe("InvalidCheck")
  })

  it("refuses a planted request token cookie sealed for another browser", async () => {
    const attacker = simulated().browser(app)
    const callback = simulated().authorize(await simulated().start(attacker, "twitter"))
    const victim = simulated().browser(app)
    await victim.call("/api/auth/csrf")
    victim.cookies.set(cookieName, attacker.cookies.get(cookieName) ?? "")
    expect(errorOf(await victim.call(callback))).toBe("InvalidCheck")
  })

  it("refuses a replayed callback: the cookie is cleared, and a restored one finds the token used", async () => {
    const browser = simulated().browser(app)
    const authorization = await simulated().start(browser, "twitter")
    const sealed = browser.cookies.get(cookieName) ?? ""
    const callback = simulated().authorize(authorization)
    expect(errorOf(await browser.call(callback))).toBeNull()
    expect(browser.cookies.has(cookieName)).toBe(false)
    expect(errorOf(await browser.call(callback))).toBe("InvalidCheck")
    browser.cookies.set(cookieName, sealed)
    expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
  })

  it("answers a refusal at X (denied) with AccessDenied on the sign-in page", async () => {
    const browser = simulated().browser(app)
    const answered = await browser.call(simulated().authorize(await simulated().start(browser, "twitter"), { deny: true }))
    expect(new URL(answered.headers.get("location") ?? "").pathname).toBe("/api/auth/signin")
    expect(errorOf(answered)).toBe("AccessDenied")
  })

  it("gives up on a hung request token endpoint within the timeout", async () => {
    simulated().override("requestToken", "hang")
    try {
      const started = Date.now()
      const sent = await simulated().start(simulated().browser(app), "twitter")
      expect(sent.searchParams.get("error")).toBe("OAuthSignInError")
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      simulated().override("requestToken", undefined)
    }
  })

  it("gives up on a hung access token endpoint within the timeout", async () => {
    const browser = simulated().browser(app)
    const callback = simulated().authorize(await simulated().start(browser, "twitter"))
    simulated().override("accessToken", "hang")
    try {
      const started = Date.now()
      expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      simulated().override("accessToken", undefined)
    }
  })

  it("refuses an access token answer that is not a form (an HTML page)", async () => {
    const browser = simulated().browser(app)
    const callback = simulated().authorize(await simulated().start(browser, "twitter"))
    simulated().override("accessToken", { headers: { "content-type": "text/html" }, body: "<html><body>Whoa there!</body></html>" })
    try {
      expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
      expect(logged.join("\n")).toMatch(/not a form/)
    } finally {
      simulated().override("accessToken", undefined)
    }
  })

  it("refuses a huge access token answer without reading it all", async () => {
    const browser = simulated().browser(app)
    const callback = simulated().authorize(await simulated().start(browser, "twitter"))
    simulated().override("accessToken", { body: `oauth_token=x&oauth_token_secret=y&pad=${"a".repeat(64 * 1024)}` })
    try {
      expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
      expect(logged.join("\n")).toMatch(/too large/)
    } finally {
      simulated().override("accessToken", undefined)
    }
  })

  it("refuses a profile answer that is not a JSON object", async () => {
    const browser = simulated().browser(app)
    const callback = simulated().authorize(await simulated().start(browser, "twitter"))
    simulated().override("profile", { headers: { "content-type": "application/json" }, body: "[1,2,3]" })
    try {
      expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
    } finally {
      simulated().override("profile", undefined)
    }
  })

  it("puts no token, secret or verifier in a log or a URL", async () => {
    const locations: string[] = []
    const watching = async (request: Request) => {
      const response = await app(request)
      locations.push(response.headers.get("location") ?? "")
      return response
    }
    const browser = simulated().browser(watching)
    const callback = simulated().authorize(await simulated().start(browser, "twitter"))
    await browser.call(callback)
    await browser.call(callback)
    const issued = [...simulated().issued]
    expect(issued.length).toBeGreaterThan(4)
    const text = logged.join("\n")
    expect(text.length, "the log was written").toBeGreaterThan(0)
    for (const value of issued) expect(text.includes(value), "a provider token in the log").toBe(false)
    const secrets = issued.filter((value) => !callback.includes(value))
    for (const location of locations) for (const value of secrets) expect(location.includes(value), "a secret in a redirect").toBe(false)
  })
})
