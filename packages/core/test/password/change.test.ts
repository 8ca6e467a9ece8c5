/**
 * `POST {basePath}/password/change`: a signed-in user, a recent authentication, the current
 * password and a new one; every other session ends, this one goes on, and the address is told.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Jar, call, location } from "../helpers.js"
import { GOOD_PASSWORD, mailTo, passwordApp, post, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

const NEW_PASSWORD = "a brand new phrase for the harbour"

afterEach(() => {
  vi.useRealTimers()
})

describe("password change", () => {
  it("changes the password with the current one after a recent sign-in, ends every other session and keeps this one (ASVS 6.2.3, 7.4.3, 6.3.7)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    const other = new Jar()
    const here = new Jar()
    await signIn(app, other, "ada@example.com", GOOD_PASSWORD)
    await signIn(app, here, "ada@example.com", GOOD_PASSWORD)

    const wrong = await post(app, here, "/api/auth/password/change", { currentPassword: "not the current password", newPassword: NEW_PASSWORD })
    expect(location(wrong).searchParams.get("error")).toBe("invalidCredentials")
    const weak = await post(app, here, "/api/auth/password/change", { currentPassword: GOOD_PASSWORD, newPassword: "short" })
    expect(location(weak).searchParams.get("error")).toBe("tooShort")

    const changed = await post(app, here, "/api/auth/password/change", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })
    expect(changed.status).toBe(303)
    expect(location(changed).searchParams.get("done")).toBe("1")
    expect(await (await call(app, here, "/api/auth/session")).json()).not.toBeNull()
    expect(await (await call(app, other, "/api/auth/session")).json()).toBeNull()
    expect((await signIn(app, new Jar(), "ada@example.com", NEW_PASSWORD)).status).toBe(302)
    await mailTo(app, "ada@example.com", "notice")
  })

  it("asks a session whose sign-in is not recent to prove it is still them, and one without a session to sign in (ASVS 6.2.3)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    const nobody = await post(app, new Jar(), "/api/auth/password/change", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD }, { accept: "application/json" })
    expect(nobody.status).toBe(401)
    const jar = new Jar()
    vi.useFakeTimers({ toFake: ["Date"] })
    await signIn(app, jar, "ada@example.com", GOOD_PASSWORD)
    vi.setSystemTime(Date.now() + 11 * 60 * 1000)
    const stale = await post(app, jar, "/api/auth/password/change", { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD }, { accept: "application/json" })
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ error: "ReauthRequired" })
    expect((await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).status).toBe(302)
  })
})
