import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "@portcullis/core"
import type { SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { Browser, ORIGIN, SECRET, location } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import Email from "./index.js"

describe("Email()", () => {
  it("defaults its id, name and a 24-hour maxAge, and keeps the sender", () => {
    const sendVerificationRequest = () => undefined
    const provider = Email({ from: fixture.from, sendVerificationRequest })
    expect(provider).toMatchObject({ id: "email", name: "Email", type: "email", maxAge: 86_400, from: fixture.from })
    expect(provider.sendVerificationRequest).toBe(sendVerificationRequest)
    expect(Email({ id: "magic", maxAge: 600, sendVerificationRequest })).toMatchObject({ id: "magic", maxAge: 600 })
  })

  it("sends a link through Auth() to the normalised address, which signs the user in", async () => {
    const sent: SendVerificationRequestParams[] = []
    const adapter = MemoryAdapter()
    const config = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [Email({ from: fixture.from, sendVerificationRequest: (params) => void sent.push(params) })],
    }
    const response = await new Browser(config).post("/api/auth/signin/email", { email: fixture.submitted, callbackUrl: "/inbox" })
    expect(location(response).pathname).toBe("/api/auth/verify-request")
    expect(sent).toMatchObject([{ identifier: fixture.identifier, provider: { id: "email", from: fixture.from } }])

    const browser = new Browser(config)
    const landed = await browser.followSignInLink(sent[0]?.url ?? "")
    expect(landed.redirects.slice(1), "the confirmation redirects straight to the callbackUrl").toEqual([`${ORIGIN}/inbox`])
    expect(await browser.session()).toMatchObject({ user: { email: fixture.identifier } })
    expect((await adapter.getUserByEmail(fixture.identifier))?.emailVerified).toBeInstanceOf(Date)
  })
})

describe("Email() with Auth.js's options", () => {
  it("names `sendVerificationRequest` or `server` at start when it has neither", () => {
    expect(() => Email({ from: fixture.from })).toThrow(Configuration)
    expect(() => Email({ from: fixture.from })).toThrow(/`sendVerificationRequest`.*`server`/)
  })

  it("is Nodemailer under the id email when it has a `server` and no sender", () => {
    expect(Email({ server: "smtp://127.0.0.1:2525", from: fixture.from })).toMatchObject({ id: "email", name: "Email", type: "email", server: "smtp://127.0.0.1:2525", from: fixture.from })
    expect(() => Email({ server: "smtp://127.0.0.1:2525" })).toThrow(/set `from`/)
  })

  it("gives a custom sender its `apiKey` as provider.apiKey", async () => {
    const keys: unknown[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [Email({ apiKey: "re_live_key", sendVerificationRequest: ({ provider }) => void keys.push(provider.apiKey) })],
    }
    await new Browser(config).post("/api/auth/signin/email", { email: fixture.submitted, callbackUrl: "/" })
    expect(keys).toEqual(["re_live_key"])
  })

  it("keys its links' stored HMAC with its own `secret`: a link sent under one secret does not sign in under another", async () => {
    const adapter = MemoryAdapter()
    const sent: string[] = []
    const logged: string[] = []
    const configWith = (secret: string): AuthConfig => ({
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [Email({ secret, sendVerificationRequest: ({ url }) => void sent.push(url) })],
      logger: { error: (error) => logged.push(`${error.name}: ${error.message}`) },
    })
    await new Browser(configWith("provider-secret-one-0123456789abcdef")).post("/api/auth/signin/email", { email: fixture.submitted, callbackUrl: "/" })
    await new Browser(configWith("provider-secret-one-0123456789abcdef")).post("/api/auth/signin/email", { email: fixture.submitted, callbackUrl: "/" })

    const other = new Browser(configWith("provider-secret-two-0123456789abcdef"))
    await other.followSignInLink(sent[0] ?? "")
    expect(await other.session()).toBeNull()
    expect(logged).toEqual(['Verification: The sign-in link of provider "email" is unknown, already used or expired.'])

    const same = new Browser(configWith("provider-secret-one-0123456789abcdef"))
    await same.followSignInLink(sent[1] ?? "")
    expect(await same.session()).toMatchObject({ user: { email: fixture.identifier } })
  })
})

