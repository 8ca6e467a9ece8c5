/**
 * The OAuth 1.0a flow through `Auth()` with two OAuth 1.0a providers, each a simulated provider
 * on 127.0.0.1 that checks every signature: a request token belongs to the provider that issued
 * it, and no log line shows a consumer secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { simulateOAuth1Provider, type SimulatedOAuth1Provider } from "@portcullis/providers/testing-oauth1.js"
import { Auth } from "../src/index.js"
import { oauth1 } from "../src/oauth1/index.js"
import { FLOW, lazyFlow, type SignInFlow } from "../src/providers/index.js"
import type { AuthConfig, LoggerInstance } from "../src/types.js"

const SECRET = "an-oauth1-test-secret-of-at-least-32-chars"
const COOKIE = "authjs.oauth1"

/** An OAuth 1.0a provider on `https://api.<host>`, with its own API key and consumer secret. */
function endpoints(host: string) {
  return {
    requestTokenUrl: `https://api.${host}/oauth/request_token`,
    authorization: `https://api.${host}/oauth/authenticate`,
    accessTokenUrl: `https://api.${host}/oauth/access_token`,
    profileUrl: `https://api.${host}/1.1/account/verify_credentials.json`,
  }
}

const acme = { id: "acme", host: "acme.example", consumerKey: "acme-api-key", consumerSecret: "acme-consumer-secret-5f2b9c" }
const zenith = { id: "zenith", host: "zenith.example", consumerKey: "zenith-api-key", consumerSecret: "zenith-consumer-secret-8d1e4a" }
const fixture = { id: 1532781650112634880, id_str: "1532781650112634880", name: "Marta Ribeiro", screen_name: "marta", email: "marta@example.dev" }

function providerConfig(which: typeof acme, flow: object = oauth1, extra: Record<string, unknown> = {}) {
  return {
    id: which.id,
    name: which.id,
    type: "oauth",
    clientId: which.consumerKey,
    clientSecret: which.consumerSecret,
    ...endpoints(which.host),
    timeout: 1000,
    callbackTimeout: 1500,
    ...extra,
    [FLOW]: flow,
  } as never
}

let simulators: Map<string, SimulatedOAuth1Provider>
/** Every URL the app asked a provider for. */
const requested: string[] = []

beforeAll(async () => {
  simulators = new Map([
    [acme.host, await simulateOAuth1Provider(endpoints(acme.host), acme, fixture)],
    [zenith.host, await simulateOAuth1Provider(endpoints(zenith.host), zenith, fixture)],
  ])
  // Each simulator answers its own provider's URLs; requests reach the one their host names.
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    requested.push(url.href)
    const simulator = simulators.get(url.hostname.replace(/^api\./, ""))
    if (simulator === undefined) throw new Error(`no simulated provider at ${url.href}`)
    return simulator.fetch(input, init)
  })
})

afterEach(() => {
  requested.length = 0
  vi.unstubAllEnvs()
})

afterAll(async () => {
  vi.unstubAllGlobals()
  await Promise.all([...simulators.values()].map((simulator) => simulator.close()))
})

const simulator = (which: typeof acme): SimulatedOAuth1Provider => simulators.get(which.host) as SimulatedOAuth1Provider
const errorOf = (response: Response): string | null => new URL(response.headers.get("location") ?? "", "http://x").searchParams.get("error")

function capturingLogger(): { logger: LoggerInstance; lines: string[] } {
  const lines: string[] = []
  const text = (value: unknown): string => {
    if (!(value instanceof Error)) return typeof value === "string" ? value : JSON.stringify(value)
    return [value.name, value.message, value.stack ?? "", text(value.cause), JSON.stringify(value)].join("\n")
  }
  return {
    lines,
    logger: {
      error: (error) => lines.push(text(error)),
      warn: (code, message) => lines.push(`${code} ${message ?? ""}`),
      debug: (message, metadata) => lines.push(`${message} ${text(metadata)}`),
    },
  }
}

describe("two OAuth 1.0a providers", () => {
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger: capturingLogger().logger, providers: [providerConfig(acme), providerConfig(zenith)] }
  const app = (request: Request) => Auth(request, config)

  it("signs in with each", async () => {
    for (const which of [acme, zenith]) {
      const { session } = await simulator(which).signIn(app, which.id)
      expect(session).toMatchObject({ user: { name: fixture.name, email: fixture.email } })
    }
  })

  it("refuses at one provider's callback a request token issued by the other, asking the other provider nothing", async () => {
    const browser = simulator(acme).browser(app)
    const callback = new URL(simulator(acme).authorize(await simulator(acme).start(browser, acme.id)))
    const elsewhere = new URL(`/api/auth/callback/${zenith.id}${callback.search}`, callback)
    requested.length = 0
    const answered = await browser.call(elsewhere.href)
    expect(errorOf(answered)).toBe("InvalidCheck")
    expect(requested, "no request reached either provider").toEqual([])
    expect(browser.cookies.has(COOKIE), "the request token is spent").toBe(false)
    expect(await (await browser.call("/api/auth/session")).json()).toBeNull()
  })

  it("refuses a request token cookie from one provider's sign-in planted beside the other's callback", async () => {
    const browser = simulator(acme).browser(app)
    await simulator(acme).start(browser, acme.id)
    const acmeCookie = browser.cookies.get(COOKIE) ?? ""
    const callback = simulator(zenith).authorize(await simulator(zenith).start(browser, zenith.id))
    browser.cookies.set(COOKIE, acmeCookie)
    expect(errorOf(await browser.call(callback))).toBe("InvalidCheck")
  })
})

describe("the consumer secret in logs", () => {
  /** A profile callback that fails, quoting the consumer secret, as careless app code does. */
  const leaky = (which: typeof acme) => ({
    profile: () => {
      throw new Error(`cannot map the profile signed with ${which.consumerSecret}`)
    },
  })
  const throwingEvents = (which: typeof acme): AuthConfig["events"] => ({
    signOut: () => {
      throw new Error(`audit failed (consumer secret ${which.consumerSecret})`)
    },
  })

  const lazy = lazyFlow({ name: "OAuth 1.0a", load: () => Promise.resolve(oauth1 as unknown as SignInFlow<never>) })
  for (const [label, flow, fromEnv] of [
    ["the flow carried directly", oauth1, false],
    ["the flow fetched on first use", lazy, false],
    ["the flow fetched on first use and the secret in AUTH_ACME_SECRET", lazy, true],
  ] as const) {
    it(`never reaches a logger, with ${label}`, async () => {
      const capture = capturingLogger()
      if (fromEnv) vi.stubEnv("AUTH_ACME_SECRET", acme.consumerSecret)
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        debug: true,
        logger: capture.logger,
        providers: [providerConfig(acme, flow, { ...leaky(acme), ...(fromEnv ? { clientSecret: undefined } : {}) })],
        events: throwingEvents(acme),
      }
      const app = (request: Request) => Auth(request, config)
      const browser = simulator(acme).browser(app)
      const callback = simulator(acme).authorize(await simulator(acme).start(browser, acme.id))
      expect(errorOf(await browser.call(callback))).toBe("OAuthCallbackError")
      // An event handler's failure is logged outside the flow's own error handling.
      const { csrfToken } = (await (await browser.call("/api/auth/csrf")).json()) as { csrfToken: string }
      await browser.call("/api/auth/signout", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }) })
      const text = capture.lines.join("\n")
      expect(text).toMatch(/cannot map the profile/)
      expect(text).toMatch(/audit failed/)
      expect(text, "a log line shows the consumer secret").not.toContain(acme.consumerSecret)
    })
  }
})
