/**
 * Email: passwordless sign-in by a single-use link, sent by your own `sendVerificationRequest`
 * (an email API, a queue). Needs an adapter that stores verification tokens. To send through
 * SMTP, use `@auth/providers/nodemailer`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5321
 * @module email
 */
import type { EmailConfig, EmailUserConfig } from "@auth/core/providers"

const defaults = { id: "email", name: "Email", type: "email", maxAge: 24 * 60 * 60 } as const

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
  return {
    ...config,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: defaults.type,
    maxAge: config.maxAge ?? defaults.maxAge,
  }
}
