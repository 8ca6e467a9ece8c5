import { compactDecrypt, CompactEncrypt } from "jose"
import { describe, expect, it } from "vitest"
import { base64url, deriveKey, engine, fromBase64url, hmac, nodeEngine, randomBytes, verifyHmac, type CryptoEngine } from "../../src/crypto/crypto.js"
import { openJwe, sealJwe } from "../../src/crypto/sealed.js"
import { webEngine } from "../../src/crypto/crypto-web.js"

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

const nodeCrypto = await import("node:crypto")
const engines: CryptoEngine[] = [webEngine, nodeEngine(nodeCrypto as never)]

describe("the engine in use", () => {
  it("is Node's crypto on Node, found without an import statement", () => {
    expect(engine.name).toBe("node")
  })
})

describe.each(engines)("JWE on the $name engine", (using) => {
  const secret = "s".repeat(40)

  it("is standard compact JWE: jose opens what we seal, and we open what jose seals", async () => {
    const key = await deriveKey(secret, "salt", "jwe")
    const sealed = await sealJwe({ hello: "world" }, key, using)
    const { plaintext, protectedHeader } = await compactDecrypt(sealed, key.raw)
    expect(protectedHeader).toEqual({ alg: "dir", enc: "A256GCM" })
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ hello: "world" })
    const fromJose = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ n: 1 })))
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .encrypt(key.raw)
    expect(await openJwe(fromJose, [key], using)).toEqual({ n: 1 })
  })

  it("opens what the other engine sealed", async () => {
    const key = await deriveKey(secret, "salt", "jwe")
    for (const other of engines) expect(await openJwe(await sealJwe({ a: other.name }, key, other), [key], using)).toEqual({ a: other.name })
  })

  it("refuses a token sealed with another key, tampered with, or malformed", async () => {
    const key = await deriveKey(secret, "salt", "jwe")
    const other = await deriveKey("another-secret-of-enough-length-000", "salt", "jwe")
    const sealed = await sealJwe({ a: 1 }, key, using)
    expect(await openJwe(sealed, [other], using)).toBeUndefined()
    expect(await openJwe(sealed, [other, key], using)).toEqual({ a: 1 })
    const parts = sealed.split(".")
    const flipped = [...parts]
    flipped[3] = (parts[3]?.startsWith("A") ? "B" : "A") + (parts[3]?.slice(1) ?? "")
    expect(await openJwe(flipped.join("."), [key], using)).toBeUndefined()
    const shortTag = [...parts.slice(0, 4), "AAAA"]
    expect(await openJwe(shortTag.join("."), [key], using)).toBeUndefined()
    expect(await openJwe(`${sealed}.x`, [key], using)).toBeUndefined()
    expect(await openJwe("not a token", [key], using)).toBeUndefined()
    expect(await openJwe("eyJhbGciOiJub25lIn0..a.b.c", [key], using)).toBeUndefined()
  })

  it("derives distinct keys per salt and purpose, and caches them", async () => {
    expect(await deriveKey(secret, "a", "jwe")).toBe(await deriveKey(secret, "a", "jwe"))
    const sealed = await sealJwe({ a: 1 }, await deriveKey(secret, "a", "jwe"), using)
    expect(await openJwe(sealed, [await deriveKey(secret, "b", "jwe")], using)).toBeUndefined()
  })
})

describe.each(engines)("HMAC on the $name engine", (using) => {
  it("verifies MACs from either engine with any of the keys, and nothing else", async () => {
    const key = await deriveKey("k".repeat(40), "csrf", "hmac")
    const old = await deriveKey("o".repeat(40), "csrf", "hmac")
    for (const other of engines) {
      const mac = await hmac("value", old, other)
      expect(await verifyHmac("value", mac, [key, old], using)).toBe(true)
      expect(await verifyHmac("value", mac, [key], using)).toBe(false)
      expect(await verifyHmac("other", mac, [old], using)).toBe(false)
    }
    expect(await verifyHmac("value", "short", [old], using)).toBe(false)
  })
})
