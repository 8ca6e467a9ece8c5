/**
 * Email sign-in: links are sent through SMTP (`@portcullis/providers/nodemailer`) when
 * `AUTH_EMAIL_SERVER` and `AUTH_EMAIL_FROM` are set; in development without them, each link is
 * handed to a sink (by default printed to the terminal) by `@portcullis/providers/email`.
 */
import type { MailMessage, Provider } from "@portcullis/core"
import { Configuration } from "@portcullis/core/errors"
import Email from "@portcullis/providers/email"
import Nodemailer from "@portcullis/providers/nodemailer"

import { isProduction, readVariable, SettingsError, type Env } from "./settings.js"

/** A sign-in link that was not emailed. */
export interface SignInLink {
  /** The address it was asked for, as core normalised it. */
  email: string
  url: string
  expires: Date
}

/** Where sign-in links go when no SMTP server is set. */
export type SignInLinkSink = (link: SignInLink) => void | Promise<void>

/** How sign-in links reach people: mail through SMTP, the sink (the terminal), or not at all. */
export type EmailDelivery = "smtp" | "terminal" | "off"

/** The email provider, if any, how it delivers, and what looks like a half-done set-up. */
export interface EmailSelection {
  provider: Provider | undefined
  delivery: EmailDelivery
  warnings: string[]
  /** The address a sign-in link was sent to while `Auth()` answered this request, if one was. */
  linkSentTo: (request: Request) => string | undefined
}

/**
 * Remembers, per request, the address core handed a link to: `Auth()` passes the request it
 * was called with to `sendVerificationRequest`, so the app can name the address on the next page.
 */
function addressRecorder(): { record: (request: Request, address: string) => void; linkSentTo: (request: Request) => string | undefined } {
  const sent = new WeakMap<Request, string>()
  return { record: (request, address) => void sent.set(request, address), linkSentTo: (request) => sent.get(request) }
}

/** The sign-in link as `pnpm dev` prints it: set apart, with the URL alone on its line so terminals make it clickable. */
export function formatSignInLink(link: SignInLink): string {
  const rule = "─".repeat(72)
  // A passkey sign-up link carries the registration it confirms, and opens only where it was made.
  const signUp = new URL(link.url).searchParams.has("pending")
  const title = signUp ? "Passkey sign-up link" : "Sign-in link"
  const use = signUp ? "Open it in the browser where you created the passkey to create your account, or to add the passkey to the account the address has" : "Open it in a browser to sign in"
  return `
  ${rule}
  ${title} for ${link.email}
  (printed here because AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM are not set)

  ${link.url}

  ${use}. It works once, until ${link.expires.toISOString()}.
  ${rule}
`
}

/** The default sink: prints the link to the terminal. */
export function printSignInLink(link: SignInLink): void {
  console.log(formatSignInLink(link))
}

/** Where core's other mails (notices, the link that confirms a new address) go when no SMTP server is set. */
export type MailSink = (message: MailMessage) => void | Promise<void>

/** One of core's other mails as `pnpm dev` prints it: who it is for, why, and its plain text (a link alone on its line). */
export function formatMail(message: MailMessage): string {
  const rule = "─".repeat(72)
  return `
  ${rule}
  Mail to ${message.to} (${message.kind}): ${message.subject}
  (printed here because AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM are not set)

  ${message.text.replaceAll("\n", "\n  ")}
  ${rule}
`
}

/** The default mail sink: prints the mail to the terminal. */
export function printMail(message: MailMessage): void {
  console.log(formatMail(message))
}

/**
 * The SMTP provider. `Nodemailer()` checks `server` itself (`from` is never empty here, so a
 * `Configuration` error is about `server`); its refusal is restated as a setting to fix, without
 * the value, which usually holds the SMTP password.
 */
function smtpProvider(server: string, from: string, record: (request: Request, address: string) => void): Provider {
  try {
    const provider = Nodemailer({ server, from })
    const send = provider.sendVerificationRequest
    return {
      ...provider,
      sendVerificationRequest: async (params) => {
        await send(params)
        record(params.request, params.identifier)
      },
    }
  } catch (error) {
    if (!(error instanceof Configuration)) throw error
    throw new SettingsError("AUTH_EMAIL_SERVER must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465.", { cause: error })
  }
}

/**
 * Picks how sign-in links are delivered: SMTP when `AUTH_EMAIL_SERVER` and `AUTH_EMAIL_FROM`
 * are both set, otherwise `sink` in development, and no email sign-in in production (a link in
 * a server log would let whoever reads the log sign in).
 *
 * @throws {SettingsError} when `AUTH_EMAIL_SERVER` is set but is not an smtp:// or smtps:// URL.
 */
export function selectEmailProvider(env: Env, sink: SignInLinkSink): EmailSelection {
  const server = readVariable(env, "AUTH_EMAIL_SERVER")
  const from = readVariable(env, "AUTH_EMAIL_FROM")
  const { record, linkSentTo } = addressRecorder()
  if (server !== undefined && from !== undefined) {
    return { provider: smtpProvider(server, from, record), delivery: "smtp", warnings: [], linkSentTo }
  }
  const warnings: string[] = []
  if (server !== undefined || from !== undefined) {
    const [set, missing] = server === undefined ? ["AUTH_EMAIL_FROM", "AUTH_EMAIL_SERVER"] : ["AUTH_EMAIL_SERVER", "AUTH_EMAIL_FROM"]
    warnings.push(`${set} is set but ${missing} is not: sign-in links are not emailed until both are set.`)
  }
  if (isProduction(env)) {
    warnings.push("Email sign-in is off: with NODE_ENV=production sign-in links are never printed. Set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM to email them.")
    return { provider: undefined, delivery: "off", warnings, linkSentTo }
  }
  const provider = Email({
    sendVerificationRequest: async ({ identifier, url, expires, request }) => {
      await sink({ email: identifier, url, expires })
      record(request, identifier)
    },
  })
  return { provider, delivery: "terminal", warnings, linkSentTo }
}
