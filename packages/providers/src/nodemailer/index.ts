/**
 * Nodemailer: email sign-in links sent over SMTP with nodemailer. `server` is an SMTP URL
 * (`smtps://user:pass@smtp.example.com:465`) or nodemailer's SMTP transport options; `from` is
 * the sender. Needs an adapter that stores verification tokens, and the `nodemailer` package
 * (`npm install nodemailer`: an optional peer dependency, loaded on the first email).
 *
 * @see https://nodemailer.com/smtp/
 * @module nodemailer
 */
import { Configuration, signInMessage } from "@portcullis/core/providers"
import { emailProvider } from "@portcullis/core/email"
import type { EmailConfig, EmailMessage, EmailUserConfig, SendVerificationRequestParams } from "@portcullis/core/providers"
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js"
import { importNodemailer } from "./load.js"

/** SMTP transport options, as nodemailer reads them (`host`, `port`, `secure`, `auth`, `tls`...). */
export interface NodemailerServerOptions {
  host?: string
  port?: number
  secure?: boolean
  auth?: { user: string; pass: string }
  [option: string]: unknown
}

/** An email provider that sends through an SMTP server. */
export interface NodemailerConfig extends EmailConfig {
  /** An `smtp://` or `smtps://` URL, or nodemailer's transport options (`NodemailerServerOptions` for SMTP). */
  server: string | object
  /** The sender, e.g. `"Acme <no-reply@acme.example>"`. */
  from: string
}

/**
 * What `Nodemailer()` takes: any email provider option. `server` and `from` are optional in the
 * type, as in Auth.js's, but genuinely needed: without either the factory names it at start.
 */
export type NodemailerOptions = EmailUserConfig & Partial<Pick<NodemailerConfig, "server" | "from">>

/**
 * Checks what a caller without types may have got wrong.
 *
 * @throws {Configuration} naming `server` or `from`.
 */
function checkOptions(server: unknown, from: unknown): void {
  const isUrl = typeof server === "string" && URL.canParse(server) && /^smtps?:$/.test(new URL(server).protocol)
  const isOptions = typeof server === "object" && server !== null && !Array.isArray(server)
  if (!isUrl && !isOptions) {
    throw new Configuration("Nodemailer: set `server` to an SMTP URL (smtps://user:pass@smtp.example.com:465) or SMTP transport options.")
  }
  if (typeof from !== "string" || from === "") {
    throw new Configuration('Nodemailer: set `from` to the sender, such as "Acme <no-reply@acme.example>".')
  }
}

/**
 * The default transport: one message through the provider's SMTP server, from its `from`.
 *
 * @throws {Configuration} when the `nodemailer` package is not installed.
 * @throws {Error} when the server refuses the recipient (nodemailer fails a message no recipient
 * of which was accepted) or cannot be reached.
 */
async function sendMail(message: EmailMessage, provider: EmailConfig): Promise<void> {
  const { server, from } = provider as NodemailerConfig
  const { createTransport } = await importNodemailer()
  const transport = createTransport(server as string | SMTPTransport.Options)
  try {
    await transport.sendMail({ ...message, from })
  } finally {
    transport.close()
  }
}

/** The default sender: the sign-in email through {@link sendMail}. */
async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await sendMail({ to: identifier, ...signInMessage({ url, theme }) }, provider)
}

/**
 * An email provider sending through SMTP.
 *
 * @throws {Configuration} when `server` is not an SMTP URL or options object, or `from` is missing.
 * @example
 * ```ts
 * Nodemailer({ server: process.env.AUTH_EMAIL_SERVER!, from: "Acme <no-reply@acme.example>" })
 * ```
 */
export default function Nodemailer(config: NodemailerOptions): NodemailerConfig {
  checkOptions(config.server, config.from)
  const { server, from } = config as NodemailerConfig
  return emailProvider({ id: "nodemailer", name: "Email" }, { ...config, server, from, sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? sendMail })
}
