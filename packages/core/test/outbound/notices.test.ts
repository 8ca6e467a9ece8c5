/**
 * `sendNotice`, the one home of the notices a user is mailed after a change to how they sign in
 * (OWASP ASVS v5 6.3.7): every change has its own subject and plain words, no link, no code and
 * no secret, the provider's name escaped, nothing for a user without an address, never a throw.
 */
import { describe, expect, it } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import { sendNotice, type NoticeChange } from "../../src/outbound/notices.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { ORIGIN, testConfig } from "../helpers.js"

const CHANGES: readonly NoticeChange[] = [
  "totpAdded",
  "totpRemoved",
  "backupCodesRegenerated",
  "backupCodesRemoved",
  "totpLocked",
  "emailCodeFactorAdded",
  "emailCodeFactorRemoved",
  "emailChanged",
  "passkeyAdded",
  "passkeyRemoved",
  "accountLinked",
  "accountUnlinked",
  "passwordChanged",
  "passwordReset",
  "passwordSignUpTaken",
]

async function contextWith(config: Partial<AuthConfig>) {
  const url = new URL(`${ORIGIN}/api/auth/accounts/unlink`)
  return createContext(await resolveConfig(testConfig({ adapter: MemoryAdapter(), ...config })), new Request(url), url)
}

async function capture(change: NoticeChange, detail?: { provider?: string }, to: string | null = "ada@example.com"): Promise<MailMessage[]> {
  const sent: MailMessage[] = []
  const context = await contextWith({ mail: { send: (message) => void sent.push(message) } })
  await sendNotice(context, to, change, detail)
  return sent
}

describe("sendNotice (OWASP ASVS v5 6.3.7)", () => {
  it.each(CHANGES)("%s: one mail of kind notice to the address, in plain words with no link, code or secret", async (change) => {
    const [mail, ...more] = await capture(change, { provider: "GitHub" })
    expect(more).toEqual([])
    expect(mail).toMatchObject({ to: "ada@example.com", kind: "notice" })
    expect(mail?.url).toBeUndefined()
    expect(mail?.code).toBeUndefined()
    for (const part of [mail?.subject, mail?.text, mail?.html]) {
      expect(part).toBeTypeOf("string")
      expect(part).not.toMatch(/https?:|www\.|\/api\/auth|\b\d{6}\b|href|token/i)
    }
  })

  it("every change has its own subject", async () => {
    const subjects = await Promise.all(CHANGES.map(async (change) => (await capture(change))[0]?.subject))
    expect(new Set(subjects).size).toBe(CHANGES.length)
  })

  it("names the provider where it helps: Your GitHub account was linked", async () => {
    const [linked] = await capture("accountLinked", { provider: "GitHub" })
    expect(linked?.subject).toBe("Your GitHub account was linked")
    const [unnamed] = await capture("accountUnlinked")
    expect(unnamed?.text).toContain("An account at another provider was unlinked")
  })

  it("escapes a provider's name in the HTML part and keeps it to one short line", async () => {
    const [mail] = await capture("passkeyAdded", { provider: `<img src=x onerror="alert(1)">\n${"x".repeat(200)}` })
    expect(mail?.html).not.toContain("<img")
    expect(mail?.html).toContain("&lt;img")
    expect(mail?.text).not.toContain("\n" + "x")
    expect(mail?.text.length).toBeLessThan(400)
  })

  it("sends nothing to a user without an address", async () => {
    expect(await capture("passkeyRemoved", undefined, null)).toEqual([])
    expect(await capture("passkeyRemoved", undefined, "")).toEqual([])
  })

  it("sends nothing and warns of nothing without a transport: an app may go without notices", async () => {
    const warnings: string[] = []
    const context = await contextWith({ logger: { warn: (code) => warnings.push(code) } })
    await expect(sendNotice(context, "ada@example.com", "accountLinked", { provider: "GitHub" })).resolves.toBeUndefined()
    expect(warnings).toEqual([])
  })

  it("never throws when the mail fails, and logs it", async () => {
    const errors: string[] = []
    const context = await contextWith({
      mail: { send: () => Promise.reject(new Error("smtp down")) },
      logger: { error: (error) => errors.push(error.message) },
    })
    await expect(sendNotice(context, "ada@example.com", "passwordChanged")).resolves.toBeUndefined()
    expect(errors.join(" ")).toContain('"notice"')
  })
})
