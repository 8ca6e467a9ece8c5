/**
 * Resend: email sign-in links sent through Resend's email API. `apiKey` is an API key from
 * https://resend.com/api-keys (or set `AUTH_RESEND_KEY`); `from` must be on a domain verified in
 * Resend. Needs an adapter that stores verification tokens.
 *
 * @see https://resend.com/docs/api-reference/emails/send-email
 * @module resend
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, signInMessage, type EmailConfig, type EmailMessage, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The Resend provider's configuration. */
export interface ResendConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL. Default `https://api.resend.com`. */
  apiUrl: string
  from: string
}

/** What `Resend()` takes: `from` (optional in the type as in Auth.js's, but named at start when missing), and optionally the key (else `AUTH_RESEND_KEY`) and any email provider option. */
export type ResendOptions = EmailUserConfig & { from?: string; apiKey?: string; apiUrl?: string }

/** `POST /emails` with the key as a bearer token; `link` (kept out of any error) when the mail is a sign-in link. */
async function send({ to, subject, text, html }: EmailMessage, provider: EmailConfig, link?: string): Promise<void> {
  const { apiKey, apiUrl, from } = provider as ResendConfig
  await sendEmailApiRequest(
    "Resend",
    `${apiUrl}/emails`,
    { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ from, to, subject, html, text }) },
    link === undefined ? [apiKey] : [apiKey, link],
    link === undefined ? "the email" : undefined,
  )
}

async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await send({ to: identifier, ...signInMessage({ url, theme }) }, provider, url)
}

/**
 * An email provider sending through Resend.
 *
 * @throws {Configuration} when there is no API key or `from`.
 * @example
 * ```ts
 * Resend({ from: "Acme <no-reply@acme.example>" }) // reads AUTH_RESEND_KEY
 * ```
 */
export default function Resend(config: ResendOptions): ResendConfig {
  const api = emailApiOptions("resend", "Resend", config, "https://api.resend.com")
  const { from } = config
  if (typeof from !== "string" || from === "") throw new Configuration('Resend: set `from` to the sender, such as "Acme <no-reply@acme.example>".')
  return emailProvider({ id: "resend", name: "Resend" }, { ...config, ...api, from, style: { logo, brandColor: "#000000", ...config.style }, sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? send })
}
