import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Browser, SECRET } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import WebAuthn from "./index.js"

describe("WebAuthn()", () => {
  it("defaults its id, name, type and user verification, and keeps the caller's options", () => {
    expect(WebAuthn()).toMatchObject({ id: "webauthn", name: "WebAuthn", type: "webauthn", userVerification: fixture.userVerification, enableConditionalUI: true })
    expect(WebAuthn({ id: "key", name: "Security key", relyingParty: { name: "Acme" } })).toMatchObject({ id: "key", name: "Security key", relyingParty: { name: "Acme" } })
  })

  it("serves its options route through Auth(), asking for user verification as it enforces it", async () => {
    const config = { secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [WebAuthn()], logger: { error: () => undefined } }
    const browser = new Browser(config)
    await browser.request("/api/auth/csrf")
    const response = await browser.request(`/api/auth/webauthn-options/webauthn?${new URLSearchParams(fixture.optionsQuery).toString()}`)
    const body = (await response.json()) as { action: string; options: { user: { name: string }; authenticatorSelection: { userVerification: string }; attestation: string } }
    expect(body).toMatchObject({ action: "register", options: { user: fixture.user, attestation: "none", authenticatorSelection: { userVerification: fixture.userVerification } } })
  })
})
