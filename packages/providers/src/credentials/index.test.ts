import { describe, expect, it } from "vitest"
import { Browser, ORIGIN, SECRET, location } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import Credentials from "./index.js"

function passwordProvider() {
  return Credentials({
    name: "Password",
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: ({ username, password }) => (username === fixture.form.username && password === fixture.form.password ? fixture.user : null),
  })
}

describe("Credentials()", () => {
  it("defaults its id and name, and keeps the fields and authorize", () => {
    const authorize = () => null
    const provider = Credentials({ authorize })
    expect(provider).toMatchObject({ id: "credentials", name: "Credentials", type: "credentials", credentials: {} })
    expect(provider.authorize).toBe(authorize)
    expect(Credentials({ id: "pin", name: "PIN", authorize, credentials: { pin: { type: "password" } } })).toMatchObject({ id: "pin", name: "PIN" })
  })

  it("names `authorize` at start when it is left out, as Auth.js's type allows", () => {
    expect(() => Credentials({ credentials: { username: { label: "Username" } } })).toThrow(/set `authorize`/)
  })

  it("takes Auth.js's `type` and input attributes in its fields", () => {
    const provider = Credentials({ type: "credentials", credentials: { otp: { label: "Code", required: true, pattern: "\\d{6}", autoComplete: "one-time-code" } }, authorize: () => null })
    expect(provider.credentials.otp).toEqual({ label: "Code", required: true, pattern: "\\d{6}", autoComplete: "one-time-code" })
  })

  it("signs in through Auth() with the fixture's credentials, and refuses others", async () => {
    const config = { secret: SECRET, trustHost: true, providers: [passwordProvider()], logger: { error: () => undefined } }
    const refused = new Browser(config)
    const target = location(await refused.post("/api/auth/callback/credentials", { username: fixture.form.username, password: "wrong" }))
    expect(`${target.pathname}${target.search}`).toBe("/api/auth/signin?error=CredentialsSignin&code=credentials")
    expect(await refused.session()).toBeNull()

    const browser = new Browser(config)
    const response = await browser.post("/api/auth/callback/credentials", { ...fixture.form, callbackUrl: "/home" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(await browser.session()).toMatchObject({ user: { id: fixture.user.id, name: fixture.user.name, email: fixture.user.email } })
  })

  it("renders its fields on the built-in sign-in page", async () => {
    const page = await (await new Browser({ secret: SECRET, trustHost: true, providers: [passwordProvider()] }).request("/api/auth/signin")).text()
    expect(page).toContain(`action="${ORIGIN}/api/auth/callback/credentials"`)
    expect(page).toContain('name="username" type="text"')
    expect(page).toContain('name="password" type="password"')
    expect(page).toContain("Sign in with Password")
  })
})
