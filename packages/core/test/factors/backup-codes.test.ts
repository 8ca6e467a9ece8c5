import { describe, expect, it } from "vitest"
import { MissingSecret } from "../../src/errors/errors.js"
import { hashBackupCode, matchBackupCode, newBackupCodes } from "../../src/factors/backup-codes.js"

const OLD = "an-old-secret-of-enough-length-for-tests-0001"
const NEW = "a-new-secret-of-enough-length-for-tests-00002"
const USER = "user-1"

describe("backup codes", () => {
  it("are ten, distinct, in two readable groups of five from a 32-letter alphabet: 50 bits each (ASVS 6.5.4, 6.5.3)", () => {
    const codes = newBackupCodes()
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    // 32 letters without i, l, o, u (Crockford's), so 5 bits a letter and none read as another.
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/)
    const letters = new Set(Array.from({ length: 50 }, () => newBackupCodes().join("").replaceAll("-", "")).join(""))
    expect(letters.size).toBe(32)
  })

  it("are stored as a salted, keyed hash that holds no copy of the code (ASVS 6.5.2)", async () => {
    const [code = ""] = newBackupCodes()
    const hash = await hashBackupCode([NEW], code, USER)
    const again = await hashBackupCode([NEW], code, USER)
    expect(hash).not.toBe(again)
    for (const stored of [hash, again]) {
      expect(stored).not.toContain(code.replace("-", ""))
      expect(stored).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    }
  })

  it("match once spaces and hyphens are removed and case folded, answering the index of the stored hash", async () => {
    const codes = newBackupCodes()
    const hashes = await Promise.all(codes.map((code) => hashBackupCode([NEW], code, USER)))
    const third = codes[2] ?? ""
    expect(await matchBackupCode([NEW], third, hashes, USER)).toBe(2)
    const bare = third.replace("-", "")
    for (const typed of [bare, bare.toUpperCase(), ` ${bare.slice(0, 3)} ${bare.slice(3)} `, `${bare.slice(0, 5)}\u2013${bare.slice(5)}`, bare.split("").join("-")]) {
      expect(await matchBackupCode([NEW], typed, hashes, USER), typed).toBe(2)
    }
  })

  it("refuse a wrong code, another user's code, and malformed input without throwing", async () => {
    const codes = newBackupCodes()
    const hashes = await Promise.all(codes.map((code) => hashBackupCode([NEW], code, USER)))
    const [first = ""] = codes
    expect(await matchBackupCode([NEW], first, hashes, "user-2")).toBe(-1)
    const other = newBackupCodes().find((code) => !codes.includes(code)) ?? ""
    expect(await matchBackupCode([NEW], other, hashes, USER)).toBe(-1)
    const hostile: unknown[] = ["", " - ", "x".repeat(100_000), `${first}\u0000`, "\uD800\uDC00".repeat(5), "ünïcødé12345", undefined, null, 12345, [first]]
    for (const code of hostile) expect(await matchBackupCode([NEW], code, hashes, USER)).toBe(-1)
  })

  it("skip a stored hash that is malformed, and never throw on one", async () => {
    const [code = ""] = newBackupCodes()
    const good = await hashBackupCode([NEW], code, USER)
    const [kid, salt, mac] = good.split(".")
    const broken = ["", "...", "a.b", `${kid}.${salt}`, `${kid}.${salt}.${mac}.x`, `${kid}.${salt}.${mac?.slice(1)}`, `${kid}.!!.${mac}`, "\uD800", "x".repeat(10_000)]
    expect(await matchBackupCode([NEW], code, [...broken, good], USER)).toBe(broken.length)
    expect(await matchBackupCode([NEW], code, broken, USER)).toBe(-1)
  })

  it("still match after the secret is rotated (the old one listed second), and no longer once it is removed", async () => {
    const [code = ""] = newBackupCodes()
    const hash = await hashBackupCode([OLD], code, USER)
    expect(await matchBackupCode([NEW, OLD], code, [hash], USER)).toBe(0)
    expect(await matchBackupCode([NEW], code, [hash], USER)).toBe(-1)
    // What is hashed now is under the first secret.
    const fresh = await hashBackupCode([NEW, OLD], code, USER)
    expect(await matchBackupCode([NEW], code, [fresh], USER)).toBe(0)
  })

  it("need a secret", async () => {
    await expect(hashBackupCode([], "abcde-fghjk", USER)).rejects.toThrow(MissingSecret)
    await expect(matchBackupCode([], "abcde-fghjk", [], USER)).rejects.toThrow(MissingSecret)
  })
})
