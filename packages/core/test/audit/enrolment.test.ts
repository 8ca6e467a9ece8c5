/**
 * The audit trail of second-factor enrolment: `mfaEnrol` (an authenticator confirmed),
 * `backupCodesRegenerate` and `mfaRemove`, their failures included, and no secret, code or
 * backup code in any event.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it } from "vitest"
import { base32Decode, totpCode, totpStep } from "../../src/factors/totp.js"
import type { AuditEvent, AuthConfig } from "../../src/types.js"
import { Jar, PASSWORD, call, csrfToken, passwordProvider, testConfig } from "../helpers.js"

function audited(overrides: Partial<AuthConfig> = {}): AuthConfig & { audits: AuditEvent[] } {
  const audits: AuditEvent[] = []
  const config = testConfig({
    adapter: MemoryAdapter(),
    session: { strategy: "jwt", revocationCheckInterval: 0 },
    providers: [passwordProvider()],
    mfa: { factors: ["totp"] },
    mail: { send: () => undefined },
    events: { audit: (event) => void audits.push(event) },
    ...overrides,
  })
  return { ...config, audits }
}

const post = async (config: AuthConfig, jar: Jar, sub: string, fields: Record<string, string> = {}) =>
  call(config, jar, `/api/auth/mfa/${sub}`, { form: { csrfToken: await csrfToken(config, jar), ...fields }, headers: { accept: "application/json" } })

describe("second-factor enrolment (ASVS V16.3.1)", () => {
  it("sends mfaEnrol (a wrong code's failure first), backupCodesRegenerate and mfaRemove, each naming the user, none carrying a secret or code", async () => {
    const config = audited()
    const jar = new Jar()
    await call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD, csrfToken: await csrfToken(config, jar) } })
    const from = config.audits.length
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    const code = await totpCode(base32Decode(secret) ?? new Uint8Array(), totpStep())
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    expect((await post(config, jar, "totp/confirm", { code: wrong })).status).toBe(400)
    const { backupCodes } = (await (await post(config, jar, "totp/confirm", { code })).json()) as { backupCodes: string[] }
    const renewed = (await (await post(config, jar, "backup-codes")).json()) as { backupCodes: string[] }
    await post(config, jar, "remove", { factor: "totp" })
    await post(config, new Jar(), "remove", { factor: "totp" })
    expect(config.audits.slice(from).map(({ type, outcome, reason, userId }) => [type, outcome, reason, userId])).toEqual([
      ["mfaEnrol", "failure", "invalidCode", "user-ada"],
      ["mfaEnrol", "success", undefined, "user-ada"],
      ["backupCodesRegenerate", "success", undefined, "user-ada"],
      ["mfaRemove", "success", undefined, "user-ada"],
      ["mfaRemove", "failure", "signInRequired", undefined],
    ])
    const events = JSON.stringify(config.audits).toLowerCase()
    for (const value of [secret, code, wrong, ...backupCodes, ...renewed.backupCodes]) {
      expect(events).not.toContain(value.toLowerCase())
      expect(events).not.toContain(value.toLowerCase().replace("-", ""))
    }
  })

  it("sends an mfaRemove failure, lastSignInMethod, when mfa.required names the user", async () => {
    const config = audited({ mfa: { factors: ["totp"], required: true } })
    const jar = new Jar()
    // The sign-in waits for a factor ada has not set up: she sets it up from there, which signs her in.
    await call(config, jar, "/api/auth/callback/credentials", { form: { username: "ada", password: PASSWORD, csrfToken: await csrfToken(config, jar) } })
    const { secret } = (await (await post(config, jar, "totp/setup")).json()) as { secret: string }
    await post(config, jar, "totp/confirm", { code: await totpCode(base32Decode(secret) ?? new Uint8Array(), totpStep()) })
    const from = config.audits.length
    await post(config, jar, "remove", { factor: "totp" })
    expect(config.audits.slice(from).map(({ type, outcome, reason }) => [type, outcome, reason])).toEqual([["mfaRemove", "failure", "lastSignInMethod"]])
  })
})
