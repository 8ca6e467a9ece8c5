import { describe, expect, it } from "vitest"

import { createDemoUserCheck, DEMO_USER, DEMO_USERNAME, demoUserProvider } from "../src/demo-user.js"

const PASSWORD = "a-demo-password-for-tests"

describe("createDemoUserCheck", () => {
  const check = createDemoUserCheck(PASSWORD)

  it("answers the demo user for the right username and password", () => {
    expect(check(DEMO_USERNAME, PASSWORD)).toEqual(DEMO_USER)
  })

  it("accepts the username with surrounding spaces and in any case", () => {
    expect(check(" Demo ", PASSWORD)?.id).toBe(DEMO_USER.id)
  })

  it("refuses a wrong password", () => {
    expect(check(DEMO_USERNAME, "wrong-password")).toBeNull()
  })

  it("refuses the password with a character more or less (no prefix match)", () => {
    expect(check(DEMO_USERNAME, `${PASSWORD}x`)).toBeNull()
    expect(check(DEMO_USERNAME, PASSWORD.slice(0, -1))).toBeNull()
    expect(check(DEMO_USERNAME, "")).toBeNull()
  })

  it("refuses the password in another case or with spaces: only the username is normalised", () => {
    expect(check(DEMO_USERNAME, PASSWORD.toUpperCase())).toBeNull()
    expect(check(DEMO_USERNAME, ` ${PASSWORD}`)).toBeNull()
  })

  it("refuses the right password for another username", () => {
    expect(check("alice", PASSWORD)).toBeNull()
    expect(check("", PASSWORD)).toBeNull()
  })

  it("refuses values that are not strings (a missing field)", () => {
    expect(check(undefined, PASSWORD)).toBeNull()
    expect(check(DEMO_USERNAME, undefined)).toBeNull()
    expect(check(DEMO_USERNAME, [PASSWORD])).toBeNull()
  })

  it("hands out a copy: changing it does not change the next answer", () => {
    const user = check(DEMO_USERNAME, PASSWORD)
    if (user !== null) user.name = "Mallory"
    expect(check(DEMO_USERNAME, PASSWORD)?.name).toBe("Demo User")
  })
})

describe("demoUserProvider", () => {
  it("declares a username field and a password field, and asks the check", async () => {
    const provider = demoUserProvider(createDemoUserCheck(PASSWORD))
    expect(provider).toMatchObject({ id: "credentials", name: "Demo user", type: "credentials" })
    expect(provider.credentials).toEqual({ username: { label: "Username", placeholder: "demo" }, password: { label: "Password", type: "password" } })
    const request = new Request("http://localhost:3000/api/auth/callback/credentials", { method: "POST" })
    expect(await provider.authorize({ username: DEMO_USERNAME, password: PASSWORD }, request)).toEqual(DEMO_USER)
    expect(await provider.authorize({ username: DEMO_USERNAME }, request)).toBeNull()
  })
})
