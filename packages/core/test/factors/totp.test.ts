import { describe, expect, it } from "vitest"
import { Configuration } from "../../src/errors/errors.js"
import { AdapterError } from "../../src/errors/flow-errors.js"
import { base32Decode, base32Encode, newTotpSecret, totpCode, totpStep, totpUri, verifyTotp } from "../../src/factors/totp.js"

const encoder = new TextEncoder()
/** RFC 6238 Appendix B's SHA-1 seed (also RFC 4226 Appendix D's): the ASCII of "12345678901234567890". */
const RFC_SECRET = encoder.encode("12345678901234567890")

describe("base32 (RFC 4648 section 6)", () => {
  // RFC 4648 section 10.
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "MY======"],
    ["fo", "MZXQ===="],
    ["foo", "MZXW6==="],
    ["foob", "MZXW6YQ="],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI======"],
  ]

  it.each(vectors)("encodes and decodes the RFC 4648 section 10 vector %j", (plain, encoded) => {
    expect(base32Encode(encoder.encode(plain))).toBe(encoded)
    expect(base32Decode(encoded)).toEqual(encoder.encode(plain))
  })

  it("leaves the padding out when asked, as the Key URI format wants, and reads it back without", () => {
    expect(base32Encode(encoder.encode("foobar"), { padding: false })).toBe("MZXW6YTBOI")
    expect(base32Decode("MZXW6YTBOI")).toEqual(encoder.encode("foobar"))
    expect(base32Decode("mzxw6ytboi")).toEqual(encoder.encode("foobar"))
  })

  it("round-trips every length", () => {
    for (let length = 0; length < 41; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length))
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes)
      expect(base32Decode(base32Encode(bytes, { padding: false }))).toEqual(bytes)
    }
  })

  it("refuses what is not base32 (RFC 4648 section 3.3): other characters, impossible lengths, misplaced padding, non-zero pad bits (section 3.5)", () => {
    for (const text of ["MY1=====", "M", "MZX", "MZXW6Y", "MY=====", "MY======A", "M=Y=====", "MZ======", "MY======\u0000", "ＭＹ======", "MY\n======", "\uD800"]) {
      expect(base32Decode(text), text).toBeUndefined()
    }
  })
})

describe("TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps)", () => {
  // RFC 6238 Appendix B, SHA-1 rows. The appendix prints 8 digits; the 6-digit code is the same
  // truncated value modulo 10^6 (RFC 4226 section 5.3), so its last six digits.
  const appendixB: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ]

  it.each(appendixB)("gives RFC 6238 Appendix B's SHA-1 code at T = %i s, to six digits", async (seconds, eight) => {
    const step = totpStep(seconds * 1000)
    expect(step).toBe(Math.floor(seconds / 30))
    expect(await totpCode(RFC_SECRET, step)).toBe(eight.slice(2))
    expect(await verifyTotp(RFC_SECRET, eight.slice(2), seconds * 1000)).toEqual({ step })
  })

  it("gives RFC 4226 Appendix D's six-digit HOTP values for counters 0 to 9", async () => {
    const hotp = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
    for (const [counter, code] of hotp.entries()) expect(await totpCode(RFC_SECRET, counter)).toBe(code)
  })

  it("accepts the step before and after the current one, answering which step matched so the caller can record it", async () => {
    const now = 1111111111_000
    const step = totpStep(now)
    expect(await verifyTotp(RFC_SECRET, await totpCode(RFC_SECRET, step - 1), now)).toEqual({ step: step - 1 })
    expect(await verifyTotp(RFC_SECRET, await totpCode(RFC_SECRET, step + 1), now)).toEqual({ step: step + 1 })
  })

  it("refuses a code two steps away, either way (RFC 6238 section 5.2: at most one step of drift)", async () => {
    const now = 1234567890_000
    const step = totpStep(now)
    for (const far of [step - 2, step + 2, step - 3]) {
      const code = await totpCode(RFC_SECRET, far)
      // A code of a far step that happens to equal a near one would prove nothing.
      const near = await Promise.all([step - 1, step, step + 1].map((s) => totpCode(RFC_SECRET, s)))
      expect(near).not.toContain(code)
      expect(await verifyTotp(RFC_SECRET, code, now)).toBeNull()
    }
  })

  it("takes a code with spaces in it, as authenticator apps show it", async () => {
    expect(await verifyTotp(RFC_SECRET, " 287 082 ", 59_000)).toEqual({ step: 1 })
    expect(await verifyTotp(RFC_SECRET, "287\u00a0082", 59_000)).toEqual({ step: 1 })
  })

  it("refuses what is not six digits, never throwing: empty, long, letters, other scripts' digits, not a string", async () => {
    const hostile: unknown[] = ["", "28708", "2870820", "28708a", "２８７０８２", "٢٨٧٠٨٢", "287-082", "287082\u0000", "9".repeat(100_000), "\uD800".repeat(6), undefined, null, 287082, ["287082"], { code: "287082" }]
    for (const code of hostile) expect(await verifyTotp(RFC_SECRET, code, 59_000)).toBeNull()
  })

  it("refuses a time that is not one (never a step from NaN)", async () => {
    expect(await verifyTotp(RFC_SECRET, "755224", Number.NaN)).toBeNull()
    expect(await verifyTotp(RFC_SECRET, "755224", -1)).toBeNull()
  })

  it("refuses a secret shorter than RFC 4226 section 4's 128 bits with an AdapterError (it can only have come from the store)", async () => {
    await expect(verifyTotp(new Uint8Array(15), "755224", 59_000)).rejects.toThrow(AdapterError)
    await expect(totpCode(new Uint8Array(0), 1)).rejects.toThrow(AdapterError)
  })

  it("makes 20-byte secrets from the CSPRNG, each different (RFC 4226 section 4 R6, ASVS 6.5.3)", () => {
    const a = newTotpSecret()
    const b = newTotpSecret()
    expect(a).toHaveLength(20)
    expect(a).not.toEqual(b)
  })
})

