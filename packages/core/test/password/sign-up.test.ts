/**
 * `POST {basePath}/password/signup` and the mailed link that confirms the address: the account
 * signs in only once confirmed; a taken address answers as a new one and gains no password; an
 * unconfirmed password account never becomes a way into the address owner's account.
 */
import { describe, expect, it, vi } from "vitest"
import { Jar, call, followEmailLink, location, setCookies } from "../helpers.js"
import { GOOD_PASSWORD, mailTo, passwordApp, post, signIn, signUpVerified } from "./harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))

describe("password sign-up", () => {
  it("mails a link to confirm the address (passwordVerify), and the account signs in only once it is followed (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
    const app = passwordApp()
    const jar = new Jar()
    const response = await post(app, jar, "/api/auth/password/signup", { email: "Grace@Example.com", password: GOOD_PASSWORD, name: "Grace Hopper" })
    expect(response.status).toBe(303)
    expect(location(response).pathname).toBe("/api/auth/password/signup")
    expect(location(response).searchParams.get("sent")).toBe("1")
    const user = await app.adapter.getUserByEmail("grace@example.com")
    expect(user).toMatchObject({ email: "grace@example.com", name: "Grace Hopper", emailVerified: null })
    const mail = await mailTo(app, "grace@example.com", "passwordVerify")
    expect(mail.url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/password\/verify\?token=/)
    expect(mail.text).toContain(mail.url)

    const early = await signIn(app, new Jar(), "grace@example.com", GOOD_PASSWORD)
    expect(location(early).searchParams.get("error")).toBe("CredentialsSignin")
    expect(location(early).searchParams.get("code")).toBe("unverified")

    const done = await followEmailLink(app, jar, mail.url ?? "")
    expect(location(done).searchParams.get("done")).toBe("1")
    expect((await app.adapter.getUser(user?.id ?? ""))?.emailVerified).toBeInstanceOf(Date)
    // Single use: the link's page still opens, its button confirms nothing more.
    const again = await followEmailLink(app, new Jar(), mail.url ?? "")
    expect(location(again).searchParams.get("error")).toBe("invalidToken")

    const session = new Jar()
    const signedIn = await signIn(app, session, "grace@example.com", GOOD_PASSWORD)
    expect(signedIn.status).toBe(302)
    expect(location(signedIn).href).toBe("http://localhost:3000/")
    const read = (await (await call(app, session, "/api/auth/session")).json()) as { user: { email: string }; assurance: { methods: string[] } }
    expect(read.user.email).toBe("grace@example.com")
    expect(read.assurance.methods).toEqual(["pwd"])
  })

  it("answers a sign-up for a taken address exactly as for a new one, attaches no password, and mails the owner a notice (ASVS 6.3.8)", async () => {
    const app = passwordApp()
    await signUpVerified(app, "ada@example.com")
    const fresh = await post(app, new Jar(), "/api/auth/password/signup", { email: "new@example.com", password: "an entirely different phrase" })
    const taken = await post(app, new Jar(), "/api/auth/password/signup", { email: "ada@example.com", password: "an entirely different phrase" })
    expect(taken.status).toBe(fresh.status)
    expect(location(taken).href).toBe(location(fresh).href)
    expect(await taken.text()).toBe(await fresh.text())
    expect([...setCookies(taken).keys()]).toEqual([...setCookies(fresh).keys()])
    await mailTo(app, "ada@example.com", "notice")
    // The old password still signs in, the one sent with the taken sign-up does not.
    expect((await signIn(app, new Jar(), "ada@example.com", "an entirely different phrase")).headers.get("location")).toContain("error=CredentialsSignin")
    expect((await signIn(app, new Jar(), "ada@example.com", GOOD_PASSWORD)).status).toBe(302)
  })

  it("refuses a password the rules refuse, for any address alike, the address itself included (ASVS 6.2.1, 6.2.4)", async () => {
    const app = passwordApp()
    const response = await post(app, new Jar(), "/api/auth/password/signup", { email: "short@example.com", password: "too short" })
    expect(location(response).searchParams.get("error")).toBe("tooShort")
    expect(await app.adapter.getUserByEmail("short@example.com")).toBeNull()
    // The account's own address is as guessable as a common password (NIST SP 800-63B rev 4 §3.1.1.2).
    const own = await post(app, new Jar(), "/api/auth/password/signup", { email: "grace.hopper.navy@example.com", password: "Grace.Hopper.Navy@example.com" })
    expect(location(own).searchParams.get("error")).toBe("common")
  })

  it("with requireEmailVerification: false, signs the new account in at once and tells a taken address", async () => {
    const app = passwordApp({ requireEmailVerification: false })
    const jar = new Jar()
    const response = await post(app, jar, "/api/auth/password/signup", { email: "lin@example.com", password: GOOD_PASSWORD })
    expect(response.status).toBe(302)
    expect(((await (await call(app, jar, "/api/auth/session")).json()) as { user: { email: string } }).user.email).toBe("lin@example.com")
    const taken = await post(app, new Jar(), "/api/auth/password/signup", { email: "lin@example.com", password: GOOD_PASSWORD })
    expect(location(taken).searchParams.get("error")).toBe("emailTaken")
  })
})
