import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Browser, SECRET } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import Passkey from "./index.js"

describe("Passkey()", () => {
  it("defaults its id, name, type and user verification, and keeps the caller's options", () => {
    expect(Passkey()).toMatchObject({ id: "passkey", name: "Passkey", type: "webauthn", userVerification: fixture.userVerification, enableConditionalUI: true })
    expect(Passkey({ id: "key", name: "Security key", relyingParty: { name: "Acme" } })).toMatchObject({ id: "key", name: "Security key", relyingParty: { name: "Acme" } })
  })

  it("serves its options route through Auth(), asking for user verification as it enforces it", async () => {
    const config = { secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [Passkey()], logger: { error: () => undefined } }
    const browser = new Browser(config)
    await browser.request("/api/auth/csrf")
    const response = await browser.request(`/api/auth/webauthn-options/passkey?${new URLSearchParams(fixture.optionsQuery).toString()}`)
    const body = (await response.json()) as { action: string; options: { user: { name: string }; authenticatorSelection: { userVerification: string }; attestation: string } }
    expect(body).toMatchObject({ action: "register", options: { user: fixture.user, attestation: "none", authenticatorSelection: { userVerification: fixture.userVerification } } })
  })
})
