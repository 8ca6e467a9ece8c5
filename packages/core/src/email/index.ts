/**
 * `@portcullis/core/email`: the email sign-in ("magic link") flow, the factory helper every
 * email provider of `@portcullis/providers` builds its configuration with, and `mailboxKey`, the
 * one key of an inbox its mail limit counts by.
 *
 * @module email
 */
import { FLOW } from "../config/flow-key.js"
import { mergeEmailConfig } from "../providers/email.js"
import type { EmailConfig, EmailUserConfig } from "../providers/types.js"
import { email } from "./flow.js"

export { email }
export { mailboxKey } from "../limits/mailbox-key.js"

/**
 * An email provider configuration, as `mergeEmailConfig` builds it, carrying the email flow.
 *
 * @example
 * ```ts
 * return emailProvider({ id: "email", name: "Email" }, config)
 * ```
 */
export function emailProvider<C extends EmailUserConfig & Pick<EmailConfig, "sendVerificationRequest">>(
  defaults: { id: string; name: string },
  config: C,
): C & EmailConfig & { maxAge: number } {
  return { ...mergeEmailConfig(defaults, config), [FLOW]: email }
}
