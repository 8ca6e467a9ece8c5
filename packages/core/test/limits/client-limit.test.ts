// Per-client limits (issue 28): each client address gets an allowance per route group, over it a
// 429 with Retry-After; only when the address is known, which no request header decides by default.
import { describe, expect, it, onTestFinished, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { forwardedFor, withClientAddress } from "../../src/client-address.js"
import { Auth } from "../../src/index.js"
import { signIn } from "../../src/server/server.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, Jar, call, testConfig } from "../helpers.js"
import { passkeyProvider, setup } from "../webauthn/harness.js"

/** A configuration whose `clientAddress` hook answers the `x-test-client` header: the tests' stand-in for a socket address. */
function addressed(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ clientAddress: (request) => request.headers.get("x-test-client"), ...overrides })
}

function from(client: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return { ...init, headers: { ...init.headers, "x-test-client": client } }
}

/** Sends `count` requests and answers their statuses. */
async function statuses(config: AuthConfig, path: string, count: number, init: { method?: string; headers?: Record<string, string> }): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) out.push((await call(config, new Jar(), path, init)).status)
  return out
}

async function expectTooMany(response: Response, windowSeconds = 60): Promise<void> {
  expect(response.status).toBe(429)
  const retryAfter = Number(response.headers.get("retry-after"))
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds)
  const body = await response.text()
  expect(body).not.toMatch(/at \w|Error:|secret/i)
  if ((response.headers.get("content-type") ?? "").startsWith("application/json")) expect(JSON.parse(body)).toMatchObject({ error: "TooManyRequests" })
}

