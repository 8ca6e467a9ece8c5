/**
 * The code checks every second-factor route uses: a TOTP step accepted once per factor, a backup
 * code consumed once, the per-user window of wrong codes (with `rateLimit: false` too) and the
 * lock after consecutive wrong codes, with its notice.
 */
import { afterEach, describe, expect, it, vi } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AdapterAuthFactor } from "../../src/adapters.js"
import { resolveConfig } from "../../src/config/config.js"
import { hashBackupCode, newBackupCodes } from "../../src/factors/backup-codes.js"
import { LOCK_AFTER, USER_LIMIT, checkBackupCode, checkTotp, confirmedFactors } from "../../src/factors/check-code.js"
import { sealFactorSecret } from "../../src/factors/sealed-secret.js"
import { newTotpSecret, totpCode, totpStep } from "../../src/factors/totp.js"
import { createContext } from "../../src/http/context.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { ORIGIN, SECRET, testConfig } from "../helpers.js"

const USER = "user-ada"

afterEach(() => {
  vi.useRealTimers()
})

interface Setup {
  config: AuthConfig
  adapter: ReturnType<typeof MemoryAdapter>
  secret: Uint8Array<ArrayBuffer>
  mails: MailMessage[]
}

async function setup(overrides: Partial<AuthConfig> = {}, factor: Partial<AdapterAuthFactor> = {}): Promise<Setup> {
  const secret = newTotpSecret()
  const mails: MailMessage[] = []
  const adapter = MemoryAdapter({
    users: [{ id: USER, email: "ada@example.com", emailVerified: null }],
    authFactors: [{ id: "totp-1", userId: USER, type: "totp", secret: await sealFactorSecret([SECRET], secret, USER), createdAt: new Date(), confirmedAt: new Date(), ...factor }],
  })
  const config = testConfig({ adapter, mfa: {}, rateLimit: false, mail: { send: (message) => void mails.push(message) }, ...overrides })
  return { config, adapter, secret, mails }
}

async function contextOf(config: AuthConfig) {
  const url = new URL(`${ORIGIN}/api/auth/mfa/verify`)
  return createContext(await resolveConfig(config), new Request(url, { method: "POST" }), url)
}

async function wrongCode(secret: Uint8Array<ArrayBuffer>): Promise<string> {
  const near = await Promise.all([-1, 0, 1].map((offset) => totpCode(secret, totpStep() + offset)))
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0")
    if (!near.includes(code)) return code
  }
}

