import type { EmailConfig, EmailUserConfig } from "./index.js"

/** Seconds a sign-in link stays valid unless the provider says otherwise: 24 hours. */
export const DEFAULT_LINK_MAX_AGE = 24 * 60 * 60

/**
 * Lays a user's options over an email provider factory's `id` and `name`, and fills in the
 * type and the default link lifetime: the email counterpart of `mergeProviderConfig`.
 *
 * @example
 * ```ts
 * return mergeEmailConfig({ id: "email", name: "Email" }, config)
 * ```
 */
export function mergeEmailConfig<C extends EmailUserConfig & Pick<EmailConfig, "sendVerificationRequest">>(
  defaults: { id: string; name: string },
  config: C,
): C & EmailConfig & { maxAge: number } {
  return {
    ...config,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: "email",
    maxAge: config.maxAge ?? DEFAULT_LINK_MAX_AGE,
  }
}
