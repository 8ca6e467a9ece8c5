/**
 * An email (magic link) provider's configuration, checked and normalised once.
 */
import { Configuration } from "../errors/errors.js"
import type { EmailConfig } from "../providers/types.js"
import type { ProviderButtonStyles } from "../model.js"
import { isRecord, optionalFunction, optionalString, positiveSeconds } from "../config/read.js"
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
  /** Lets a link sign in a user whose address was never verified (see `resolveEmailUser`). */
  allowDangerousEmailAccountLinking: boolean
  /** The provider's own `secret`, which keys its tokens' HMAC in place of the app's secrets. */
  secret: string | undefined
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
  const maxAge = positiveSeconds(config.maxAge ?? DEFAULT_LINK_MAX_AGE, at("maxAge"), DEFAULT_LINK_MAX_AGE)
  const sendVerificationRequest = optionalFunction<EmailConfig["sendVerificationRequest"]>(config.sendVerificationRequest, at("sendVerificationRequest"))
  if (sendVerificationRequest === undefined) {
    throw new Configuration(`\`${at("sendVerificationRequest")}\` must be a function that sends the sign-in link.`)
  }
  optionalString(config.from, at("from"))
  optionalFunction(config.sendMail, at("sendMail"))
  const secret = optionalString(config.secret, at("secret"))
  if (secret === "") throw new Configuration(`\`${at("secret")}\` must not be empty: leave it out to use the app's \`secret\`.`)
  optionalString(config.apiKey, at("apiKey"))
  if (config.style !== undefined && !isRecord(config.style)) throw new Configuration(`\`${at("style")}\` must be an object.`)
  return {
    id,
    name,
    type: "email",
    source: { ...config, name, maxAge },
    maxAge,
    sendVerificationRequest,
    generateVerificationToken: optionalFunction(config.generateVerificationToken, at("generateVerificationToken")),
    normalizeIdentifier: optionalFunction(config.normalizeIdentifier, at("normalizeIdentifier")),
    style: { ...config.style },
    allowDangerousEmailAccountLinking: config.allowDangerousEmailAccountLinking === true,
    secret,
  }
}