describe("checkTotp", () => {
  it("accepts the current code once: the same step is refused again (ASVS V6.5.1, RFC 6238 §5.2)", async () => {
    const { config, secret } = await setup()
    const code = await totpCode(secret, totpStep())
    expect(await checkTotp(await contextOf(config), USER, code)).toEqual({ ok: true, method: "otp" })
    expect(await checkTotp(await contextOf(config), USER, code)).toEqual({ ok: false, reason: "replayed" })
  })

  it("refuses an earlier step once a later one was accepted (RFC 6238 §5.2)", async () => {
    const { config, secret } = await setup()
    const step = totpStep()
    expect((await checkTotp(await contextOf(config), USER, await totpCode(secret, step + 1))).ok).toBe(true)
    expect(await checkTotp(await contextOf(config), USER, await totpCode(secret, step))).toEqual({ ok: false, reason: "replayed" })
  })

  it("checks an unconfirmed factor only when enrolment names it", async () => {
    const { config, secret } = await setup({}, { confirmedAt: null })
    const code = await totpCode(secret, totpStep())
    expect(await checkTotp(await contextOf(config), USER, code)).toEqual({ ok: false, reason: "invalidCode" })
    expect(await checkTotp(await contextOf(config), USER, code, { factorId: "totp-1" })).toEqual({ ok: true, method: "otp" })
    expect(await confirmedFactors(await contextOf(config), USER)).toEqual([])
  })

  it(`V6.3.1: refuses every code after ${USER_LIMIT} wrong ones in 15 minutes, with rateLimit: false too`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { config, secret } = await setup()
    const wrong = await wrongCode(secret)
    for (let i = 0; i < USER_LIMIT; i++) expect(await checkTotp(await contextOf(config), USER, wrong)).toEqual({ ok: false, reason: "invalidCode" })
    expect(await checkTotp(await contextOf(config), USER, await totpCode(secret, totpStep()))).toEqual({ ok: false, reason: "rateLimited" })
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1000)
    expect(await checkTotp(await contextOf(config), USER, await totpCode(secret, totpStep()))).toEqual({ ok: true, method: "otp" })
  })

  it("counts wrong codes in the configured rate-limit store when there is one, so every instance shares the window", async () => {
    const hits: string[] = []
    const store = {
      hit: (key: string) => (hits.push(key), Promise.resolve({ count: hits.length, resetAt: new Date(Date.now() + 60_000) })),
      peek: () => Promise.resolve({ count: hits.length, resetAt: new Date() }),
      reset: () => Promise.resolve(),
    }
    const { config, secret } = await setup({ rateLimit: { store } })
    await checkTotp(await contextOf(config), USER, await wrongCode(secret))
    expect(hits).toHaveLength(1)
    expect(hits[0]).not.toContain(USER)
  })

  it(`V6.3.5: locks the factor at the ${LOCK_AFTER}th consecutive wrong code and mails the user a notice, once`, async () => {
    const { config, adapter, secret, mails } = await setup({}, { failures: LOCK_AFTER - 1 })
    expect(await checkTotp(await contextOf(config), USER, await wrongCode(secret))).toEqual({ ok: false, reason: "locked" })
    const [factor] = await adapter.listAuthFactors(USER)
    expect(factor?.lockedAt).toBeInstanceOf(Date)
    expect(mails).toMatchObject([{ to: "ada@example.com", kind: "notice", subject: "Your authenticator app was locked" }])
    expect(await checkTotp(await contextOf(config), USER, await totpCode(secret, totpStep()))).toEqual({ ok: false, reason: "locked" })
    expect(mails).toHaveLength(1)
    // A locked factor still gates the sign-in: locking it by guessing lets no one past the gate.
    expect((await confirmedFactors(await contextOf(config), USER)).map((each) => each.id)).toEqual(["totp-1"])
  })

  it("an accepted code resets the consecutive failures", async () => {
    const { config, adapter, secret } = await setup({}, { failures: 42 })
    expect((await checkTotp(await contextOf(config), USER, await totpCode(secret, totpStep()))).ok).toBe(true)
    expect((await adapter.listAuthFactors(USER))[0]?.failures ?? 0).toBe(0)
  })

  it("refuses hostile input as a wrong code, without throwing", async () => {
    const { config } = await setup()
    for (const code of ["", "12345", "1234567", "abcdef", "x".repeat(10_000), "١٢٣٤٥٦"]) {
      expect(await checkTotp(await contextOf(config), USER, code), code).toEqual({ ok: false, reason: "invalidCode" })
    }
  })
})

describe("checkBackupCode", () => {
  async function withCodes() {
    const state = await setup()
    const codes = newBackupCodes()
    for (const [index, code] of codes.entries()) {
      await state.adapter.createAuthFactor({ id: `backup-${index}`, userId: USER, type: "backup", secret: await hashBackupCode([SECRET], code, USER), createdAt: new Date() })
    }
    return { ...state, codes }
  }

  it("consumes a code once, across concurrent requests (ASVS V6.5.1)", async () => {
    const { config, codes } = await withCodes()
    const code = codes[3] ?? ""
    const results = await Promise.all([checkBackupCode(await contextOf(config), USER, code), checkBackupCode(await contextOf(config), USER, code.toUpperCase())])
    expect(results.filter((result) => result.ok)).toEqual([{ ok: true, method: "kba" }])
    expect(await checkBackupCode(await contextOf(config), USER, code)).toEqual({ ok: false, reason: "invalidCode" })
  })

  it("works while the TOTP factor is locked, and counts wrong codes in the same per-user window", async () => {
    const { config, adapter, codes } = await withCodes()
    await adapter.updateAuthFactor({ id: "totp-1", lockedAt: new Date() })
    expect((await checkBackupCode(await contextOf(config), USER, codes[0] ?? "")).ok).toBe(true)
    for (let i = 0; i < USER_LIMIT; i++) await checkBackupCode(await contextOf(config), USER, "aaaaa-aaaaa")
    expect(await checkBackupCode(await contextOf(config), USER, codes[1] ?? "")).toEqual({ ok: false, reason: "rateLimited" })
  })
})
