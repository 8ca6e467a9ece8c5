/**
 * Email: passwordless sign-in by a single-use link, sent by your own `sendVerificationRequest`
 * (an email API, a queue). Needs an adapter that stores verification tokens. To send through
 * SMTP, use `@portcullis/providers/nodemailer`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5321
 * @module email
 */
import { emailProvider } from "@portcullis/core/email"
import type { EmailConfig, EmailUserConfig } from "@portcullis/core/providers"

/** What `Email()` takes: `sendVerificationRequest` and, optionally, everything else. */
export type EmailOptions = EmailUserConfig & Pick<EmailConfig, "sendVerificationRequest">

/**
 * An email provider with a custom sender.
 *
 * @example
 * ```ts
 * Email({
 *   from: "Sign-in <no-reply@example.com>",
 *   sendVerificationRequest: ({ identifier, url }) => mailApi.send({ to: identifier, subject: "Sign in", text: url }),
 * })
 * ```
 */
export default function Email(config: EmailOptions): EmailConfig {
  return emailProvider({ id: "email", name: "Email" }, config)
}
