import { compactDecrypt, CompactEncrypt } from "jose"
import { describe, expect, it } from "vitest"
import { base64url, deriveKey, fromBase64url, hmac, openJwe, randomBytes, sealJwe, verifyHmac } from "../src/crypto.js"

describe("base64url", () => {
  it("round-trips every length and matches Node's encoder", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = randomBytes(length)
      const encoded = base64url(bytes)
      expect(encoded).toBe(Buffer.from(bytes).toString("base64url"))
      expect(fromBase64url(encoded)).toEqual(bytes)
    }
  })

  it("rejects characters outside the alphabet and impossible lengths", () => {
    expect(fromBase64url("ab+c")).toBeUndefined()
    expect(fromBase64url("abcde")).toBeUndefined()
    expect(fromBase64url("abc\u00e9")).toBeUndefined()
  })
})

describe("JWE", () => {
  const secret = "s".repeat(40)

  it("is standard compact JWE: jose opens what we seal, and we open what jose seals", async () => {
    const key = await deriveKey(secret, "salt", "jwe")
    const sealed = await sealJwe({ hello: "world" }, key)
    // Derived keys are not extractable; derive the same bytes to let jose check our format.
    const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveBits"])
    const bits = new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("salt"), info: new TextEncoder().encode("@auth/core jwe key") },
        material,
        256,
      ),
    )
    const { plaintext, protectedHeader } = await compactDecrypt(sealed, bits)
    expect(protectedHeader).toEqual({ alg: "dir", enc: "A256GCM" })
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ hello: "world" })
    const fromJose = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ n: 1 })))
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .encrypt(bits)
    expect(await openJwe(fromJose, [key])).toEqual({ n: 1 })
  })

  it("refuses a token sealed with another key, tampered with, or malformed", async () => {
    const key = await deriveKey(secret, "salt", "jwe")
    const other = await deriveKey("another-secret-of-enough-length-000", "salt", "jwe")
    const sealed = await sealJwe({ a: 1 }, key)
    expect(await openJwe(sealed, [other])).toBeUndefined()
    expect(await openJwe(sealed, [other, key])).toEqual({ a: 1 })
    const parts = sealed.split(".")
    const flipped = [...parts]
    flipped[3] = (parts[3]?.startsWith("A") ? "B" : "A") + (parts[3]?.slice(1) ?? "")
    expect(await openJwe(flipped.join("."), [key])).toBeUndefined()
    expect(await openJwe(`${sealed}.x`, [key])).toBeUndefined()
    expect(await openJwe("not a token", [key])).toBeUndefined()
    expect(await openJwe("eyJhbGciOiJub25lIn0..a.b.c", [key])).toBeUndefined()
  })

  it("derives distinct keys per salt and purpose, and caches them", async () => {
    expect(await deriveKey(secret, "a", "jwe")).toBe(await deriveKey(secret, "a", "jwe"))
    const sealed = await sealJwe({ a: 1 }, await deriveKey(secret, "a", "jwe"))
    expect(await openJwe(sealed, [await deriveKey(secret, "b", "jwe")])).toBeUndefined()
  })
})

describe("HMAC", () => {
  it("verifies its own MACs with any of the keys and nothing else", async () => {
    const key = await deriveKey("k".repeat(40), "csrf", "hmac")
    const old = await deriveKey("o".repeat(40), "csrf", "hmac")
    const mac = await hmac("value", old)
    expect(await verifyHmac("value", mac, [key, old])).toBe(true)
    expect(await verifyHmac("value", mac, [key])).toBe(false)
    expect(await verifyHmac("other", mac, [old])).toBe(false)
    expect(await verifyHmac("value", "short", [old])).toBe(false)
  })
})
