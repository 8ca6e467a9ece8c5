import { readFileSync } from "node:fs"

import type { EmailConfig } from "@portcullis/core/providers"
import type { NodemailerConfig } from "@portcullis/providers/nodemailer"
import { describe, expect, it } from "vitest"

import { formatSignInLink, selectEmailProvider, type SignInLink } from "../src/email.js"
import { SettingsError } from "../src/settings.js"

const SMTP = "smtps://mailer:smtp-password@smtp.example.com:465"
const FROM = "Auth example <no-reply@example.com>"

function collect(): { links: SignInLink[]; sink: (link: SignInLink) => void } {
  const links: SignInLink[] = []
  return { links, sink: (link) => void links.push(link) }
}

describe("selectEmailProvider", () => {
  it("hands the links to the sink when no SMTP server is set", async () => {
    const { links, sink } = collect()
    const selection = selectEmailProvider({}, sink)
    expect(selection.delivery).toBe("terminal")
    expect(selection.warnings).toEqual([])
    const provider = selection.provider as EmailConfig
    expect(provider).toMatchObject({ id: "email", type: "email" })
    const expires = new Date("2030-01-01T00:00:00.000Z")
    const url = "http://localhost:3000/api/auth/callback/email?token=t&email=ada%40example.com"
    await provider.sendVerificationRequest({
      identifier: "ada@example.com",
      url,
      expires,
      provider,
      token: "t",
      request: new Request("http://localhost:3000/api/auth/signin/email", { method: "POST" }),
      theme: {},
    })
    expect(links).toEqual([{ email: "ada@example.com", url, expires }])
  })

  it("emails the links through SMTP when AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM are set", () => {
    const { links, sink } = collect()
    const selection = selectEmailProvider({ AUTH_EMAIL_SERVER: SMTP, AUTH_EMAIL_FROM: FROM }, sink)
    expect(selection.delivery).toBe("smtp")
    expect(selection.provider as NodemailerConfig).toMatchObject({ id: "nodemailer", type: "email", server: SMTP, from: FROM })
    expect(links).toEqual([])
  })

  it("refuses an AUTH_EMAIL_SERVER that is not an SMTP URL, naming the variable but not its value", () => {
    for (const server of ["https://smtp.example.com", "smtp.example.com:587"]) {
      const attempt = () => selectEmailProvider({ AUTH_EMAIL_SERVER: server, AUTH_EMAIL_FROM: FROM }, () => undefined)
      expect(attempt).toThrow(SettingsError)
      expect(attempt).toThrow(/^AUTH_EMAIL_SERVER must be an smtp:\/\/ or smtps:\/\/ URL/)
      expect(attempt).not.toThrow(server)
    }
  })

  it("prints the links and warns when only one of the two variables is set", () => {
    const selection = selectEmailProvider({ AUTH_EMAIL_SERVER: SMTP }, () => undefined)
    expect(selection.delivery).toBe("terminal")
    expect(selection.warnings).toEqual(["AUTH_EMAIL_SERVER is set but AUTH_EMAIL_FROM is not: sign-in links are not emailed until both are set."])
    expect(selectEmailProvider({ AUTH_EMAIL_FROM: FROM }, () => undefined).warnings[0]).toMatch(/^AUTH_EMAIL_FROM is set but AUTH_EMAIL_SERVER is not/)
  })

  it("never prints links in production: without SMTP, email sign-in is off, with a warning", () => {
    const selection = selectEmailProvider({ NODE_ENV: "production" }, () => undefined)
    expect(selection.provider).toBeUndefined()
    expect(selection.delivery).toBe("off")
    expect(selection.warnings).toEqual([expect.stringMatching(/^Email sign-in is off: with NODE_ENV=production/)])
    expect(selectEmailProvider({ NODE_ENV: "production", AUTH_EMAIL_SERVER: SMTP, AUTH_EMAIL_FROM: FROM }, () => undefined).delivery).toBe("smtp")
  })
})

describe("formatSignInLink", () => {
  it("sets the link apart on its own line, with the address and when it expires", () => {
    const url = "http://localhost:3000/api/auth/callback/email?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2F&token=abc&email=ada%40example.com"
    const text = formatSignInLink({ email: "ada@example.com", url, expires: new Date("2030-01-01T12:00:00.000Z") })
    expect(text.split("\n").map((line) => line.trim())).toContain(url)
    expect(text).toContain("Sign-in link for ada@example.com")
    expect(text).toContain("AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM are not set")
    expect(text).toContain("It works once, until 2030-01-01T12:00:00.000Z.")
  })

  it("says a passkey sign-up link creates the account, in the browser that made the passkey", () => {
    const url = "http://localhost:3000/api/auth/callback/passkey?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2F&token=abc&email=ada%40example.com&pending=sealed"
    const text = formatSignInLink({ email: "ada@example.com", url, expires: new Date("2030-01-01T12:00:00.000Z") })
    expect(text).toContain("Passkey sign-up link for ada@example.com")
    expect(text).toContain("Open it in the browser where you created the passkey to create your account, or to add the passkey to the account the address has.")
    expect(text).not.toContain("Sign-in link")
  })
})

describe(".env.example", () => {
  const text = readFileSync(new URL("../.env.example", import.meta.url), "utf8")

  it.each(["AUTH_EMAIL_SERVER", "AUTH_EMAIL_FROM", "DEMO_USER_PASSWORD"])("documents %s, without a value", (name) => {
    expect(text).toMatch(new RegExp(`^${name}=$`, "m"))
  })
})
