/**
 * `sendMail`, core's one way out for mails that are not sign-in links: the app's `mail.send`,
 * else the email provider's transport (a fake one here, at the boundary), else one warning
 * naming `mail.send`; a failure is logged without the mail's link or code and never thrown.
 */
import { afterEach, describe, expect, it, vi } from "vitest"

import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { Configuration } from "../../src/errors/errors.js"
import { createContext } from "../../src/http/context.js"
import { sendMail } from "../../src/outbound/mail.js"
import type { EmailConfig, EmailMessage } from "../../src/providers/types.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { ORIGIN, testConfig } from "../helpers.js"
import { emailProvider } from "../../src/email/index.js"

const CODE = "731904"
const LINK = `${ORIGIN}/api/auth/verify-email?token=Zt3cR1-secret-token`
const MESSAGE: MailMessage = {
  to: "ada@example.com",
  kind: "mfaCode",
  subject: "Your sign-in code",
  text: `Your code is ${CODE}. ${LINK}`,
  html: `<p>Your code is <b>${CODE}</b>.</p>`,
  url: LINK,
  code: CODE,
}

interface Logged {
  errors: string[]
  warnings: string[]
}

async function send(config: Partial<AuthConfig>, message: MailMessage = MESSAGE): Promise<{ outcome: Awaited<ReturnType<typeof sendMail>>; logged: Logged }> {
  const logged: Logged = { errors: [], warnings: [] }
  const full = testConfig({
    adapter: MemoryAdapter(),
    logger: {
      error: (error) => logged.errors.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""} ${error.stack ?? ""}`),
      warn: (code, text) => logged.warnings.push(`${code}: ${text ?? ""}`),
    },
    ...config,
  })
  const url = new URL(`${ORIGIN}/api/auth/mfa`)
  const context = createContext(await resolveConfig(full), new Request(url), url)
  return { outcome: await sendMail(context, message), logged }
}

/** An email provider whose transport is a fake that records what it is handed. */
function providerWithTransport(sent: { message: EmailMessage; from: string | undefined }[], id = "mailer"): EmailConfig {
  return emailProvider(
    { id, name: "Mailer" },
    {
      from: "Acme <no-reply@acme.example>",
      sendVerificationRequest: () => undefined,
      sendMail: (message: EmailMessage, provider: EmailConfig) => {
        sent.push({ message, from: provider.from })
      },
    },
  )
}

afterEach(() => {
  vi.useRealTimers()
})

describe("sendMail", () => {
  it("hands `mail.send` the whole message, a copy it cannot change for us", async () => {
    const received: MailMessage[] = []
    const { outcome } = await send({
      mail: {
        send: (message) => {
          received.push({ ...message })
          message.to = "mallory@example.com"
        },
      },
    })
    expect(outcome).toEqual({ sent: true })
    expect(received).toEqual([MESSAGE])
    expect(MESSAGE.to).toBe("ada@example.com")
  })

  it("without `mail.send`, goes through the email provider's transport, which gets its own configuration (`from`)", async () => {
    const sent: { message: EmailMessage; from: string | undefined }[] = []
    const { outcome, logged } = await send({ providers: [providerWithTransport(sent)] })
    expect(outcome).toEqual({ sent: true })
    expect(sent).toEqual([{ message: { to: MESSAGE.to, subject: MESSAGE.subject, text: MESSAGE.text, html: MESSAGE.html }, from: "Acme <no-reply@acme.example>" }])
    expect(logged.warnings).toEqual([])
  })

  it("`mail.send` wins over the provider's transport", async () => {
    const sent: { message: EmailMessage; from: string | undefined }[] = []
    const hook = vi.fn()
    await send({ providers: [providerWithTransport(sent)], mail: { send: hook } })
    expect(hook).toHaveBeenCalledOnce()
    expect(sent).toEqual([])
  })

  it("with only a custom `sendVerificationRequest`: not sent, and one warning naming `mail.send` and the provider, however often it is asked", async () => {
    const linkOnly = { id: "links-only", type: "email", name: "Email", sendVerificationRequest: () => undefined } as const
    const first = await send({ providers: [linkOnly] })
    const second = await send({ providers: [linkOnly] })
    expect(first.outcome).toEqual({ sent: false, reason: "noTransport" })
    expect(second.outcome).toEqual({ sent: false, reason: "noTransport" })
    expect(first.logged.warnings).toHaveLength(1)
    expect(first.logged.warnings[0]).toMatch(/provider "links-only" has only its own `sendVerificationRequest`.*Set `mail.send`/)
    expect(second.logged.warnings).toEqual([])
  })

  it("with no email provider at all: not sent, with a warning naming `mail.send`", async () => {
    const { outcome, logged } = await send({}, { ...MESSAGE, kind: "notice", to: "grace@example.com" })
    expect(outcome).toEqual({ sent: false, reason: "noTransport" })
    expect(logged.warnings.join("\n")).toMatch(/set `mail.send`/)
  })

  it("a failing hook is logged with the link and code redacted (ASVS 16.2.5), and never thrown", async () => {
    const { outcome, logged } = await send({
      mail: {
        send: (message) => {
          throw new Error(`SMTP 550 for ${message.to}: ${message.text}`)
        },
      },
    })
    expect(outcome).toEqual({ sent: false, reason: "failed" })
    const text = logged.errors.join("\n")
    expect(text).toMatch(/Sending a "mfaCode" mail failed/)
    expect(text).toContain("SMTP 550")
    expect(text).not.toContain(CODE)
    expect(text).not.toContain("Zt3cR1-secret-token")
  })

  it("a failing provider transport is logged and not thrown", async () => {
    const failing = emailProvider({ id: "mailer", name: "Mailer" }, { sendVerificationRequest: () => undefined, sendMail: () => Promise.reject(new Error(`refused ${CODE}`)) })
    const { outcome, logged } = await send({ providers: [failing] })
    expect(outcome).toEqual({ sent: false, reason: "failed" })
    expect(logged.errors.join("\n")).not.toContain(CODE)
  })

  it("a hook that never answers is given up after 10 s", async () => {
    vi.useFakeTimers()
    const pending = send({ mail: { send: () => new Promise(() => undefined) } })
    await vi.advanceTimersByTimeAsync(10_000)
    const { outcome, logged } = await pending
    expect(outcome).toEqual({ sent: false, reason: "failed" })
    expect(logged.errors.join("\n")).toMatch(/not accepted within 10000 ms/)
  })
})

describe("the `mail` option", () => {
  it("is refused at start when it is not an object, or `send` not a function, naming it", async () => {
    await expect(resolveConfig(testConfig({ mail: "smtp://mail" as never }))).rejects.toThrow(Configuration)
    await expect(resolveConfig(testConfig({ mail: "smtp://mail" as never }))).rejects.toThrow(/`mail` must be an object/)
    await expect(resolveConfig(testConfig({ mail: { send: "yes" as never } }))).rejects.toThrow(/`mail.send` must be a function/)
  })

  it("refuses an email provider whose `sendMail` is not a function, naming it", async () => {
    const provider = { id: "mailer", type: "email", name: "Mailer", sendVerificationRequest: () => undefined, sendMail: "smtp" } as never
    await expect(resolveConfig(testConfig({ adapter: MemoryAdapter(), providers: [provider] }))).rejects.toThrow(/providers\["mailer"\]\.sendMail` must be a function/)
  })
})
