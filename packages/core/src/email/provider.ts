/**
 * An email (magic link) provider's configuration, checked and normalised once.
 */
import { Configuration } from "../errors.js"
import type { EmailConfig, ProviderButtonStyles } from "../providers/index.js"
import { isRecord, optionalFunction } from "../options.js"
import { DEFAULT_LINK_MAX_AGE } from "../providers/email.js"

/** An email provider as the routes use it. */
export interface InternalEmailProvider {
  id: string
  name: string
  type: "email"
  /** What `sendVerificationRequest` receives as `provider`: the configuration with its defaults. */
  source: EmailConfig
  /** Seconds a link stays valid. */
  maxAge: number
  sendVerificationRequest: EmailConfig["sendVerificationRequest"]
  generateVerificationToken: EmailConfig["generateVerificationToken"]
  normalizeIdentifier: EmailConfig["normalizeIdentifier"]
  style: ProviderButtonStyles
}

/**
 * Checks and normalises one email provider.
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
export function normalizeEmailProvider(config: EmailConfig): InternalEmailProvider {
  const { id } = config
  const at = (option: string): string => `providers["${id}"].${option}`
  const name = typeof config.name === "string" && config.name !== "" ? config.name : id
  const maxAge: unknown = config.maxAge ?? DEFAULT_LINK_MAX_AGE
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) {
    throw new Configuration(`\`${at("maxAge")}\` must be a positive number of seconds.`)
  }
  const sendVerificationRequest = optionalFunction<EmailConfig["sendVerificationRequest"]>(config.sendVerificationRequest, at("sendVerificationRequest"))
  if (sendVerificationRequest === undefined) {
    throw new Configuration(`\`${at("sendVerificationRequest")}\` must be a function that sends the sign-in link.`)
  }
  if (config.from !== undefined && typeof config.from !== "string") throw new Configuration(`\`${at("from")}\` must be a string.`)
  if (config.style !== undefined && !isRecord(config.style)) throw new Configuration(`\`${at("style")}\` must be an object.`)
  const seconds = Math.floor(maxAge)
  return {
    id,
    name,
    type: "email",
    source: { ...config, name, maxAge: seconds },
    maxAge: seconds,
    sendVerificationRequest,
    generateVerificationToken: optionalFunction(config.generateVerificationToken, at("generateVerificationToken")),
    normalizeIdentifier: optionalFunction(config.normalizeIdentifier, at("normalizeIdentifier")),
    style: { ...config.style },
  }
}
