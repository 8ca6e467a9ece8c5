/**
 * `{basePath}/password/reset-request` and `/password/reset`: a single-use link valid 15 minutes,
 * a new password held to the rules, no sign-in, every session ended, the old password dead, and
 * the way a user who signs in only through a provider sets a first password.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { parseForms } from "@portcullis/test-kit/browser"
import { Jar, call, location } from "../helpers.js"
import { GOOD_PASSWORD, mailTo, passwordApp, post, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

const NEW_PASSWORD = "a brand new phrase for the harbour"

/** Opens the mailed reset link and posts the new password on its form. */
async function resetWith(app: ReturnType<typeof passwordApp>, link: string, password: string, jar = new Jar()): Promise<Response> {
  const page = await call(app, jar, link)
  expect(page.status).toBe(200)
  const [form] = parseForms(await page.text())
  const token = form?.controls.find((control) => control.name === "token")?.values[0] ?? ""
  return post(app, jar, "/api/auth/password/reset", { token, password })
}

afterEach(() => {
  vi.useRealTimers()
})

describe("password reset", () => {
  it("sets a new password through a single-use link, signs nobody in, ends every session and retires the old password (ASVS 6.4.1, 6.4.3, 7.4.3)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    const signedIn = new Jar()
    expect((await signIn(app, signedIn, "ada@example.com", GOOD_PASSWORD)).status).toBe(302)

    await post(app, new Jar(), "/api/auth/password/reset-request", { email: "ADA@example.com" })
    const mail = await mailTo(app, "ada@example.com", "passwordReset")
    const link = mail.url ?? ""
    expect(link).toMatch(/^http:\/\/localhost:3000\/api\/auth\/password\/reset\?token=/)

    // A password the rules refuse leaves the link usable.
    expect(location(await resetWith(app, link, "short")).searchParams.get("error")).toBe("tooShort")
    const jar = new Jar()
    const done = await resetWith(app, link, NEW_PASSWORD, jar)
    expect(done.status).toBe(303)
    expect(location(done).searchParams.get("done")).toBe("1")
    expect(jar.cookies.has("authjs.session-token")).toBe(false)
    expect(await (await call(app, signedIn, "/api/auth/session")).json()).toBeNull()
    expect(location(await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).searchParams.get("error")).toBe("CredentialsSignin")
    expect((await signIn(app, new Jar(), "ada@example.com", NEW_PASSWORD)).status).toBe(302)
    expect(location(await resetWith(app, link, "yet another phrase for the harbour")).searchParams.get("error")).toBe("invalidToken")
    await mailTo(app, "ada@example.com", "notice")
  })

  it("refuses a reset link 15 minutes after it was mailed (NIST SP 800-63B rev 4 §4.2)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    vi.useFakeTimers({ toFake: ["Date"] })
    await post(app, new Jar(), "/api/auth/password/reset-request", { email: "ada@example.com" })
    const link = (await mailTo(app, "ada@example.com", "passwordReset")).url ?? ""
    vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000)
    expect(location(await resetWith(app, link, NEW_PASSWORD)).searchParams.get("error")).toBe("invalidToken")
    expect((await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).status).toBe(302)
  })

  it("lets a user who signs in only through a provider set a first password", async () => {
    const app = passwordApp()
    const user = await app.adapter.createUser({ id: "u-oauth", email: "oauth@example.com", emailVerified: new Date() })
    await app.adapter.linkAccount({ userId: user.id, provider: "github", providerAccountId: "42", type: "oauth" })
    await post(app, new Jar(), "/api/auth/password/reset-request", { email: "oauth@example.com" })
    const link = (await mailTo(app, "oauth@example.com", "passwordReset")).url ?? ""
    expect((await resetWith(app, link, NEW_PASSWORD)).status).toBe(303)
    expect((await signIn(app, new Jar(), "oauth@example.com", NEW_PASSWORD)).status).toBe(302)
  })
})
