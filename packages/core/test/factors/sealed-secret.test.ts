import { compactDecrypt } from "jose"
import { describe, expect, it } from "vitest"
import { nodeEngine, type CryptoEngine } from "../../src/crypto/crypto.js"
import { webEngine } from "../../src/crypto/crypto-web.js"
import { AdapterError } from "../../src/errors/flow-errors.js"
import { MissingSecret } from "../../src/errors/errors.js"
import { importGcmKey } from "../../src/crypto/crypto.js"
import { factorKeys } from "../../src/factors/keys.js"
import { openFactorSecret, sealFactorSecret } from "../../src/factors/sealed-secret.js"
import { newTotpSecret } from "../../src/factors/totp.js"

const OLD = "an-old-secret-of-enough-length-for-tests-0001"
const NEW = "a-new-secret-of-enough-length-for-tests-00002"
const USER = "user-1"

const engines: CryptoEngine[] = [webEngine, nodeEngine((await import("node:crypto")) as never)]

describe("the TOTP secret sealed at rest", () => {
  it("is authenticated encryption that holds no copy of the secret, and opens for its user", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret([NEW], secret, USER)
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64url"))
    expect(sealed).not.toContain(Buffer.from(secret).toString("hex"))
    expect(await openFactorSecret([NEW], sealed, USER)).toEqual(secret)
    expect(await sealFactorSecret([NEW], secret, USER)).not.toBe(sealed)
  })

  it("is a compact JWE (RFC 7516 section 7.1) whose header names the key it was sealed with", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret([NEW], secret, USER)
    const [key] = await factorKeys([NEW], "totp secret", importGcmKey)
    const { plaintext } = await compactDecrypt(sealed, key?.key.raw ?? new Uint8Array())
    expect(JSON.parse(new TextDecoder().decode(plaintext)) as unknown).toEqual({ sub: USER, k: Buffer.from(secret).toString("base64url") })
    const header = JSON.parse(Buffer.from(sealed.split(".")[0] ?? "", "base64url").toString()) as Record<string, unknown>
    expect(Object.keys(header)).toEqual(["alg", "enc", "kid"])
    expect(header).toMatchObject({ alg: "dir", enc: "A256GCM" })
    expect(header.kid).toMatch(/^[\w-]{12}$/)
    // Another secret's key has another id.
    const other = JSON.parse(Buffer.from((await sealFactorSecret([OLD], newTotpSecret(), USER)).split(".")[0] ?? "", "base64url").toString()) as { kid: string }
    expect(other.kid).not.toBe(header.kid)
    expect(header.kid).toBe(key?.kid)
  })

  it.each(engines)("opens on the $name engine what either engine sealed", async (using) => {
    const secret = newTotpSecret()
    for (const other of engines) expect(await openFactorSecret([NEW], await sealFactorSecret([NEW], secret, USER, other), USER, using)).toEqual(secret)
  })

  it("still opens after the secret is rotated (the old one listed second), and no longer once it is removed", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret([OLD], secret, USER)
    expect(await openFactorSecret([NEW, OLD], sealed, USER)).toEqual(secret)
    await expect(openFactorSecret([NEW], sealed, USER)).rejects.toThrow(AdapterError)
    const resealed = await sealFactorSecret([NEW, OLD], secret, USER)
    expect(await openFactorSecret([NEW], resealed, USER)).toEqual(secret)
  })

  it("refuses a sealed secret whose key id was rewritten: the header is authenticated with it", async () => {
    const secret = newTotpSecret()
    const [, , iv, ciphertext, tag] = (await sealFactorSecret([OLD], secret, USER)).split(".")
    const renamed = `${Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM", kid: "unknown-kid0" })).toString("base64url")}..${iv}.${ciphertext}.${tag}`
    await expect(openFactorSecret([NEW, OLD], renamed, USER)).rejects.toThrow(AdapterError)
  })

  it("is refused with an AdapterError when tampered with, another user's, or not a sealed secret, never with an untyped throw", async () => {
    const sealed = await sealFactorSecret([NEW], newTotpSecret(), USER)
    const parts = sealed.split(".")
    const flip = (part: string): string => `${part.slice(0, -2)}${part.endsWith("AA") ? "BA" : "AA"}`
    const tampered = [2, 3, 4].map((index) => parts.map((part, i) => (i === index ? flip(part) : part)).join("."))
    const hostile: unknown[] = [...tampered, "", ".", "....", "a.b.c.d.e", `${parts[0]}....`, "x".repeat(100_000), "\uD800", "üñï.cødé..x.y", undefined, null, 42, {}, `${Buffer.from("{").toString("base64url")}..${parts[2]}.${parts[3]}.${parts[4]}`]
    for (const value of hostile) await expect(openFactorSecret([NEW], value, USER)).rejects.toThrow(AdapterError)
    await expect(openFactorSecret([NEW], sealed, "user-2")).rejects.toThrow(AdapterError)
  })

  it("never names the secret in the refusal", async () => {
    const secret = newTotpSecret()
    const sealed = await sealFactorSecret([OLD], secret, USER)
    const error = await openFactorSecret([NEW], sealed, USER).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AdapterError)
    expect((error as Error).message).not.toContain(NEW)
    expect((error as Error).message).not.toContain(sealed)
  })

  it("needs a secret", async () => {
    await expect(sealFactorSecret([], newTotpSecret(), USER)).rejects.toThrow(MissingSecret)
  })
})
