/**
 * Session cookies interchange with Auth.js's own: its published `@portcullis/core` (installed as
 * `authjs-core`) seals and opens them, and so do we, in both directions.
 */
import { hkdfSync } from "node:crypto"
import { Auth as AuthjsAuth } from "authjs-core"
import { decode as authjsDecode, encode as authjsEncode } from "authjs-core/jwt"
import { base64url, EncryptJWT } from "jose"
import { describe, expect, it } from "vitest"
import { Auth } from "../src/index.js"
import { decode, encode } from "../src/session/jwt.js"
import { Jar, SECRET, call, testConfig } from "./helpers.js"

const NAME = "authjs.session-token"
const OLD_SECRET = "the-old-secret-that-is-at-least-32-chars"

function withCookie(value: string): Jar {
  const jar = new Jar()
  jar.cookies.set(NAME, value)
  return jar
}

describe("a session sealed by Auth.js", () => {
  it("opens with our decode, with the same claims", async () => {
    const sealed = await authjsEncode({ token: { sub: "u1", name: "Ada", role: "admin" }, secret: SECRET, salt: NAME, maxAge: 3600 })
    const ours = await decode({ token: sealed, secret: SECRET, salt: NAME })
    expect(ours).toEqual(await authjsDecode({ token: sealed, secret: SECRET, salt: NAME }))
    expect(ours).toMatchObject({ sub: "u1", name: "Ada", role: "admin" })
    expect(ours?.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect((ours?.exp ?? 0) - (ours?.iat ?? 0)).toBe(3600)
  })

  it("is read by our Auth() as the signed-in session (GET /session on http)", async () => {
    const sealed = await authjsEncode({ token: { sub: "u1", name: "Ada", email: "ada@example.com", picture: "https://img.example/a.png" }, secret: SECRET, salt: NAME })
    const response = await call(testConfig(), withCookie(sealed), "/api/auth/session")
    expect(await response.json()).toMatchObject({ user: { id: "u1", name: "Ada", email: "ada@example.com", image: "https://img.example/a.png" } })
  })

  it("on https is read under Auth.js's __Secure- cookie name once the app names it so", async () => {
    const name = `__Secure-${NAME}`
    const sealed = await authjsEncode({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: name })
    const config = testConfig({ cookies: { sessionToken: { name } } })
    const response = await Auth(new Request("https://app.example/api/auth/session", { headers: { cookie: `${name}=${sealed}` } }), config)
    expect(await response.json()).toMatchObject({ user: { id: "u1", name: "Ada" } })
  })

  it("sealed with a secret since rotated out of first place still opens", async () => {
    const sealed = await authjsEncode({ token: { sub: "u1" }, secret: OLD_SECRET, salt: NAME })
    expect(await decode({ token: sealed, secret: [SECRET, OLD_SECRET], salt: NAME })).toMatchObject({ sub: "u1" })
  })

  it("sealed with A256GCM (which Auth.js also opens) opens too", async () => {
    const key = new Uint8Array(hkdfSync("sha256", SECRET, NAME, `Auth.js Generated Encryption Key (${NAME})`, 32))
    const now = Math.floor(Date.now() / 1000)
    const sealed = await new EncryptJWT({ sub: "u1" }).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setIssuedAt(now).setExpirationTime(now + 60).encrypt(key)
    expect(await authjsDecode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
    expect(await decode({ token: sealed, secret: SECRET, salt: NAME })).toMatchObject({ sub: "u1" })
  })
})

describe("a session sealed by us", () => {
  it("opens with Auth.js's decode, with the same claims and header", async () => {
    const sealed = await encode({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: NAME, maxAge: 3600 })
    const theirs = await authjsDecode({ token: sealed, secret: SECRET, salt: NAME })
    expect(theirs).toEqual(await decode({ token: sealed, secret: SECRET, salt: NAME }))
    const fromAuthjs = await authjsEncode({ token: {}, secret: SECRET, salt: NAME })
    expect(sealed.split(".")[0]).toBe(fromAuthjs.split(".")[0])
  })

  it("opens with Auth.js's decode when sealed with the first of several secrets", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: [SECRET, OLD_SECRET], salt: NAME })
    expect(await authjsDecode({ token: sealed, secret: [OLD_SECRET, SECRET], salt: NAME })).toMatchObject({ sub: "u1" })
  })

  it("written by our Auth() is read by Auth.js's Auth() as the same user", async () => {
    const config = testConfig({ session: { updateAge: 0 } })
    const jar = withCookie(await encode({ token: { sub: "u1", name: "Ada", email: "ada@example.com" }, secret: SECRET, salt: NAME }))
    // updateAge 0: our read re-seals the cookie, so Auth.js reads what our Auth() wrote.
    const ours = await call(config, jar, "/api/auth/session")
    expect(ours.headers.getSetCookie()[0]).toMatch(/^authjs\.session-token=ey/)
    const request = new Request("http://localhost:3000/api/auth/session", { headers: { cookie: jar.header() } })
    const theirs = (await AuthjsAuth(request, { secret: SECRET, trustHost: true, basePath: "/api/auth", providers: [] }))
    expect(await theirs.json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
  })

  it("without maxAge expires after Auth.js's default of 30 days", async () => {
    const claims = await authjsDecode({ token: await encode({ token: { sub: "u1" }, secret: SECRET, salt: NAME }), secret: SECRET, salt: NAME })
    expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(30 * 24 * 60 * 60)
  })

  it("with a key Auth.js does not derive is refused by Auth.js too (the kid names the key)", async () => {
    const sealed = await encode({ token: { sub: "u1" }, secret: OLD_SECRET, salt: NAME })
    await expect(authjsDecode({ token: sealed, secret: SECRET, salt: NAME })).rejects.toThrow()
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(sealed.split(".")[0] ?? ""))) as Record<string, unknown>
    expect(Object.keys(header)).toEqual(["alg", "enc", "kid"])
    expect(header).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    expect(header.kid).toMatch(/^[\w-]{86}$/)
  })
})
