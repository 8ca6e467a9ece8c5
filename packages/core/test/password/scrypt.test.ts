import { afterEach, describe, expect, it, vi } from "vitest"

/** RFC 7914 §12's third test vector: "password", salt "NaCl", N = 1024, r = 8, p = 16, 64 bytes. */
const VECTOR = {
  password: new TextEncoder().encode("password"),
  salt: new TextEncoder().encode("NaCl"),
  input: { ln: 10, r: 8, p: 16, keyLength: 64 },
  key: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
})

describe("scrypt on what the runtime has (RFC 7914)", () => {
  it("uses node:crypto where the runtime has it, and derives RFC 7914 §12's vector", async () => {
    const { scrypt, scryptEngine } = await import("../../src/password/scrypt.js")
    expect(scryptEngine).toBe("node")
    expect(hex(await scrypt(VECTOR.password, VECTOR.salt, VECTOR.input))).toBe(VECTOR.key)
  })

  it("takes Bun's `undefined` error in node:crypto's callback for success, as Node's `null`", async () => {
    const key = new Uint8Array(32).fill(9)
    const bunLike = { scrypt: (..._args: unknown[]) => { (_args.at(-1) as (error: undefined, key: Uint8Array) => void)(undefined, key); } }
    vi.stubGlobal("process", { ...process, getBuiltinModule: (id: string) => (id === "node:crypto" ? bunLike : undefined) })
    const { scrypt } = await import("../../src/password/scrypt.js")
    expect(await scrypt(VECTOR.password, VECTOR.salt, { ln: 14, r: 8, p: 5, keyLength: 32 })).toBe(key)
  })

  it("falls back to @noble/hashes where node:crypto is missing (workerd without nodejs_compat), deriving the same vector", async () => {
    // A runtime without Node's modules: no getBuiltinModule to ask.
    vi.stubGlobal("process", { ...process, getBuiltinModule: undefined })
    const { scrypt, scryptEngine } = await import("../../src/password/scrypt.js")
    expect(scryptEngine).toBe("noble")
    expect(hex(await scrypt(VECTOR.password, VECTOR.salt, VECTOR.input))).toBe(VECTOR.key)
  })
})
