/**
 * Email: passwordless sign-in by a single-use link, sent by your own `sendVerificationRequest`
 * (an email API, a queue), or without one over SMTP through `server`, as Auth.js's `Email()`
 * (then it is `@portcullis/providers/nodemailer` under the id `email`, and needs the `nodemailer`
 * package). Needs an adapter that stores verification tokens.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5321
 * @module email
 */
import { emailProvider } from "@portcullis/core/email"
import { Configuration, type EmailConfig, type EmailUserConfig } from "@portcullis/core/providers"
import Nodemailer from "../nodemailer/index.js"

/** What `Email()` takes: `sendVerificationRequest`, or `server` and `from` to send over SMTP, and any other email option. */
export type EmailOptions = EmailUserConfig

/**
 * An email provider with a custom sender, or SMTP.
 *
 * @throws {Configuration} when it has neither `sendVerificationRequest` nor `server`, or (over
 *   SMTP) `server` or `from` is unusable.
 * @example
 * ```ts
 * Email({
 *   from: "Sign-in <no-reply@example.com>",
 *   sendVerificationRequest: ({ identifier, url }) => mailApi.send({ to: identifier, subject: "Sign in", text: url }),
 * })
 * ```
 */
export default function Email(config: EmailOptions): EmailConfig {
  const { sendVerificationRequest } = config
  if (sendVerificationRequest !== undefined) return emailProvider({ id: "email", name: "Email" }, { ...config, sendVerificationRequest })
  if (config.server === undefined) {
    throw new Configuration("Email: set `sendVerificationRequest` to send the sign-in link yourself, or `server` (and `from`) to send it over SMTP.")
  }
  return { ...Nodemailer(config), id: config.id ?? "email", name: config.name ?? "Email" }
}
