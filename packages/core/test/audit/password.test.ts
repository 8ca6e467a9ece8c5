/**
 * The audit trail of password accounts (issue 39): `passwordSignUp`, `passwordReset` and
 * `passwordChange`, each with its failure reasons, and the password sign-in's own `signIn`
 * events; no event carries a password or a link's token (ASVS 16.3.1, 16.2.5).
 */
import { describe, expect, it, vi } from "vitest"
import type { AuditEvent } from "../../src/types.js"
import { Jar } from "../helpers.js"
import { GOOD_PASSWORD, mailTo, passwordApp, post, signIn, signUpVerified } from "../password/harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("../password/cheap-scrypt.js")).cheapScrypt(original))

const NEW_PASSWORD = "a brand new phrase for the harbour"

function audited() {
  const events: AuditEvent[] = []
  const app = passwordApp({}, { events: { audit: (event) => void events.push(event) } })
  const shown = (type: AuditEvent["type"]) => events.filter((event) => event.type === type).map(({ outcome, reason, provider }) => ({ outcome, reason, provider }))
  return { app, events, shown }
}

describe("the audit trail of password accounts", () => {
  it("sends passwordSignUp for a new account, a taken address (addressTaken) and a refused password (passwordRefused), and signIn's unverified and invalidCredentials (ASVS 16.3.1)", async () => {
    const { app, events, shown } = audited()
    await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: GOOD_PASSWORD })
    await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: GOOD_PASSWORD })
    await post(app, new Jar(), "/api/auth/password/signup", { email: "lin@example.com", password: "too short" })
    expect(shown("passwordSignUp")).toEqual([
      { outcome: "success", reason: undefined, provider: "password" },
      { outcome: "failure", reason: "addressTaken", provider: "password" },
      { outcome: "failure", reason: "passwordRefused", provider: "password" },
    ])
    const ada = await app.adapter.getUserByEmail("ada@example.com")
    expect(events.filter((event) => event.type === "passwordSignUp").slice(0, 2).map((event) => event.userId)).toEqual([ada?.id, ada?.id])
    await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)
    await signIn(app, new Jar(), "nobody@example.com", GOOD_PASSWORD)
    expect(shown("signIn")).toEqual([
      { outcome: "failure", reason: "unverified", provider: "password" },
      { outcome: "failure", reason: "invalidCredentials", provider: "password" },
    ])
    expect(JSON.stringify(events)).not.toContain(GOOD_PASSWORD)
  })

  it("sends passwordReset for a link used (success) and an unknown one (invalidCode), and passwordChange for a wrong current password and a change (ASVS 16.3.1, 16.2.5)", async () => {
    const { app, events, shown } = audited()
    const userId = await signUpVerified(app, "ada@example.com")
    await post(app, new Jar(), "/api/auth/password/reset", { token: "dXNlcg.not-a-real-token-but-shaped-like-one-0123456789", password: NEW_PASSWORD })
    await post(app, new Jar(), "/api/auth/password/reset-request", { email: "ada@example.com" })
    const link = new URL((await mailTo(app, "ada@example.com", "passwordReset")).url ?? "")
    await post(app, new Jar(), "/api/auth/password/reset", { token: link.searchParams.get("token") ?? "", password: NEW_PASSWORD })
    expect(shown("passwordReset")).toEqual([
      { outcome: "failure", reason: "invalidCode", provider: "password" },
      { outcome: "success", reason: undefined, provider: "password" },
    ])
    const jar = new Jar()
    await signIn(app, jar, "ada@example.com", NEW_PASSWORD)
    await post(app, jar, "/api/auth/password/change", { currentPassword: GOOD_PASSWORD, newPassword: GOOD_PASSWORD })
    await post(app, jar, "/api/auth/password/change", { currentPassword: NEW_PASSWORD, newPassword: GOOD_PASSWORD })
    await post(app, new Jar(), "/api/auth/password/change", { currentPassword: NEW_PASSWORD, newPassword: GOOD_PASSWORD })
    expect(shown("passwordChange")).toEqual([
      { outcome: "failure", reason: "invalidCredentials", provider: "password" },
      { outcome: "success", reason: undefined, provider: "password" },
      { outcome: "failure", reason: "signInRequired", provider: "password" },
    ])
    expect(events.filter((event) => event.type === "passwordChange").slice(0, 2).map((event) => event.userId)).toEqual([userId, userId])
    const everything = JSON.stringify(events)
    for (const secret of [GOOD_PASSWORD, NEW_PASSWORD, link.searchParams.get("token") ?? "-"]) expect(everything).not.toContain(secret)
  })
})
