import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { MailMessage } from "@portcullis/core"
import { Browser, SECRET } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import Password from "./index.js"

describe("Password()", () => {
  it("defaults its id, name and type, and keeps the caller's options", () => {
    expect(Password()).toMatchObject({ id: "password", name: "Password", type: "credentials" })
    expect(Password({ id: "pw", name: "Email and password", requireEmailVerification: false, minPasswordLength: 20 })).toMatchObject({
      id: "pw",
      name: "Email and password",
      type: "credentials",
      requireEmailVerification: false,
      minPasswordLength: 20,
    })
  })

  it("signs up through Auth(), mails the confirmation link, and draws its fields on the sign-in page", async () => {
    const mails: MailMessage[] = []
    const browser = new Browser({ secret: SECRET, trustHost: true, adapter: MemoryAdapter(), providers: [Password()], mail: { send: (mail) => void mails.push(mail) } })
    const response = await browser.post("/api/auth/password/signup", fixture.user)
    expect(response.status).toBe(303)
    await expect.poll(() => mails.map((mail) => [mail.to, mail.kind])).toEqual([[fixture.user.email, "passwordVerify"]])
    const page = await (await browser.request("/api/auth/signin")).text()
    for (const field of fixture.fields) expect(page).toContain(`name="${field}"`)
  })
})
