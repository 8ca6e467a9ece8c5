import type { AddressInfo } from "node:net"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { VerificationToken } from "@portcullis/core/adapters"
import { Configuration } from "@portcullis/core/errors"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Browser, ORIGIN, SECRET, location } from "../../test/browser.js"
import fixture from "./fixture.json" with { type: "json" }
import Email from "../email/index.js"
import Nodemailer from "./index.js"

describe("Nodemailer()", () => {
  it("takes an SMTP URL or transport options, and defaults its id, name and maxAge", () => {
    expect(Nodemailer({ server: fixture.server, from: fixture.from })).toMatchObject({ id: "nodemailer", name: "Email", type: "email", maxAge: 86_400, server: fixture.server })
    expect(Nodemailer({ server: fixture.serverOptions, from: fixture.from }).server).toEqual(fixture.serverOptions)
  })

  it("names `server` when it is missing or not an SMTP URL", () => {
    for (const server of [undefined, "", "https://smtp.acme.example", "not a url", 25]) {
      expect(() => Nodemailer({ server: server as never, from: fixture.from }), String(server)).toThrow(Configuration)
      expect(() => Nodemailer({ server: server as never, from: fixture.from })).toThrow(/set `server`/)
    }
  })

  it("names `from` when it is missing", () => {
    expect(() => Nodemailer({ server: fixture.server, from: "" })).toThrow(/set `from`/)
  })
})

/** A message as the SMTP server received it. */
interface Received {
  from: string
  to: string[]
  raw: string
}

/** Decodes a quoted-printable body (RFC 2045 section 6.7): soft line breaks, then `=XX` bytes. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(bytes, "latin1").toString("utf8")
}

/** The decoded text/plain part of a raw MIME message. */
function plainText(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?Content-Transfer-Encoding: ([\w-]+)\r?\n\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)
  if (part === null) throw new Error(`no text/plain part in:\n${raw}`)
  const [, encoding = "", body = ""] = part
  if (encoding.toLowerCase() === "quoted-printable") return decodeQuotedPrintable(body)
  if (encoding.toLowerCase() === "base64") return Buffer.from(body, "base64").toString("utf8")
  return body
}

function header(raw: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, "im").exec(raw)?.[1]?.trim()
}

