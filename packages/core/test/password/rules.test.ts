/**
 * The rules a new password must pass (NIST SP 800-63B rev 4 §3.1.1.2, OWASP ASVS v5 6.2): the
 * minimum and maximum in code points after NFKC, NFKC as the only normalisation, no truncation,
 * no composition rules, the built-in blocklist, and how `Password()`'s options are read.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

import { resolveConfig } from "../../src/config/config.js"
import { createContext } from "../../src/http/context.js"
import type { RequestContext } from "../../src/internal.js"
import { COMMON_PASSWORDS } from "../../src/password/common-passwords.generated.js"
import { checkNewPassword, normalizePassword, readPasswordRules, type PasswordRuleOptions, type PasswordRules } from "../../src/password/rules.js"
import { ORIGIN, testConfig } from "../helpers.js"

const DEFAULTS = readPasswordRules({}, {})
/** The rules of an app whose every user has a second factor, at the lowest minimum allowed. */
const WITH_MFA = readPasswordRules({ minPasswordLength: 8 }, { mfa: { required: true } })

let shared: RequestContext | undefined
async function context(): Promise<RequestContext> {
  const url = new URL(`${ORIGIN}/api/auth/password/signup`)
  shared ??= createContext(await resolveConfig(testConfig()), new Request(url, { method: "POST" }), url)
  return shared
}

async function check(password: string, rules: PasswordRules = DEFAULTS) {
  return checkNewPassword(await context(), rules, password)
}

/** The `Configuration` error `readPasswordRules` throws, as `code: message`. */
function refusal(options: PasswordRuleOptions, config: { mfa?: unknown } = {}): string {
  try {
    readPasswordRules(options, config)
  } catch (error) {
    return `${(error as { code: string }).code}: ${(error as Error).message}`
  }
  throw new Error("expected a configuration error")
}

/** A password of `length` code points that is on no list: no composition, only its length matters. */
function passwordOf(length: number): string {
  return "tuvwxyz".repeat(Math.ceil(length / 7)).slice(0, length)
}

describe("the minimum length (NIST SP 800-63B rev 4 §3.1.1.2, ASVS 6.2.1)", () => {
  it("is 15 code points by default: 14 is refused, 15 accepted (ASVS 6.2.1)", async () => {
    expect(DEFAULTS.minLength).toBe(15)
    expect(await check(passwordOf(14))).toEqual({ ok: false, reason: "tooShort" })
    expect(await check(passwordOf(15))).toEqual({ ok: true, password: passwordOf(15) })
  })

  it("goes down to 8 only when every user must have a second factor, `mfa.required: true` (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    expect(WITH_MFA.minLength).toBe(8)
    expect(await check(passwordOf(8), WITH_MFA)).toEqual({ ok: true, password: passwordOf(8) })
    expect(await check(passwordOf(7), WITH_MFA)).toEqual({ ok: false, reason: "tooShort" })
    expect(readPasswordRules({ minPasswordLength: 12 }, { mfa: { required: true, factors: ["totp"] } }).minLength).toBe(12)
  })

  it("refuses a minimum under 15 without `mfa.required: true`, a `required` function included, naming the option (NIST SP 800-63B rev 4 §3.1.1.2)", () => {
    const needsMfa = /^Configuration: `minPasswordLength` below 15 needs `mfa: \{ required: true \}`/
    expect(refusal({ minPasswordLength: 8 })).toMatch(needsMfa)
    expect(refusal({ minPasswordLength: 14 }, { mfa: {} })).toMatch(needsMfa)
    expect(refusal({ minPasswordLength: 8 }, { mfa: { required: false } })).toMatch(needsMfa)
    // A function may answer false for some users, whose password then stands alone.
    expect(refusal({ minPasswordLength: 8 }, { mfa: { required: () => true } })).toMatch(needsMfa)
  })

  it("refuses a minimum of 7, even with a second factor required, naming the option (ASVS 6.2.1)", () => {
    expect(refusal({ minPasswordLength: 7 }, { mfa: { required: true } })).toBe("Configuration: `minPasswordLength` must be at least 8 (NIST SP 800-63B rev 4); it is 7.")
    expect(refusal({ minPasswordLength: 0 }, { mfa: { required: true } })).toMatch(/`minPasswordLength` must be at least 8/)
  })

  it("refuses a minimum that is not a whole number, or above the maximum", () => {
    expect(refusal({ minPasswordLength: 15.5 })).toBe("Configuration: `minPasswordLength` must be a whole number of code points.")
    expect(refusal({ minPasswordLength: "15" as unknown as number })).toMatch(/`minPasswordLength` must be a whole number/)
    expect(refusal({ minPasswordLength: 100, maxPasswordLength: 64 })).toBe("Configuration: `minPasswordLength` (100) must not be above `maxPasswordLength` (64).")
  })
})

