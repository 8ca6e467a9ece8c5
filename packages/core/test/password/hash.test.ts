import { scryptSync } from "node:crypto"
import bcrypt from "bcryptjs"
import { describe, expect, it } from "vitest"
import { formatScrypt, hashPassword, parseScrypt, SCRYPT_COST, spendVerifyCost, verifyPassword } from "../../src/password/hash.js"

const PASSWORD = "correct horse battery staple"

/** A PHC string made without this module: Node's scrypt at `ln`, `r`, `p`, as another implementation would. */
function madeElsewhere(password: string, cost: { ln: number; r: number; p: number }): string {
  const salt = Buffer.from("0123456789abcdef")
  const key = scryptSync(password, salt, 32, { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: 256 * 1024 * 1024 })
  const b64 = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/u, "")
  return `$scrypt$ln=${String(cost.ln)},r=${String(cost.r)},p=${String(cost.p)}$${b64(salt)}$${b64(key)}`
}

describe("password hashing (NIST SP 800-63B rev 4 §3.1.1.2)", () => {
  it("stores scrypt at N=2^14, r=8, p=5 as a PHC string with a 16-byte salt and a 32-byte hash, holding no copy of the password", async () => {
    const stored = await hashPassword(PASSWORD)
    expect(stored).toMatch(/^\$scrypt\$ln=14,r=8,p=5\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/u)
    expect(stored).not.toContain(PASSWORD)
    const parsed = parseScrypt(stored)
    expect(parsed).toMatchObject(SCRYPT_COST)
    expect(parsed?.salt).toHaveLength(16)
    expect(parsed?.key).toHaveLength(32)
    if (parsed !== undefined) expect(formatScrypt(parsed)).toBe(stored)
    expect(await verifyPassword(stored, PASSWORD)).toEqual({ ok: true, rehash: false })
    expect(await verifyPassword(stored, `${PASSWORD}!`)).toEqual({ ok: false, rehash: false })
  })

  it("salts each hash anew: one password hashed twice gives two strings, both verifying", async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)])
    expect(first).not.toBe(second)
    expect(parseScrypt(first)?.salt).not.toEqual(parseScrypt(second)?.salt)
    expect(await verifyPassword(second, PASSWORD)).toEqual({ ok: true, rehash: false })
  })

  it("verifies a PHC string made by another scrypt at an older cost, and asks for a re-hash only when the password matched", async () => {
    const older = madeElsewhere(PASSWORD, { ln: 12, r: 8, p: 1 })
    expect(await verifyPassword(older, PASSWORD)).toEqual({ ok: true, rehash: true })
    expect(await verifyPassword(older, "not the password")).toEqual({ ok: false, rehash: false })
    expect(await verifyPassword(madeElsewhere(PASSWORD, SCRYPT_COST), PASSWORD)).toEqual({ ok: true, rehash: false })
  })

  it("hashes the whole password: the 73rd character matters, where bcrypt would have cut it (ASVS 6.2.8)", async () => {
    const base = "x".repeat(72)
    const stored = await hashPassword(`${base}a`)
    expect(await verifyPassword(stored, `${base}b`)).toEqual({ ok: false, rehash: false })
    expect(await verifyPassword(stored, base)).toEqual({ ok: false, rehash: false })
  })

  it("hashes the NFKC form, the only normalisation: a ligature and its letters are one password, case is not", async () => {
    const stored = await hashPassword("ﬁxed password Ⅳ")
    expect((await verifyPassword(stored, "fixed password IV")).ok).toBe(true)
    expect((await verifyPassword(stored, "FIXED PASSWORD IV")).ok).toBe(false)
  })

  it("answers no match, never a throw, for a malformed string or a hash of another algorithm stored (each path: hashing-slots.test.ts)", async () => {
    const stored = ["not a hash at all", "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"]
    for (const value of stored) expect(await verifyPassword(value, PASSWORD)).toEqual({ ok: false, rehash: false })
  })

  it("spends a verification against nothing without a throw", async () => {
    await expect(spendVerifyCost(PASSWORD)).resolves.toBeUndefined()
  })
})

describe('legacyHashes: "bcrypt" (Auth.js Credentials with bcrypt, cost 10)', () => {
  it.each([
    ["$2b$", 10],
    ["$2a$", 4],
    ["$2y$", 4],
  ])("verifies a %s hash (cost %i) once against the password as typed, and asks for a re-hash", async (prefix, cost) => {
    const stored = prefix + bcrypt.hashSync(PASSWORD, cost).slice(4)
    expect(await verifyPassword(stored, PASSWORD, { legacy: "bcrypt" })).toEqual({ ok: true, rehash: true })
    expect(await verifyPassword(stored, "not the password", { legacy: "bcrypt" })).toEqual({ ok: false, rehash: false })
  })

  it("checks the raw input, not its NFKC form: what the app hashed", async () => {
    const stored = bcrypt.hashSync("ﬁxed password", 4)
    expect((await verifyPassword(stored, "ﬁxed password", { legacy: "bcrypt" })).ok).toBe(true)
    expect((await verifyPassword(stored, "fixed password", { legacy: "bcrypt" })).ok).toBe(false)
  })

  it("is the only place a password is cut at 72 bytes (bcrypt's own limit), which is why a match is re-hashed at once", async () => {
    const base = "x".repeat(72)
    const stored = bcrypt.hashSync(`${base}a`, 4)
    expect(await verifyPassword(stored, `${base}b`, { legacy: "bcrypt" })).toEqual({ ok: true, rehash: true })
  })

  it("treats a malformed bcrypt string or a cost above 14 as no match", async () => {
    const over = bcrypt.hashSync(PASSWORD, 4).replace(/^\$2b\$04\$/u, "$2b$15$")
    for (const stored of ["$2b$10$short", over, "$2x$10$abcdefghijklmnopqrstuu5Oa1pYJ9eR0uE6bK4v2hKqS7k3jzS2W"]) {
      expect(await verifyPassword(stored, PASSWORD, { legacy: "bcrypt" })).toEqual({ ok: false, rehash: false })
    }
  })
})
