/**
 * Forward Email: email sign-in links sent through Forward Email's outbound SMTP API. `apiKey` is
 * the account's API token (or set `AUTH_FORWARDEMAIL_KEY`); `from` must be on a domain with
 * outbound SMTP enabled. Needs an adapter that stores verification tokens.
 *
 * @see https://forwardemail.net/en/email-api#outbound-emails
 * @module forwardemail
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, signInMessage, type EmailConfig, type EmailMessage, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"

/** The Forward Email provider's configuration. */
export interface ForwardEmailConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL. Default `https://api.forwardemail.net`. */
  apiUrl: string
  from: string
}

/** What `ForwardEmail()` takes: `from` (optional in the type as in Auth.js's, but named at start when missing), and optionally the key (else `AUTH_FORWARDEMAIL_KEY`) and any email provider option. */
export type ForwardEmailOptions = EmailUserConfig & { from?: string; apiKey?: string; apiUrl?: string }

/** `POST /v1/emails` with HTTP Basic auth, the token as the user name and no password. */
async function send({ to, subject, text, html }: EmailMessage, provider: EmailConfig, link?: string): Promise<void> {
  const { apiKey, apiUrl, from } = provider as ForwardEmailConfig
  await sendEmailApiRequest(
    "Forward Email",
    `${apiUrl}/v1/emails`,
    { method: "POST", headers: { authorization: `Basic ${btoa(`${apiKey}:`)}`, "content-type": "application/json" }, body: JSON.stringify({ from, to, subject, html, text }) },
    link === undefined ? [apiKey, btoa(`${apiKey}:`)] : [apiKey, btoa(`${apiKey}:`), link],
    link === undefined ? "the email" : undefined,
  )
}

async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await send({ to: identifier, ...signInMessage({ url, theme }) }, provider, url)
}

/**
 * An email provider sending through Forward Email.
 *
 * @throws {Configuration} when there is no API token or `from`.
 * @example
 * ```ts
 * ForwardEmail({ from: "Acme <no-reply@acme.example>" }) // reads AUTH_FORWARDEMAIL_KEY
 * ```
 */
export default function ForwardEmail(config: ForwardEmailOptions): ForwardEmailConfig {
  const api = emailApiOptions("forwardemail", "Forward Email", config, "https://api.forwardemail.net")
  const { from } = config
  if (typeof from !== "string" || from === "") throw new Configuration('Forward Email: set `from` to the sender, such as "Acme <no-reply@acme.example>".')
  return emailProvider({ id: "forwardemail", name: "Forward Email" }, { ...config, ...api, from, style: { brandColor: "#20C1ED", ...config.style }, sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? send })
}