describe("route groups at their defaults", () => {
  it("answers the 31st sign-in start of a minute 429 with Retry-After, the 30 before it as usual", async () => {
    const config = addressed()
    const before = await statuses(config, "/api/auth/signin/acme", 30, from("203.0.113.7", { method: "POST" }))
    expect(new Set(before)).toEqual(new Set([302]))
    await expectTooMany(await call(config, new Jar(), "/api/auth/signin/acme", from("203.0.113.7", { method: "POST" })))
    // The sign-in page itself (GET, and a POST without a provider) is not a sign-in start.
    expect(new Set(await statuses(config, "/api/auth/signin", 5, from("203.0.113.7")))).toEqual(new Set([200]))
  })

  it("answers the 61st callback of a minute 429, a browser's navigation with a page", async () => {
    const config = addressed()
    const before = await statuses(config, "/api/auth/callback/acme?code=x&state=y", 60, from("203.0.113.7"))
    expect(before.every((status) => status !== 429)).toBe(true)
    const page = await call(config, new Jar(), "/api/auth/callback/acme?code=x&state=y", from("203.0.113.7", { headers: { accept: "text/html" } }))
    await expectTooMany(page)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
  })

  it("counts session updates (POST) and never session reads (GET)", async () => {
    const config = addressed({ rateLimit: { perClient: { sessionUpdate: { limit: 3 } } } })
    expect(new Set(await statuses(config, "/api/auth/session", 20, from("203.0.113.7")))).toEqual(new Set([200]))
    const updates = await statuses(config, "/api/auth/session", 4, from("203.0.113.7", { method: "POST" }))
    expect(updates.slice(0, 3).every((status) => status !== 429)).toBe(true)
    expect(updates[3]).toBe(429)
  })

  it("counts passkey options requests", async () => {
    const { config } = setup({ clientAddress: (request) => request.headers.get("x-test-client"), rateLimit: { perClient: { passkeyOptions: { limit: 2 } } } }, passkeyProvider())
    const jar = new Jar()
    await call(config, jar, "/api/auth/csrf")
    const answers: Response[] = []
    for (let i = 0; i < 3; i++) answers.push(await call(config, jar, "/api/auth/webauthn-options/passkey", from("198.51.100.4")))
    expect(answers.slice(0, 2).map((response) => response.status)).toEqual([200, 200])
    await expectTooMany(answers[2] ?? new Response())
    // Another route of the same flow is not a passkey options request.
    expect((await call(config, jar, "/api/auth/webauthn-script/passkey", from("198.51.100.4"))).status).not.toBe(429)
  })

  it("counts a re-authentication's start as a sign-in start (a password guessed against a stolen session), never the page", async () => {
    const config = addressed({ rateLimit: { perClient: { signIn: { limit: 2 } } } })
    expect(new Set(await statuses(config, "/api/auth/reauth", 5, from("203.0.113.7")))).not.toContain(429)
    const starts = await statuses(config, "/api/auth/reauth/credentials", 3, from("203.0.113.7", { method: "POST" }))
    expect(starts.slice(0, 2)).not.toContain(429)
    expect(starts[2]).toBe(429)
  })

  it("counts an email change's request as a sign-in start (a mail sent) and its link's post as a callback, never the link's page", async () => {
    const config = addressed({ rateLimit: { perClient: { signIn: { limit: 2 }, callback: { limit: 2 } } } })
    const requests = await statuses(config, "/api/auth/account/email", 3, from("203.0.113.7", { method: "POST" }))
    expect(requests.slice(0, 2)).not.toContain(429)
    expect(requests[2]).toBe(429)
    expect(new Set(await statuses(config, "/api/auth/account/email/confirm?token=x", 4, from("203.0.113.7")))).not.toContain(429)
    const confirms = await statuses(config, "/api/auth/account/email/confirm", 3, from("203.0.113.7", { method: "POST" }))
    expect(confirms.slice(0, 2)).not.toContain(429)
    expect(confirms[2]).toBe(429)
  })

  it("V6.3.1: counts a second factor's code as a callback (a code guessed from many sessions) and an emailed code's request as a sign-in start (a mail sent), never the challenge page", async () => {
    const config = addressed({ adapter: MemoryAdapter(), mfa: {}, rateLimit: { perClient: { callback: { limit: 2 } } } })
    expect(new Set(await statuses(config, "/api/auth/mfa", 4, from("203.0.113.7")))).not.toContain(429)
    const codes = await statuses(config, "/api/auth/mfa/verify", 3, from("203.0.113.7", { method: "POST" }))
    expect(codes.slice(0, 2)).not.toContain(429)
    expect(codes[2]).toBe(429)
    const mails = await statuses(addressed({ adapter: MemoryAdapter(), mfa: {}, rateLimit: { perClient: { signIn: { limit: 2 } } } }), "/api/auth/mfa/email", 3, from("203.0.113.7", { method: "POST" }))
    expect(mails.slice(0, 2)).not.toContain(429)
    expect(mails[2]).toBe(429)
  })

  it("V6.3.1: counts a pending sign-in's passkey registration as a callback and its options as a passkey's (each writes to the store)", async () => {
    const passkeyMfa = { adapter: MemoryAdapter(), mfa: { factors: ["passkey" as const], required: true }, providers: [passkeyProvider({ formFields: {} }) as never] }
    const registrations = await statuses(addressed({ ...passkeyMfa, rateLimit: { perClient: { callback: { limit: 2 } } } }), "/api/auth/mfa/passkey/register", 3, from("203.0.113.7", { method: "POST" }))
    expect(registrations.slice(0, 2)).not.toContain(429)
    expect(registrations[2]).toBe(429)
    const options = await statuses(addressed({ ...passkeyMfa, adapter: MemoryAdapter(), rateLimit: { perClient: { passkeyOptions: { limit: 2 } } } }), "/api/auth/mfa/passkey/options", 3, from("203.0.113.7", { method: "POST" }))
    expect(options.slice(0, 2)).not.toContain(429)
    expect(options[2]).toBe(429)
  })

  it("counts a server-side sign-in under the address the integration recorded on the caller's request", async () => {
    const config = testConfig({ rateLimit: { perClient: { signIn: { limit: 2 } } } })
    const answers: number[] = []
    for (let i = 0; i < 3; i++) answers.push((await signIn(withClientAddress(new Request(`${ORIGIN}/page`), "203.0.113.9"), config, "acme")).status)
    expect(answers.slice(0, 2).every((status) => status !== 429)).toBe(true)
    expect(answers[2]).toBe(429)
  })

  it("lets a client in again once its window has ended", async () => {
    const config = addressed({ rateLimit: { perClient: { signIn: { limit: 1, window: 1 } } } })
    const init = from("203.0.113.7", { method: "POST" })
    expect((await call(config, new Jar(), "/api/auth/signin/acme", init)).status).toBe(302)
    const refused = await call(config, new Jar(), "/api/auth/signin/acme", init)
    await expectTooMany(refused, 1)
    // The window is read from Date alone: move it past the second instead of sleeping through it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1100 })
    try {
      expect((await call(config, new Jar(), "/api/auth/signin/acme", init)).status).toBe(302)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("whose allowance", () => {
  const tight = { rateLimit: { perClient: { signIn: { limit: 1 } } } }
  const signInFrom = async (config: AuthConfig, client: string) => (await call(config, new Jar(), "/api/auth/signin/acme", from(client, { method: "POST" }))).status

  it("gives each client address its own allowance: one flooding client does not lock out another", async () => {
    const config = addressed(tight)
    expect(await signInFrom(config, "203.0.113.7")).toBe(302)
    expect(await signInFrom(config, "203.0.113.7")).toBe(429)
    expect(await signInFrom(config, "203.0.113.8")).toBe(302)
  })

  it("counts IPv6 clients by their /64, and an IPv4-mapped address as its IPv4 address", async () => {
    const config = addressed(tight)
    expect(await signInFrom(config, "2001:db8:1:2::1")).toBe(302)
    expect(await signInFrom(config, "2001:DB8:1:2:ffff:ffff:ffff:9")).toBe(429)
    expect(await signInFrom(config, "[2001:db8:1:2:0:0:0:abcd]")).toBe(429)
    expect(await signInFrom(config, "2001:db8:1:3::1")).toBe(302)
    expect(await signInFrom(config, "192.0.2.1")).toBe(302)
    expect(await signInFrom(config, "::ffff:192.0.2.1")).toBe(429)
    expect(await signInFrom(config, "::ffff:c000:201")).toBe(429)
  })

  it("counts nothing for a value that is not one IP address, and never fails on it", async () => {
    const config = addressed(tight)
    for (const value of ["not-an-ip", "203.0.113.7, 203.0.113.8", "203.0.113.7:443", "256.1.1.1", "01.2.3.4.5", "::ffff:zz", "fe80::1%eth0", ":::", "1".repeat(200), " "]) {
      expect(await signInFrom(config, value)).toBe(302)
      expect(await signInFrom(config, value)).toBe(302)
    }
  })

  it("takes the address an integration recorded, and the app's hook over it", async () => {
    const config = testConfig(tight)
    const post = (address: string) => Auth(withClientAddress(new Request(`${ORIGIN}/api/auth/signin/acme`, { method: "POST" }), address), config)
    expect((await post("203.0.113.7")).status).toBe(302)
    expect((await post("203.0.113.7")).status).toBe(429)
    const hooked = testConfig({ ...tight, clientAddress: () => "198.51.100.1" })
    const hookedPost = (address: string) => Auth(withClientAddress(new Request(`${ORIGIN}/api/auth/signin/acme`, { method: "POST" }), address), hooked)
    expect((await hookedPost("203.0.113.7")).status).toBe(302)
    expect((await hookedPost("203.0.113.8")).status).toBe(429)
  })

  it("answers a throwing clientAddress hook as a server fault, never a throw out of Auth()", async () => {
    const errors: string[] = []
    const config = testConfig({
      clientAddress: () => {
        throw new Error("boom")
      },
      logger: { error: (error) => errors.push(error.message), warn: () => undefined },
    })
    const response = await call(config, new Jar(), "/api/auth/signin/acme", { method: "POST" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toContain("error=Configuration")
    expect(errors.join("\n")).toContain("`clientAddress`")
  })
})

describe("without a client address", () => {
  it("stays quiet in development for an app on loopback (localhost, 127.0.0.1, [::1]), where no proxy stands in front", async () => {
    vi.stubEnv("NODE_ENV", "development")
    onTestFinished(() => void vi.unstubAllEnvs())
    const warnings: string[] = []
    const config = testConfig({ logger: { error: () => undefined, warn: (code) => warnings.push(code) } })
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      const response = await Auth(new Request(`${origin}/api/auth/signin/acme`, { method: "POST" }), config)
      expect(response.status).toBe(302)
    }
    expect(warnings).toEqual([])
    // The same app on a public host has a proxy in front of it or soon will: it is told.
    await Auth(new Request("https://app.example.com/api/auth/signin/acme", { method: "POST" }), config)
    expect(warnings).toEqual(["ClientAddressUnknown"])
  })

  it("warns on loopback under NODE_ENV=production: a proxy may forward to localhost", async () => {
    vi.stubEnv("NODE_ENV", "production")
    onTestFinished(() => void vi.unstubAllEnvs())
    const warnings: string[] = []
    const config = testConfig({ logger: { error: () => undefined, warn: (code) => warnings.push(code) } })
    await Auth(new Request("http://127.0.0.1:3000/api/auth/signin/acme", { method: "POST" }), config)
    expect(warnings).toEqual(["ClientAddressUnknown"])
  })

  it("limits nothing and warns once per configuration how to supply the address", async () => {
    vi.stubEnv("NODE_ENV", "production")
    onTestFinished(() => void vi.unstubAllEnvs())
    const warnings: string[] = []
    const config = testConfig({ rateLimit: { perClient: { signIn: { limit: 1 } } }, logger: { error: () => undefined, warn: (code) => warnings.push(code) } })
    // A route no rule covers does not warn.
    await call(config, new Jar(), "/api/auth/session")
    expect(warnings).toEqual([])
    const answers = await statuses(config, "/api/auth/signin/acme", 50, { method: "POST", headers: { "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.7" } })
    expect(new Set(answers)).toEqual(new Set([302]))
    await statuses(config, "/api/auth/callback/acme", 5, {})
    expect(warnings).toEqual(["ClientAddressUnknown"])
    // Another configuration is told too.
    const other = { ...config }
    await call(other, new Jar(), "/api/auth/signin/acme", { method: "POST" })
    expect(warnings).toEqual(["ClientAddressUnknown", "ClientAddressUnknown"])
  })

  it("neither limits nor warns with rateLimit: false, perClient: false, or a rule turned off", async () => {
    for (const rateLimit of [false, { perClient: false }, { perClient: { signIn: false } }] as const) {
      const warnings: string[] = []
      const config = addressed({ rateLimit, logger: { error: () => undefined, warn: (code) => warnings.push(code) } })
      expect(new Set(await statuses(config, "/api/auth/signin/acme", 40, from("203.0.113.7", { method: "POST" })))).toEqual(new Set([302]))
      const unaddressed = testConfig({ rateLimit, logger: { error: () => undefined, warn: (code) => warnings.push(code) } })
      await statuses(unaddressed, "/api/auth/signin/acme", 3, { method: "POST" })
      expect(warnings).toEqual([])
    }
  })
})

describe("configuration", () => {
  it("refuses unusable per-client limits and hooks at start, naming the option", async () => {
    for (const [overrides, option] of [
      [{ rateLimit: { perClient: "on" } }, "rateLimit.perClient"],
      [{ rateLimit: { perClient: { signIn: { limit: 0 } } } }, "rateLimit.perClient.signIn.limit"],
      [{ rateLimit: { perClient: { callback: { window: 2.5 } } } }, "rateLimit.perClient.callback.window"],
      [{ rateLimit: { perClient: { passkeyOptions: true } } }, "rateLimit.perClient.passkeyOptions"],
      [{ rateLimit: { perClient: { signin: { limit: 5 } } } }, "rateLimit.perClient.signin"],
      [{ clientAddress: "req.ip" }, "clientAddress"],
    ] as const) {
      const errors: string[] = []
      const config = testConfig({ ...(overrides as Partial<AuthConfig>), logger: { error: (error) => errors.push(`${error.code} ${error.message}`), warn: () => undefined } })
      expect((await call(config, new Jar(), "/api/auth/providers")).status).toBe(503)
      expect(errors.join("\n")).toContain(`\`${option}\``)
      expect(errors.join("\n")).toContain("Configuration")
    }
  })

  it("applies each rule's own limit and window", async () => {
    const config = addressed({ rateLimit: { perClient: { signIn: { limit: 2 }, callback: { limit: 1, window: 3600 } } } })
    expect(await statuses(config, "/api/auth/signin/acme", 3, from("203.0.113.7", { method: "POST" }))).toEqual([302, 302, 429])
    const callbacks = await statuses(config, "/api/auth/callback/acme", 2, from("203.0.113.7"))
    expect(callbacks[1]).toBe(429)
    const refused = await call(config, new Jar(), "/api/auth/callback/acme", from("203.0.113.7"))
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500)
  })
})

describe("forwardedFor", () => {
  const request = (header: string | undefined) => new Request(`${ORIGIN}/`, { headers: header === undefined ? {} : { "x-forwarded-for": header } })

  it("takes the entry the given number of proxies from the right, never one the client wrote", () => {
    expect(forwardedFor({ proxies: 1 })(request("203.0.113.7"))).toBe("203.0.113.7")
    expect(forwardedFor({ proxies: 1 })(request("6.6.6.6, 203.0.113.7"))).toBe("203.0.113.7")
    expect(forwardedFor({ proxies: 2 })(request("6.6.6.6,203.0.113.7 ,  10.0.0.2"))).toBe("203.0.113.7")
    expect(forwardedFor({ proxies: 1 })(request("[2001:db8::1]:4711"))).toBe("2001:db8::1")
    expect(forwardedFor({ proxies: 1 })(request("203.0.113.7:4711"))).toBe("203.0.113.7")
    expect(forwardedFor({ proxies: 1, header: "cf-connecting-ip" })(new Request(ORIGIN, { headers: { "cf-connecting-ip": "203.0.113.7", "x-forwarded-for": "6.6.6.6" } }))).toBe("203.0.113.7")
  })

  it("gives no address for a header with fewer hops than proxies, none at all, or an empty entry", () => {
    expect(forwardedFor({ proxies: 2 })(request("203.0.113.7"))).toBeUndefined()
    expect(forwardedFor({ proxies: 1 })(request(undefined))).toBeUndefined()
    expect(forwardedFor({ proxies: 1 })(request(""))).toBeUndefined()
    expect(forwardedFor({ proxies: 1 })(request("203.0.113.7,"))).toBeUndefined()
    expect(forwardedFor({ proxies: 3 })(request(" , ,"))).toBeUndefined()
  })

  it("lets a client choose nothing by what it writes left of the proxies' entries", async () => {
    const config = testConfig({ clientAddress: forwardedFor({ proxies: 1 }), rateLimit: { perClient: { signIn: { limit: 1 } } } })
    const post = (header: string) => call(config, new Jar(), "/api/auth/signin/acme", { method: "POST", headers: { "x-forwarded-for": header } })
    expect((await post("1.1.1.1, 203.0.113.7")).status).toBe(302)
    for (const spoofed of ["2.2.2.2, 203.0.113.7", "garbage, 203.0.113.7", `${"9.9.9.9, ".repeat(500)}203.0.113.7`, " ,, 203.0.113.7"]) {
      expect((await post(spoofed)).status).toBe(429)
    }
    // Garbage where the proxy's entry should be gives no address (not counted), never a failure.
    for (const garbage of ["203.0.113.7, garbage", "203.0.113.7,   ", "203.0.113.7, 1.2.3", '203.0.113.7, "203.0.113.7"', "203.0.113.7, 203.0.113.7:x"]) {
      expect((await post(garbage)).status).toBe(302)
    }
  })

  it("refuses an unusable number of proxies or header name with a Configuration error", () => {
    for (const options of [{ proxies: 0 }, { proxies: 1.5 }, { proxies: "1" }, {}, { proxies: 1, header: "x forwarded" }]) {
      expect(() => forwardedFor(options as never)).toThrow(expect.objectContaining({ code: "Configuration" }))
    }
  })
})
