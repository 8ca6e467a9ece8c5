import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { SendVerificationRequestParams } from "@portcullis/core/providers"
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
