import { describe, expect, it } from "vitest"
import type { JWT } from "../src/types.js"
import { Jar, call, testConfig } from "./helpers.js"

describe("jwt.encode / jwt.decode", () => {
  it("replace the built-in sealing, with the cookie name as salt and the secret list", async () => {
    const seen: unknown[] = []
    const config = testConfig({
      jwt: {
        encode: ({ token }) => `custom.${Buffer.from(JSON.stringify(token)).toString("base64url")}`,
        decode: ({ token, salt, secret }) => {
          seen.push({ salt, secret })
          return token?.startsWith("custom.") === true ? (JSON.parse(Buffer.from(token.slice(7), "base64url").toString()) as JWT) : null
        },
      },
    })
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", `custom.${Buffer.from(JSON.stringify({ name: "Ada", iat: Math.floor(Date.now() / 1000) })).toString("base64url")}`)
    const response = await call(config, jar, "/api/auth/session")
    expect(await response.json()).toMatchObject({ user: { name: "Ada" } })
    expect(seen).toEqual([{ salt: "authjs.session-token", secret: [expect.any(String)] }])
    jar.cookies.set("authjs.session-token", "garbage")
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("turns an encode that returns no string into a SessionTokenError, not a broken cookie", async () => {
    const config = testConfig({ session: { updateAge: 0 }, jwt: { encode: () => 42 as never, decode: () => ({ name: "Ada", iat: 0 }) } })
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", "x")
    const response = await call(config, jar, "/api/auth/session")
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: "SessionTokenError" })
  })
})