describe("otpauth:// URI (the Key URI format authenticator apps read)", () => {
  const secret = encoder.encode("12345678901234567890")

  it("names the issuer in the label and the parameter, with the secret in unpadded base32", () => {
    expect(totpUri({ issuer: "Acme", account: "ada@example.com", secret })).toBe(
      "otpauth://totp/Acme:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme",
    )
    const uri = new URL(totpUri({ issuer: "Acme Corp", account: "Ada Lovelace", secret }))
    expect(uri.protocol).toBe("otpauth:")
    expect(uri.host).toBe("totp")
    expect(decodeURIComponent(uri.pathname)).toBe("/Acme Corp:Ada Lovelace")
    expect(uri.searchParams.get("issuer")).toBe("Acme Corp")
    expect(base32Decode(uri.searchParams.get("secret") ?? "")).toEqual(secret)
  })

  it("escapes hostile issuer and account values: no extra parameter, path, fragment, colon or control character gets through", () => {
    const uri = totpUri({ issuer: "Evil&secret=AAAA#x:y/z?", account: "a:b\r\nc\u202e\u0000d%41&issuer=Other", secret })
    const parsed = new URL(uri)
    expect(parsed.hash).toBe("")
    expect([...parsed.searchParams.keys()]).toEqual(["secret", "issuer"])
    expect(parsed.searchParams.get("secret")).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    const issuer = parsed.searchParams.get("issuer") ?? ""
    const label = decodeURIComponent(parsed.pathname.slice(1))
    // The label's one colon separates the issuer from the account: neither may hold one.
    expect(label.split(":")).toHaveLength(2)
    expect(label.split(":")[0]).toBe(issuer)
    expect(issuer).toBe("Evil&secret=AAAA#x y/z?")
    expect(label.split(":")[1]).toBe("a bcd%41&issuer=Other")
    expect(uri).toMatch(/^[\x21-\x7e]+$/)
  })

  it("keeps letters of any script, well formed, and bounds the length of each part", () => {
    const parsed = new URL(totpUri({ issuer: "Ünïcødé 認証", account: `${"😀".repeat(200)}\uD800x`, secret }))
    expect(parsed.searchParams.get("issuer")).toBe("Ünïcødé 認証")
    const account = decodeURIComponent(parsed.pathname).split(":")[1] ?? ""
    expect(Array.from(account)).toHaveLength(64)
    expect(account).toBe("😀".repeat(64))
  })

  it("leaves the issuer out when it is empty, and refuses with a Configuration error when nothing would name the entry", () => {
    expect(totpUri({ issuer: " \u0000 ", account: "ada", secret })).toBe("otpauth://totp/ada?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    expect(totpUri({ issuer: "Acme", account: "", secret })).toBe("otpauth://totp/Acme?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme")
    expect(() => totpUri({ issuer: "", account: "\u202e", secret })).toThrow(Configuration)
  })
})
