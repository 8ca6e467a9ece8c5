/**
 * Postmark: email sign-in links sent through Postmark's email API. `apiKey` is the server's API
 * token (or set `AUTH_POSTMARK_KEY`); `from` must be a confirmed sender signature; messages go
 * to the `outbound` transactional stream unless `messageStream` says otherwise. Needs an adapter
 * that stores verification tokens.
 *
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 * @module postmark
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, signInMessage, type EmailConfig, type EmailMessage, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"

/** The Postmark provider's configuration. */
export interface PostmarkConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL. Default `https://api.postmarkapp.com`. */
  apiUrl: string
  from: string
  /** The message stream. Default `"outbound"`. */
  messageStream: string
}

/** What `Postmark()` takes: `from` (optional in the type as in Auth.js's, but named at start when missing), and optionally the key (else `AUTH_POSTMARK_KEY`), the stream and any email provider option. */
export type PostmarkOptions = EmailUserConfig & { from?: string; apiKey?: string; apiUrl?: string; messageStream?: string }

/** `POST /email` with the server token in `X-Postmark-Server-Token`. */
async function send({ to, subject, text, html }: EmailMessage, provider: EmailConfig, link?: string): Promise<void> {
  const { apiKey, apiUrl, from, messageStream } = provider as PostmarkConfig
  await sendEmailApiRequest(
    "Postmark",
    `${apiUrl}/email`,
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "x-postmark-server-token": apiKey },
      body: JSON.stringify({ From: from, To: to, Subject: subject, TextBody: text, HtmlBody: html, MessageStream: messageStream }),
    },
    link === undefined ? [apiKey] : [apiKey, link],
    link === undefined ? "the email" : undefined,
  )
}

async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await send({ to: identifier, ...signInMessage({ url, theme }) }, provider, url)
}

/**
 * An email provider sending through Postmark.
 *
 * @throws {Configuration} when there is no server token or `from`.
 * @example
 * ```ts
 * Postmark({ from: "Acme <no-reply@acme.example>" }) // reads AUTH_POSTMARK_KEY
 * ```
 */
export default function Postmark(config: PostmarkOptions): PostmarkConfig {
  const api = emailApiOptions("postmark", "Postmark", config, "https://api.postmarkapp.com")
  const { from } = config
  if (typeof from !== "string" || from === "") throw new Configuration('Postmark: set `from` to a sender signature, such as "Acme <no-reply@acme.example>".')
  return emailProvider(
    { id: "postmark", name: "Postmark" },
    { ...config, ...api, from, style: { brandColor: "#FFDE00", ...config.style }, messageStream: config.messageStream ?? "outbound", sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? send },
  )
}
