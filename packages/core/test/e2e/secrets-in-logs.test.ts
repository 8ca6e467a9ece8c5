/**
 * Security item 4: no token, code, client secret, email token or password reaches a logger,
 * through any path. Every logger call (error, warn, debug) across hostile flows is captured and
 * searched, error causes, stacks and properties included.
 */
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig, LoggerInstance } from "../../src/types.js"
import { Jar, call, csrfToken, passwordProvider } from "../helpers.js"
import { CLIENT, Harness, SECRET, e2eConfig, errorOf, idpProvider, oauthProvider, useIdp } from "./harness.js"

const idp = useIdp()

/** Every string reachable from a value: own properties, error messages, stacks and causes. */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value]
  if (typeof value !== "object" || value === null || seen.has(value)) return []
  seen.add(value)
  const out: string[] = []
  if (value instanceof Error) out.push(value.message, value.stack ?? "", ...strings(value.cause, seen))
  for (const key of Reflect.ownKeys(value)) out.push(...strings((value as Record<PropertyKey, unknown>)[key], seen))
  return out
}

function capturingLogger(): { logger: LoggerInstance; text: () => string; calls: number } {
  const calls: unknown[][] = []
  return {
    logger: {
      error: (error) => calls.push(["error", error]),
      warn: (code, message) => calls.push(["warn", code, message]),
      debug: (message, metadata) => calls.push(["debug", message, metadata]),
    },
    text: () => calls.flatMap((call) => strings(call)).join("\n"),
    get calls() {
      return calls.length
    },
  }
}

/** What the token endpoint issued in a test, read from the IdP's answer before the transform. */
function recordTokens(into: string[], change: (body: Record<string, unknown>) => Record<string, unknown>): void {
  idp().onTokenResponse(({ body }) => {
    for (const key of ["access_token", "refresh_token", "id_token"]) if (typeof body[key] === "string") into.push(body[key])
    return { body: change(body) }
  })
}

function expectNoneOf(text: string, secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0)
  for (const secret of secrets) expect(text, `a log line contains ${secret.slice(0, 6)}...`).not.toContain(secret)
}

/** A configuration with an adapter, every log line captured (debug ones too). */
function adapterConfig(logger: LoggerInstance, providers: AuthConfig["providers"]): AuthConfig {
  return { secret: SECRET, trustHost: true, adapter: MemoryAdapter(), logger, debug: true, providers }
}

describe("secrets in logs", () => {
  it("a token response refused for its shape (scope as an array) leaks no token", async () => {
    const capture = capturingLogger()
    const tokens: string[] = []
    const h = new Harness(e2eConfig([idpProvider(idp())], { logger: capture.logger, debug: true }))
    recordTokens(tokens, (body) => ({ ...body, scope: ["openid", "email"] }))
    expect(errorOf(await h.signIn())).toBe("OAuthCallbackError")
    expect(capture.calls).toBeGreaterThan(0)
    expect(capture.text()).toMatch(/scope/)
    expectNoneOf(capture.text(), tokens)
  })

  it("a profile callback that throws with the access token and the client secret in its message leaks neither", async () => {
    const capture = capturingLogger()
    const tokens: string[] = []
    const provider = oauthProvider(idp(), {
      profile: (_profile, issued) => {
        throw new Error(`cannot map profile for ${String(issued.access_token)} (client secret ${CLIENT.secret})`)
      },
    })
    const h = new Harness(e2eConfig([provider], { logger: capture.logger, debug: true }))
    recordTokens(tokens, (body) => body)
    expect(errorOf(await h.signIn("idp-oauth"))).toBe("OAuthCallbackError")
    expect(capture.text()).toMatch(/cannot map profile/)
    expectNoneOf(capture.text(), [...tokens, CLIENT.secret])
  })

  it("an event handler that throws with the account's tokens, and a code replayed to the token endpoint, leak nothing", async () => {
    const capture = capturingLogger()
    const tokens: string[] = []
    const config = e2eConfig([idpProvider(idp())], {
      logger: capture.logger,
      debug: true,
      events: {
        signIn: ({ account }) => {
          throw new Error(`audit failed for ${JSON.stringify(account)}`)
        },
      },
    })
    const h = new Harness(config)
    recordTokens(tokens, (body) => body)
    h.hold = true
    await h.signIn()
    const held = h.held ?? new URL("http://invalid")
    const code = held.searchParams.get("code") ?? ""
    await h.callback(held)
    // The same code again: the provider refuses it, and the error must not carry it.
    await h.callback(held)
    expect(capture.text()).toMatch(/audit failed/)
    expectNoneOf(capture.text(), [...tokens, code])
  })

  it("an email sender that throws with the link, and a credentials authorize that throws with the password, leak neither", async () => {
    const capture = capturingLogger()
    let link = ""
    const config = adapterConfig(capture.logger, [
      {
        id: "email",
        type: "email",
        name: "Email",
        sendVerificationRequest: ({ url }) => {
          link = url
          throw new Error(`SMTP refused the message with ${url}`)
        },
      },
      passwordProvider({
        authorize: ({ password }) => {
          throw new Error(`password store rejected ${String(password)}`)
        },
      }),
    ])
    const jar = new Jar()
    await call(config, jar, "/api/auth/signin/email", { form: { csrfToken: await csrfToken(config, jar), email: "ada@example.com" } })
    const password = "hunter2-correct-horse"
    await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username: "ada", password } })
    const token = new URL(link).searchParams.get("token") ?? ""
    expect(capture.text()).toMatch(/SMTP refused/)
    expect(capture.text()).toMatch(/password store rejected/)
    expectNoneOf(capture.text(), [token, password, SECRET])
  })

  it("an email sender that throws with its apiKey, its secret and the SMTP password (Auth.js's email options) leaks none of them", async () => {
    const capture = capturingLogger()
    const apiKey = "re_live_4f9c2b7e1d8a6035"
    const secret = "provider-secret-7c1e9a4f2b8d6035"
    const password = "smtp-app-password-81d3"
    const config = adapterConfig(capture.logger, [
      {
        id: "email",
        type: "email",
        name: "Email",
        apiKey,
        secret,
        server: `smtp://sign-in:${password}@127.0.0.1:2525`,
        sendVerificationRequest: () => {
          throw new Error(`mail API refused key ${apiKey} (secret ${secret}, smtp ${password})`)
        },
      },
    ])
    const jar = new Jar()
    await call(config, jar, "/api/auth/signin/email", { form: { csrfToken: await csrfToken(config, jar), email: "ada@example.com" } })
    expect(capture.text()).toMatch(/mail API refused key/)
    expectNoneOf(capture.text(), [apiKey, secret, password])
  })

  it("the default console logger prints the same redacted text", async () => {
    const printed: string[] = []
    const original = console.error
    const originalWarn = console.warn
    console.error = (...args: unknown[]) => printed.push(args.map(String).join(" "))
    console.warn = (...args: unknown[]) => printed.push(args.map(String).join(" "))
    try {
      const tokens: string[] = []
      const config = e2eConfig([idpProvider(idp())])
      delete (config as { logger?: unknown }).logger
      recordTokens(tokens, (body) => ({ ...body, scope: ["openid"] }))
      expect(errorOf(await new Harness(config).signIn())).toBe("OAuthCallbackError")
      expect(printed.join("\n")).toMatch(/\[auth\]\[error\]/)
      expectNoneOf(printed.join("\n"), tokens)
      expect(decodeJwt(tokens.find((token) => token.startsWith("eyJ")) ?? "").iss).toBe(idp().issuer)
    } finally {
      console.error = original
      console.warn = originalWarn
    }
  })
})
