import { describe, expect, it } from "vitest"

// A runtime without Node's crypto (a browser-like edge runtime): hide getBuiltinModule before
// core is loaded, so the handler runs on the WebCrypto engine from end to end.
Object.defineProperty(process, "getBuiltinModule", { value: undefined, configurable: true })
const { engine } = await import("../src/crypto/crypto.js")
const { encode } = await import("../src/session/jwt.js")
const { Jar, SECRET, call, csrfToken, testConfig } = await import("./helpers.js")

describe("on a runtime without node:crypto", () => {
  it("uses the WebCrypto engine", () => {
    expect(engine.name).toBe("webcrypto")
  })

  it("reads a JWT session and checks CSRF with it", async () => {
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", await encode({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: "authjs.session-token", maxAge: 60 }))
    const session = await call(testConfig(), jar, "/api/auth/session")
    expect(await session.json()).toMatchObject({ user: { name: "Ada" } })
    const token = await csrfToken(testConfig(), jar)
    const signout = await call(testConfig(), jar, "/api/auth/signout", { form: { csrfToken: token } })
    expect(signout.headers.get("location")).toBe("http://localhost:3000/")
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
  })
})