describe("Nodemailer() against a real SMTP server on 127.0.0.1", () => {
  const received: Received[] = []
  let refuseRecipients = false
  let server: SMTPServer
  let url: string

  beforeAll(async () => {
    server = new SMTPServer({
      // Plain SMTP with AUTH on loopback: no certificate to trust in a test.
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === "sign-in" && auth.password === "app-password") callback(null, { user: auth.username })
        else callback(new Error("Invalid username or password"))
      },
      onRcptTo(address, _session, callback) {
        if (refuseRecipients) callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }))
        else callback()
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.server.address() as AddressInfo
    url = `smtp://sign-in:app-password@127.0.0.1:${port}`
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(resolve)
    })
  })

  beforeEach(() => {
    received.length = 0
    refuseRecipients = false
  })

  function setup() {
    const errors: string[] = []
    const adapter = MemoryAdapter()
    const stored: VerificationToken[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      adapter: {
        ...adapter,
        createVerificationToken: (token: VerificationToken) => {
          stored.push(token)
          return adapter.createVerificationToken(token)
        },
      },
      providers: [Nodemailer({ server: url, from: fixture.from })],
      theme: { brandColor: "#0a7" },
      logger: { error: (error: Error) => errors.push(error.message) },
    }
    return { config, adapter, errors, stored }
  }

  it("mails a sign-in link that, followed, signs the user in", async () => {
    const { config, adapter } = setup()
    const response = await new Browser(config).post("/api/auth/signin/nodemailer", { email: fixture.identifier, callbackUrl: "/dashboard" })
    expect(location(response).pathname).toBe("/api/auth/verify-request")

    expect(received).toHaveLength(1)
    const mail = received[0] as Received
    expect(mail.to).toEqual([fixture.identifier])
    expect(mail.from).toBe("no-reply@acme.example")
    expect(header(mail.raw, "Subject")).toBe("Sign in to localhost:3000")
    const link = /http:\/\/\S+/.exec(plainText(mail.raw))?.[0] ?? ""
    expect(new URL(link).pathname).toBe("/api/auth/callback/nodemailer")
    expect(mail.raw).toContain("text/html")

    const browser = new Browser(config)
    const landed = await browser.followSignInLink(link)
    expect(landed.redirects.slice(1), "the confirmation redirects straight to the callbackUrl").toEqual([`${ORIGIN}/dashboard`])
    expect(await browser.session()).toMatchObject({ user: { email: fixture.identifier } })
    expect((await adapter.getUserByEmail(fixture.identifier))?.emailVerified).toBeInstanceOf(Date)
  })

  it("sends Auth.js's Email({ server, from }) over the same SMTP server, under the id email", async () => {
    const { config } = setup()
    const emailConfig = { ...config, providers: [Email({ server: url, from: fixture.from })] }
    const response = await new Browser(emailConfig).post("/api/auth/signin/email", { email: fixture.identifier, callbackUrl: "/" })
    expect(location(response).pathname).toBe("/api/auth/verify-request")
    expect(received.map((mail) => mail.to)).toEqual([[fixture.identifier]])
    const link = /http:\/\/\S+/.exec(plainText(received[0]?.raw ?? ""))?.[0] ?? ""
    expect(new URL(link).pathname).toBe("/api/auth/callback/email")
    const browser = new Browser(emailConfig)
    await browser.followSignInLink(link)
    expect(await browser.session()).toMatchObject({ user: { email: fixture.identifier } })
  })

  it("sends core's other mails over the same server from `from` (`sendMail`), Email({ server }) too", async () => {
    for (const provider of [Nodemailer({ server: url, from: fixture.from }), Email({ server: url, from: fixture.from })]) {
      received.length = 0
      await provider.sendMail?.({ to: fixture.identifier, subject: "Your sign-in code", text: "Your code is 731904.", html: "<p>Your code is <b>731904</b>.</p>" }, provider)
      expect(received.map((mail) => [mail.from, mail.to, header(mail.raw, "Subject")])).toEqual([["no-reply@acme.example", [fixture.identifier], "Your sign-in code"]])
      expect(plainText(received[0]?.raw ?? "")).toContain("Your code is 731904.")
    }
  })

  it("mails nothing for a list of addresses", async () => {
    const { config } = setup()
    const response = await new Browser(config).post("/api/auth/signin/nodemailer", { email: "a@b.c, d@e.f" })
    expect(location(response).searchParams.get("error")).toBe("EmailSignInError")
    expect(received).toEqual([])
  })

  it("reports EmailSignInError when the server refuses the recipient, and the token is gone", async () => {
    refuseRecipients = true
    const { config, adapter, errors, stored } = setup()
    const response = await new Browser(config).post("/api/auth/signin/nodemailer", { email: fixture.identifier })
    expect(location(response).searchParams.get("error")).toBe("EmailSignInError")
    expect(errors.join("\n")).toMatch(/sendVerificationRequest/)
    expect(received).toEqual([])
    expect(stored).toHaveLength(1)
    expect(adapter.useVerificationToken({ identifier: fixture.identifier, token: stored[0]?.token ?? "" })).toBeNull()
  })

  it("reports EmailSignInError when the SMTP credentials are wrong", async () => {
    const { config } = setup()
    const wrong = { ...config, providers: [Nodemailer({ server: url.replace("app-password", "guess"), from: fixture.from })] }
    const response = await new Browser(wrong).post("/api/auth/signin/nodemailer", { email: fixture.identifier })
    expect(location(response).searchParams.get("error")).toBe("EmailSignInError")
    expect(received).toEqual([])
  })
})
