/**
 * SendGrid (Twilio): email sign-in links sent through the v3 Mail Send API. `apiKey` is an API
 * key with "Mail Send" access (or set `AUTH_SENDGRID_KEY`); `from` must be a verified sender.
 * Needs an adapter that stores verification tokens.
 *
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 * @module sendgrid
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, signInMessage, type EmailConfig, type EmailMessage, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"

/** The SendGrid provider's configuration. */
export interface SendGridConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL. Default `https://api.sendgrid.com`. */
  apiUrl: string
  from: string
}

/** What `SendGrid()` takes: `from` (optional in the type as in Auth.js's, but named at start when missing), and optionally the key (else `AUTH_SENDGRID_KEY`) and any email provider option. */
export type SendGridOptions = EmailUserConfig & { from?: string; apiKey?: string; apiUrl?: string }

/** `"Acme <no-reply@acme.example>"` as SendGrid's `{ email, name }`. */
function address(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (match === null) return { email: from.trim() }
  const name = (match[1] ?? "").replace(/^"(.*)"$/, "$1")
  return name === "" ? { email: match[2] ?? "" } : { email: match[2] ?? "", name }
}

/** `POST /v3/mail/send` with the key as a bearer token. */
async function send({ to, subject, text, html }: EmailMessage, provider: EmailConfig, link?: string): Promise<void> {
  const { apiKey, apiUrl, from } = provider as SendGridConfig
  const body = {
    personalizations: [{ to: [{ email: to }] }],
    from: address(from),
    subject,
    content: [
      { type: "text/plain", value: text },
      { type: "text/html", value: html },
    ],
  }
  await sendEmailApiRequest(
    "SendGrid",
    `${apiUrl}/v3/mail/send`,
    { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) },
    link === undefined ? [apiKey] : [apiKey, link],
    link === undefined ? "the email" : undefined,
  )
}

async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await send({ to: identifier, ...signInMessage({ url, theme }) }, provider, url)
}

/**
 * An email provider sending through SendGrid.
 *
 * @throws {Configuration} when there is no API key or `from`.
 * @example
 * ```ts
 * SendGrid({ from: "Acme <no-reply@acme.example>" }) // reads AUTH_SENDGRID_KEY
 * ```
 */
export default function SendGrid(config: SendGridOptions): SendGridConfig {
  const api = emailApiOptions("sendgrid", "SendGrid", config, "https://api.sendgrid.com")
  const { from } = config
  if (typeof from !== "string" || from === "") throw new Configuration('SendGrid: set `from` to a verified sender, such as "Acme <no-reply@acme.example>".')
  return emailProvider({ id: "sendgrid", name: "SendGrid" }, { ...config, ...api, from, style: { brandColor: "#1A82E2", ...config.style }, sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? send })
}
