/** `@portcullis/core/jwt`: encode, decode and getToken, and the A256CBC-HS512 engines under them. */
import { compactDecrypt, CompactEncrypt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import { webEngine } from "../src/crypto/crypto-web.js"
import { deriveKey, engine, importCbcHmacKey, nodeEngine, randomBytes, type CryptoEngine } from "../src/crypto/crypto.js"
import { sealJwe } from "../src/crypto/sealed.js"
import { MissingSecret, SessionTokenError } from "../src/errors/errors.js"
import { decode, encode, getToken } from "../src/session/jwt.js"
import { Jar, SECRET, call, testConfig } from "./helpers.js"

const NAME = "authjs.session-token"
const OTHER = "another-secret-of-sufficient-length!!"

function flipCharacter(text: string, at: number): string {
  return text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
}

/** A sealed token with one part altered. */
function altered(token: string, part: number): string {
  const parts = token.split(".")
  parts[part] = flipCharacter(parts[part] ?? "", 2)
  return parts.join(".")
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
})

const nodeCrypto = await import("node:crypto")
const engines: CryptoEngine[] = [webEngine, nodeEngine(nodeCrypto as never)]

const key = await importCbcHmacKey(randomBytes(64))

describe.each(engines)("A256CBC-HS512 on the $name engine", (using) => {
  const header = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0"
  const aad = new TextEncoder().encode(header)

  it("is what jose seals and opens", async () => {
    const iv = randomBytes(16)
    const sealed = await using.encryptCbcHmac(key, iv, aad, new TextEncoder().encode("hello"))
    const token = [header, "", Buffer.from(iv).toString("base64url"), Buffer.from(sealed.ciphertext).toString("base64url"), Buffer.from(sealed.tag).toString("base64url")].join(".")
    expect(new TextDecoder().decode((await compactDecrypt(token, key.raw)).plaintext)).toBe("hello")
    const fromJose = (await new CompactEncrypt(new TextEncoder().encode("world")).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" }).encrypt(key.raw)).split(".")
    const opened = await using.decryptCbcHmac(key, Buffer.from(fromJose[2] ?? "", "base64url"), aad, {
      ciphertext: Buffer.from(fromJose[3] ?? "", "base64url"),
      tag: Buffer.from(fromJose[4] ?? "", "base64url"),
    })
    expect(new TextDecoder().decode(opened)).toBe("world")
  })

  it("refuses an altered ciphertext, tag or AAD, and opens what the other engine sealed", async () => {
    const iv = randomBytes(16)
    const sealed = await using.encryptCbcHmac(key, iv, aad, new TextEncoder().encode("x".repeat(40)))
    const ciphertext = Uint8Array.from(sealed.ciphertext)
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1
    expect(await using.decryptCbcHmac(key, iv, aad, { ciphertext, tag: sealed.tag })).toBeUndefined()
    expect(await using.decryptCbcHmac(key, iv, aad, { ciphertext: sealed.ciphertext, tag: sealed.tag.subarray(0, 16) })).toBeUndefined()
    expect(await using.decryptCbcHmac(key, iv, new TextEncoder().encode("other"), sealed)).toBeUndefined()
    for (const other of engines) expect(await other.decryptCbcHmac(key, iv, aad, sealed)).toEqual(new TextEncoder().encode("x".repeat(40)))
  })
})

describe("encode and decode", () => {
  it("round-trip the claims and set iat, exp and a jti", async () => {
    const token = await decode({ token: await encode({ token: { sub: "u1", n: 1 }, secret: SECRET, salt: NAME, maxAge: 60 }), secret: SECRET, salt: NAME })
    expect(token).toMatchObject({ sub: "u1", n: 1 })
    expect(Math.abs((token?.iat ?? 0) - Date.now() / 1000)).toBeLessThan(2)
    expect(token?.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect((token?.exp ?? 0) - (token?.iat ?? 0)).toBe(60)
  })

  it("encode without maxAge seals for 30 days, as Auth.js", async () => {
    const token = await decode({ token: await encode({ token: {}, secret: SECRET, salt: NAME }), secret: SECRET, salt: NAME })
    expect((token?.exp ?? 0) - (token?.iat ?? 0)).toBe(2592000)
  })

  it("decode of an empty or missing token is null", async () => {
    expect(await decode({ token: "", secret: SECRET, salt: NAME })).toBeNull()
    expect(await decode({ secret: SECRET, salt: NAME })).toBeNull()
  })

  it("rotates keys: the first secret seals, every secret opens", async () => {
    const old = await encode({ token: { sub: "u1" }, secret: OTHER, salt: NAME })
    expect(await decode({ token: old, secret: [SECRET, OTHER], salt: NAME })).toMatchObject({ sub: "u1" })
    const fresh = await encode({ token: { sub: "u2" }, secret: [SECRET, OTHER], salt: NAME })
    expect(await decode({ token: fresh, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u2" })
    await expect(decode({ token: fresh, secret: OTHER, salt: NAME })).rejects.toThrow(/not configured/)
  })

  it("an expired token decodes to null, past Auth.js's 15 seconds of clock skew", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME, maxAge: 1 })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 10_000)
    expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
    vi.setSystemTime(Date.now() + 10_000)
    expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toBeNull()
  })

  it("opens a token read before from memory, without decrypting it again", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    const decrypt = vi.spyOn(engine, "decryptCbcHmac")
    try {
      expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
      expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
      expect(decrypt).toHaveBeenCalledTimes(1)
    } finally {
      decrypt.mockRestore()
    }
  })

  it("attack: a token read before does not open under another salt or secret, nor once altered", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
    await expect(decode({ token: sealed, secret: SECRET, salt: `__Host-${NAME}` })).rejects.toThrow(SessionTokenError)
    await expect(decode({ token: sealed, secret: OTHER, salt: NAME })).rejects.toThrow(SessionTokenError)
    await expect(decode({ token: altered(sealed, 3), secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
  })

  it("attack: a token read before does not open once its secret is edited out of the same array", async () => {
    const secrets = [SECRET]
    const sealed = await encode({ token: { sub: "u1" }, secret: secrets, salt: NAME })
    expect(await decode({ token: sealed, secret: secrets, salt: NAME })).toMatchObject({ sub: "u1" })
    secrets[0] = OTHER
    await expect(decode({ token: sealed, secret: secrets, salt: NAME })).rejects.toThrow(SessionTokenError)
    expect(await decode({ token: await encode({ token: { sub: "u2" }, secret: secrets, salt: NAME }), secret: OTHER, salt: NAME })).toMatchObject({ sub: "u2" })
  })

  it("attack: an altered ciphertext is refused", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    await expect(decode({ token: altered(sealed, 3), secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
  })

  it("attack: an altered tag or IV is refused", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    await expect(decode({ token: altered(sealed, 4), secret: SECRET, salt: NAME })).rejects.toThrow(/altered/)
    await expect(decode({ token: altered(sealed, 2), secret: SECRET, salt: NAME })).rejects.toThrow(/altered/)
  })

  it("attack: a header swapped for one without a kid does not authenticate", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    const header = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512" })).toString("base64url")
    await expect(decode({ token: [header, ...sealed.split(".").slice(1)].join("."), secret: SECRET, salt: NAME })).rejects.toThrow(/altered/)
  })

  it("attack: a token for another cookie (salt) does not open", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: "authjs.other" })
    await expect(decode({ token: sealed, secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
  })

  it("attack: alg none, another enc, zip or crit are refused", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME })
    for (const header of [{ alg: "none" }, { alg: "dir", enc: "A128GCM" }, { alg: "dir", enc: "A256CBC-HS512", zip: "DEF" }, { alg: "dir", enc: "A256GCM", crit: ["x"] }]) {
      const forged = [Buffer.from(JSON.stringify(header)).toString("base64url"), ...sealed.split(".").slice(1)].join(".")
      await expect(decode({ token: forged, secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
    }
  })

  it("attack: a signed JWT or garbage in place of the JWE is refused", async () => {
    await expect(decode({ token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln", secret: SECRET, salt: NAME })).rejects.toThrow(/not a compact JWE/)
    await expect(decode({ token: "not a token", secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
    await expect(decode({ token: "%%%..a.b.c", secret: SECRET, salt: NAME })).rejects.toThrow(SessionTokenError)
  })

  it("attack: a sealed claims set without exp is refused (it would never end)", async () => {
    const key = (await import("node:crypto")).hkdfSync("sha256", SECRET, NAME, `Auth.js Generated Encryption Key (${NAME})`, 64)
    const forged = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ sub: "u1" })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(new Uint8Array(key))
    await expect(decode({ token: forged, secret: SECRET, salt: NAME })).rejects.toThrow(/no `exp`/)
  })

  it("opens a session sealed by the previous release (A256GCM, our own derivation)", async () => {
    const now = Math.floor(Date.now() / 1000)
    const legacy = await sealJwe({ sub: "u1", iat: now, exp: now + 60 }, await deriveKey(SECRET, NAME, "jwe"))
    expect(await decode({ token: legacy, secret: [OTHER, SECRET], salt: NAME })).toMatchObject({ sub: "u1" })
  })

  it("refuses to seal or open without a secret", async () => {
    await expect(encode({ token: {}, secret: [], salt: NAME })).rejects.toThrow(MissingSecret)
    await expect(decode({ token: "x", secret: "", salt: NAME })).rejects.toThrow(MissingSecret)
  })
})

describe("getToken", () => {
  async function sealed(claims: Record<string, unknown> = { sub: "u1" }, salt = NAME): Promise<string> {
    return encode({ token: claims, secret: SECRET, salt })
  }

  it("reads the session cookie of a Request", async () => {
    const req = new Request("http://localhost/", { headers: { cookie: `other=1; ${NAME}=${await sealed()}` } })
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("reads a plain headers record, as a Node request has", async () => {
    expect(await getToken({ req: { headers: { cookie: `${NAME}=${await sealed()}` } }, secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("reassembles a chunked cookie", async () => {
    const token = await sealed({ sub: "u1", blob: "x".repeat(6000) })
    const req = { headers: { cookie: `${NAME}.1=${token.slice(3000)}; ${NAME}.0=${token.slice(0, 3000)}` } }
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("looks for the __Host- cookie when secureCookie is set, salted with its name", async () => {
    const name = `__Host-${NAME}`
    const req = { headers: { cookie: `${name}=${await sealed({ sub: "u1" }, name)}` } }
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject({ sub: "u1" })
    expect(await getToken({ req, secret: SECRET, secureCookie: false })).toBeNull()
  })

  it("never falls back to a __Secure- cookie a sibling subdomain could plant, unless cookieName names it", async () => {
    const name = `__Secure-${NAME}`
    const req = { headers: { cookie: `${name}=${await sealed({ sub: "attacker" }, name)}` } }
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toBeNull()
    expect(await getToken({ req, secret: SECRET, secureCookie: true, cookieName: name })).toMatchObject({ sub: "attacker" })
  })

  it("detects the secure cookie from an https request URL, or from AUTH_URL", async () => {
    const name = `__Host-${NAME}`
    const cookie = `${name}=${await sealed({ sub: "u1" }, name)}`
    vi.stubEnv("AUTH_URL", "")
    expect(await getToken({ req: new Request("https://app.example/", { headers: { cookie } }), secret: SECRET })).toMatchObject({ sub: "u1" })
    vi.stubEnv("AUTH_URL", "https://app.example")
    expect(await getToken({ req: { headers: { cookie } }, secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("reads a custom cookie name, salted with it unless salt is given", async () => {
    const req = { headers: { cookie: `my-session=${await sealed({ sub: "u1" }, "my-salt")}` } }
    expect(await getToken({ req, secret: SECRET, cookieName: "my-session", salt: "my-salt" })).toMatchObject({ sub: "u1" })
    expect(await getToken({ req, secret: SECRET, cookieName: "my-session" })).toBeNull()
  })

  it("falls back to an Authorization: Bearer header", async () => {
    const token = await sealed()
    expect(await getToken({ req: { headers: { authorization: `Bearer ${encodeURIComponent(token)}` } }, secret: SECRET })).toMatchObject({ sub: "u1" })
  })

  it("answers the sealed JWT itself with raw, without needing the secret", async () => {
    const token = await sealed()
    vi.stubEnv("AUTH_SECRET", "")
    expect(await getToken({ req: { headers: { cookie: `${NAME}=${token}` } }, raw: true })).toBe(token)
  })

  it("answers null without a token, and for malformed percent-encoding in the Bearer header", async () => {
    expect(await getToken({ req: { headers: {} }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: { authorization: "Bearer %E0%A4%A" } }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: { authorization: "Basic dTpw" } }, secret: SECRET })).toBeNull()
  })

  it("takes the secret from AUTH_SECRET, and throws MissingSecret without one", async () => {
    const req = { headers: { cookie: `${NAME}=${await sealed()}` } }
    vi.stubEnv("AUTH_SECRET", SECRET)
    expect(await getToken({ req })).toMatchObject({ sub: "u1" })
    vi.stubEnv("AUTH_SECRET", "")
    await expect(getToken({ req })).rejects.toThrow(MissingSecret)
  })

  it("attack: an altered token answers null and is reported without the token", async () => {
    const token = altered(await sealed(), 3)
    const warn = vi.fn()
    expect(await getToken({ req: { headers: { cookie: `${NAME}=${token}` } }, secret: SECRET, logger: { warn } })).toBeNull()
    expect(warn).toHaveBeenCalledOnce()
    expect(JSON.stringify(warn.mock.calls)).not.toContain(token.slice(0, 40))
  })

  it("uses a custom decode", async () => {
    const req = { headers: { cookie: `${NAME}=custom` } }
    expect(await getToken({ req, secret: SECRET, decode: ({ token }) => ({ sub: token ?? "" }) })).toEqual({ sub: "custom" })
  })
})

describe("a session cookie that does not open", () => {
  function warnings(): { config: ReturnType<typeof testConfig>; warned: [string, string | undefined][] } {
    const warned: [string, string | undefined][] = []
    const config = testConfig({ logger: { error: () => undefined, warn: (code, message) => warned.push([code, message]) } })
    return { config, warned }
  }

  function withCookie(value: string): Jar {
    const jar = new Jar()
    jar.cookies.set(NAME, value)
    return jar
  }

  it("attack: an altered cookie is logged once as a warning with a code, never with the cookie, and cleared", async () => {
    const { config, warned } = warnings()
    const token = altered(await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME }), 3)
    const response = await call(config, withCookie(token), "/api/auth/session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()[0]).toMatch(/^authjs\.session-token=; Max-Age=0/)
    expect(warned).toEqual([["SessionTokenError", expect.stringMatching(/altered/)]])
    expect(JSON.stringify(warned)).not.toContain(token.split(".")[3]?.slice(0, 20))
  })

  it("attack: a cookie sealed with an unknown secret is logged as such", async () => {
    const { config, warned } = warnings()
    await call(config, withCookie(await encode({ token: { sub: "u1" }, secret: OTHER, salt: NAME })), "/api/auth/session")
    expect(warned).toEqual([["SessionTokenError", expect.stringMatching(/not configured/)]])
  })

  it("attack: a foreign format is logged", async () => {
    const { config, warned } = warnings()
    await call(config, withCookie("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln"), "/api/auth/session")
    expect(warned).toEqual([["SessionTokenError", expect.stringMatching(/not a compact JWE/)]])
  })

  it("an expired cookie is no session, and no warning", async () => {
    const { config, warned } = warnings()
    const jar = withCookie(await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME, maxAge: 1 }))
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 20_000)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    expect(warned).toEqual([])
  })

  it("a custom jwt.decode that throws is logged with the error's name only", async () => {
    const { config, warned } = warnings()
    const custom = { ...config, jwt: { decode: ({ token }: { token?: string }) => Promise.reject(new TypeError(`bad ${token ?? ""}`)) } }
    expect(await (await call(custom, withCookie("secret-cookie-value"), "/api/auth/session")).json()).toBeNull()
    expect(warned).toEqual([["SessionTokenError", expect.stringContaining("TypeError")]])
    expect(JSON.stringify(warned)).not.toContain("secret-cookie-value")
  })
})
