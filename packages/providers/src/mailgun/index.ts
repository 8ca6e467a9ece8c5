/**
 * Mailgun: email sign-in links sent through Mailgun's messages API. `apiKey` is a private API
 * key or a domain sending key (or set `AUTH_MAILGUN_KEY`), `domain` the sending domain, and
 * `region: "eu"` for a domain created in the EU region. Needs an adapter that stores
 * verification tokens.
 *
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages
 * @module mailgun
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, signInMessage, type EmailConfig, type EmailMessage, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The Mailgun provider's configuration. */
export interface MailgunConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL: `https://api.mailgun.net`, or `https://api.eu.mailgun.net` for `region: "eu"`. */
  apiUrl: string
  /** The sending domain, e.g. `mg.acme.example`. */
  domain: string
  from: string
}

/**
 * What `Mailgun()` takes: `from` (optional in the type as in Auth.js's, but named at start when
 * missing), and optionally the sending `domain` (default: `from`'s, as Auth.js takes it), the key
 * (else `AUTH_MAILGUN_KEY`), the region (Auth.js's `"US"` / `"EU"`, or `"us"` / `"eu"`) and any
 * email provider option.
 */
export type MailgunOptions = EmailUserConfig & { from?: string; domain?: string; region?: "US" | "EU" | "us" | "eu"; apiKey?: string; apiUrl?: string }

/** `POST /v3/<domain>/messages` as a form, with HTTP Basic auth `api:<key>`. */
async function send({ to, subject, text, html }: EmailMessage, provider: EmailConfig, link?: string): Promise<void> {
  const { apiKey, apiUrl, domain, from } = provider as MailgunConfig
  const form = new FormData()
  for (const [name, value] of Object.entries({ from, to, subject, text, html })) form.append(name, value)
  await sendEmailApiRequest(
    "Mailgun",
    `${apiUrl}/v3/${encodeURIComponent(domain)}/messages`,
    { method: "POST", headers: { authorization: `Basic ${btoa(`api:${apiKey}`)}` }, body: form },
    link === undefined ? [apiKey] : [apiKey, link],
    link === undefined ? "the email" : undefined,
  )
}

async function sendVerificationRequest({ identifier, url, provider, theme }: SendVerificationRequestParams): Promise<void> {
  await send({ to: identifier, ...signInMessage({ url, theme }) }, provider, url)
}

/**
 * An email provider sending through Mailgun.
 *
 * @throws {Configuration} when there is no API key or `from`, no sending domain (`domain`, or `from`'s), or `region` is not "US" or "EU".
 * @example
 * ```ts
 * Mailgun({ from: "Acme <no-reply@mg.acme.example>", domain: "mg.acme.example", region: "eu" }) // reads AUTH_MAILGUN_KEY
 * ```
 */
export default function Mailgun(config: MailgunOptions): MailgunConfig {
  const given: unknown = config.region ?? "us"
  const region = typeof given === "string" ? given.toLowerCase() : given
  if (region !== "us" && region !== "eu") throw new Configuration('Mailgun: `region` must be "US" or "EU".')
  const api = emailApiOptions("mailgun", "Mailgun", config, region === "eu" ? "https://api.eu.mailgun.net" : "https://api.mailgun.net")
  const { from } = config
  if (typeof from !== "string" || from === "") throw new Configuration('Mailgun: set `from` to the sender, such as "Acme <no-reply@mg.acme.example>".')
  // Auth.js sends from the domain of the sender's address; `domain` names another one.
  const domain = config.domain ?? /@([^@>\s]+)>?\s*$/.exec(from)?.[1]
  if (typeof domain !== "string" || !/^[a-z0-9.-]+$/i.test(domain)) {
    throw new Configuration("Mailgun: set `domain` to your sending domain, such as mg.acme.example (or a `from` address at that domain).")
  }
  return emailProvider(
    { id: "mailgun", name: "Mailgun" },
    { ...config, ...api, from, domain, style: { logo, brandColor: "#F06B66", ...config.style }, sendVerificationRequest: config.sendVerificationRequest ?? sendVerificationRequest, sendMail: config.sendMail ?? send },
  )
}