describe("the maximum length (ASVS 6.2.9)", () => {
  it("allows 64 code points and more: 256 by default (ASVS 6.2.9)", async () => {
    expect(DEFAULTS.maxLength).toBe(256)
    expect(await check(passwordOf(64))).toEqual({ ok: true, password: passwordOf(64) })
    expect(await check(passwordOf(256))).toEqual({ ok: true, password: passwordOf(256) })
  })

  it("refuses 257 code points by default, and a megabyte before normalising it", async () => {
    expect(await check(passwordOf(257))).toEqual({ ok: false, reason: "tooLong" })
    expect(await check("x".repeat(1 << 20))).toEqual({ ok: false, reason: "tooLong" })
  })

  it("may be set from 64 to 1024, never below 64 (ASVS 6.2.9)", async () => {
    const rules = readPasswordRules({ maxPasswordLength: 64 }, {})
    expect(await check(passwordOf(64), rules)).toEqual({ ok: true, password: passwordOf(64) })
    expect(await check(passwordOf(65), rules)).toEqual({ ok: false, reason: "tooLong" })
    expect(readPasswordRules({ maxPasswordLength: 1024 }, {}).maxLength).toBe(1024)
    expect(refusal({ maxPasswordLength: 63 })).toBe("Configuration: `maxPasswordLength` must be from 64 to 1024 (code points); it is 63.")
    expect(refusal({ maxPasswordLength: 1025 })).toMatch(/`maxPasswordLength` must be from 64 to 1024/)
  })
})

describe("what is counted and kept (NIST SP 800-63B rev 4 §3.1.1.2, ASVS 6.2.8)", () => {
  it("counts code points after NFKC: a ligature counts as its letters, an emoji as one (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    // U+FB03 is "ffi" under NFKC: 13 code points typed are 15 counted.
    expect(await check("\uFB03tuvwxyzpqrst")).toEqual({ ok: true, password: "ffituvwxyzpqrst" })
    expect(await check("\uFB03tuvwxyzpqrs")).toEqual({ ok: false, reason: "tooShort" })
    // 14 emoji are 28 UTF-16 units but 14 code points.
    const emoji = (count: number) => Array.from({ length: count }, (_, index) => String.fromCodePoint(0x1f600 + ((index * 7) % 40))).join("")
    expect(emoji(14)).toHaveLength(28)
    expect(await check(emoji(14))).toEqual({ ok: false, reason: "tooShort" })
    expect(await check(emoji(15))).toEqual({ ok: true, password: emoji(15) })
  })

  it("answers the NFKC form, the only normalisation: no trimming, case kept (ASVS 6.2.8)", async () => {
    // Full-width letters and a decomposed accent are one password with their NFKC forms.
    expect(normalizePassword("\uFF21\uFF22c\u0301")).toBe("ABc\u0301".normalize("NFC"))
    expect(normalizePassword("  Tuvw Xyz  ")).toBe("  Tuvw Xyz  ")
    expect(await check("  Tuvw Xyz Tuvw  ")).toEqual({ ok: true, password: "  Tuvw Xyz Tuvw  " })
    expect(await check("\uFF34uvwxyz tuvwxyz tu")).toEqual({ ok: true, password: "Tuvwxyz tuvwxyz tu" })
  })

  it("never truncates: the 73rd character and every one after it is kept (ASVS 6.2.8)", async () => {
    const head = passwordOf(72)
    const one = await check(`${head}a`)
    const other = await check(`${head}b`)
    expect(one).toEqual({ ok: true, password: `${head}a` })
    expect(other).toEqual({ ok: true, password: `${head}b` })
    const long = `${head}${"q".repeat(100)}`
    expect(await check(long)).toEqual({ ok: true, password: long })
  })

  it("asks for no composition: a long password of lower-case words and spaces is accepted (ASVS 6.2.5)", async () => {
    expect(await check("correct horse battery staple")).toEqual({ ok: true, password: "correct horse battery staple" })
    expect(await check("puddlemoonlantern")).toEqual({ ok: true, password: "puddlemoonlantern" })
  })
})

