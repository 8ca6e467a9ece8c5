/**
 * Loops: email sign-in links sent as a Loops transactional email. Create a transactional email
 * in Loops with a data variable `url` where the sign-in link goes, publish it, and pass its id as
 * `transactionalId`; `apiKey` is an API key (or set `AUTH_LOOPS_KEY`). The sender and the text
 * are the template's. Needs an adapter that stores verification tokens.
 *
 * @see https://loops.so/docs/api-reference/send-transactional-email
 * @module loops
 */
import { emailProvider } from "@portcullis/core/email"
import { emailApiOptions, sendEmailApiRequest, type Awaitable, type EmailConfig, type EmailUserConfig, type SendVerificationRequestParams } from "@portcullis/core/providers"
import { Configuration } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The Loops provider's configuration. */
export interface LoopsConfig extends EmailConfig {
  apiKey: string
  /** The API's base URL. Default `https://app.loops.so`. */
  apiUrl: string
  /** The published transactional email whose `url` data variable receives the link. */
  transactionalId: string
}

/**
 * What `Loops()` takes: `transactionalId` (optional in the type as in Auth.js's, but named at start
 * when missing), and optionally the key (else `AUTH_LOOPS_KEY`) and any email provider option.
 */
export type LoopsOptions = Omit<EmailUserConfig, "sendVerificationRequest"> & {
  transactionalId?: string
  apiKey?: string
  apiUrl?: string
  /**
   * Sends the link yourself; `provider` is this provider's configuration. A method, so that a
   * sender written for Auth.js's `LoopsConfig` fits too.
   */
  sendVerificationRequest?(params: SendVerificationRequestParams): Awaitable<void>
}

/** `POST /api/v1/transactional` with the key as a bearer token and the link as the `url` data variable. */
async function sendVerificationRequest({ identifier, url, provider }: SendVerificationRequestParams): Promise<void> {
  const { apiKey, apiUrl, transactionalId } = provider as LoopsConfig
  await sendEmailApiRequest(
    "Loops",
    `${apiUrl}/api/v1/transactional`,
    { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ transactionalId, email: identifier, dataVariables: { url } }) },
    [apiKey, url],
  )
}

/**
 * An email provider sending a Loops transactional email.
 *
 * @throws {Configuration} when there is no API key or `transactionalId`.
 * @example
 * ```ts
 * Loops({ transactionalId: "clx1234abc" }) // reads AUTH_LOOPS_KEY
 * ```
 */
export default function Loops(config: LoopsOptions): LoopsConfig {
  const api = emailApiOptions("loops", "Loops", config, "https://app.loops.so")
  const { transactionalId } = config
  if (typeof transactionalId !== "string" || transactionalId === "") {
    throw new Configuration("Loops: set `transactionalId` to the id of a published transactional email with a `url` data variable.")
  }
  return emailProvider({ id: "loops", name: "Loops" }, { ...config, ...api, transactionalId, style: { logo, brandColor: "#FC5200", ...config.style }, sendVerificationRequest: config.sendVerificationRequest === undefined ? sendVerificationRequest : (params) => config.sendVerificationRequest?.(params) })
}