describe("the built-in blocklist (ASVS 6.2.4, NIST SP 800-63B rev 4 §3.1.1.2)", () => {
  it("refuses a common password case-insensitively, after NFKC (ASVS 6.2.4)", async () => {
    expect(await check("PassWordPassWord")).toEqual({ ok: false, reason: "common" })
    expect(await check("1QAZ2WSX3EDC4RFV")).toEqual({ ok: false, reason: "common" })
    // Full-width letters are the same password under NFKC.
    expect(await check("\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44".repeat(2))).toEqual({ ok: false, reason: "common" })
    expect(await check("Password1234", WITH_MFA)).toEqual({ ok: false, reason: "common" })
    expect(await check("iloveyou", WITH_MFA)).toEqual({ ok: false, reason: "common" })
    expect(await check("Tuvwxyz1", WITH_MFA)).toEqual({ ok: true, password: "Tuvwxyz1" })
  })

  it("refuses repetitive and sequential passwords at any length, which no list holds (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    for (const password of ["aaaaaaaaaaaaaaa", "AbcAbcAbcAbcAbc", "iloveyouILOVEYOU", "dragon12dragon12", "abcdefghijklmnop", "1234567890123456", "zyxwvutsrqponmlk", "987654321098765", "\u{1F510}".repeat(16)]) {
      expect({ password, checked: await check(password) }).toEqual({ password, checked: { ok: false, reason: "common" } })
    }
    // A run inside a longer password is no sequence.
    expect(await check("abcdefghijklmnopx")).toEqual({ ok: true, password: "abcdefghijklmnopx" })
    expect(await check("aaaaaaaaaaaaaaab")).toEqual({ ok: true, password: "aaaaaaaaaaaaaaab" })
  })

  it("refuses the values the account makes expected, such as its email address, case-insensitively after NFKC (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    const context_ = await context()
    expect(await checkNewPassword(context_, DEFAULTS, "Ada.Lovelace@Example.com", ["ada.lovelace@example.com", null])).toEqual({ ok: false, reason: "common" })
    expect(await checkNewPassword(context_, DEFAULTS, "ada.lovelace@example.com!", ["ada.lovelace@example.com", undefined, ""])).toEqual({ ok: true, password: "ada.lovelace@example.com!" })
  })

  it("holds at least 3,000 passwords a user could choose (8 or more code points), NFKC and lower case, those of 15 or more among them (ASVS 6.2.4)", () => {
    const entries = COMMON_PASSWORDS.split("\n")
    expect(entries.length).toBeGreaterThanOrEqual(3000)
    expect(new Set(entries).size).toBe(entries.length)
    expect(entries.filter((entry) => Array.from(entry).length < 8)).toEqual([])
    expect(entries.filter((entry) => entry !== entry.normalize("NFKC").toLowerCase())).toEqual([])
    expect(entries.filter((entry) => Array.from(entry).length >= 15).length).toBeGreaterThanOrEqual(40)
  })

  it("names its source and licence in the shipped module", () => {
    const module = readFileSync(new URL("../../src/password/common-passwords.generated.ts", import.meta.url), "utf8")
    expect(module).toContain("Source: @zxcvbn-ts/language-common@4.1.3")
    expect(module).toContain("Permission is hereby granted, free of charge")
    expect(module).toContain("Dan Wheeler and Dropbox, Inc.")
  })
})

describe("breachedPasswords, as read", () => {
  it("is off by default", () => {
    expect(DEFAULTS.breached).toBeUndefined()
  })

  it("defaults to the Pwned Passwords range API and refuses an address that is not https (plain http only on loopback)", () => {
    expect(readPasswordRules({ breachedPasswords: {} }, {}).breached?.url).toBe("https://api.pwnedpasswords.com")
    expect(readPasswordRules({ breachedPasswords: { url: "http://127.0.0.1:8080/" } }, {}).breached?.url).toBe("http://127.0.0.1:8080")
    expect(refusal({ breachedPasswords: { url: "http://pwned.example" } })).toBe("Configuration: `breachedPasswords.url` must use https (plain http only on a loopback address).")
    expect(refusal({ breachedPasswords: { url: "not a url" } })).toBe("Configuration: `breachedPasswords.url` must be an absolute URL.")
    expect(refusal({ breachedPasswords: { url: "https://pwned.example/?key=1" } })).toMatch(/no query or fragment/)
    expect(refusal({ breachedPasswords: { fetch: "yes" as unknown as typeof fetch } })).toBe("Configuration: `breachedPasswords.fetch` must be a function.")
    expect(refusal({ breachedPasswords: true as unknown as object })).toMatch(/`breachedPasswords` must be an object/)
  })
})
