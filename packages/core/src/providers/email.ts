import { envName, readEnv } from "../config/env.js"
import { Configuration } from "../errors/errors.js"
import { EmailSignInError } from "../errors/errors.js"
import { isLoopbackAddress } from "../http/loopback.js"
import type { Theme } from "../model.js"
import type { EmailConfig, EmailUserConfig } from "./types.js"

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

/** The message a built-in email provider sends: a subject, a plain-text part, and a minimal HTML part with one button. */
export interface SignInMessage {
  subject: string
  text: string
  html: string
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => escapes[char] ?? char)

/**
 * The sign-in email every built-in sender uses (SMTP or an email API), branded with the
 * theme's `brandColor` when it is a plain hex color. A passkey sign-up link (it carries the
 * pending passkey as `pending`) says that following it finishes the passkey, and adds it to the
 * address's account if there is one.
 *
 * @example
 * ```ts
 * const { subject, text, html } = signInMessage({ url, theme })
 * ```
 */
export function signInMessage({ url, theme }: { url: string; theme?: Pick<Theme, "brandColor"> }): SignInMessage {
  const parsed = new URL(url)
  const host = parsed.host
  const brand = theme?.brandColor
  const color = brand !== undefined && /^#[0-9a-fA-F]{3,8}$/.test(brand) ? brand : "#346df1"
  const ignore = "If you did not ask for this email, you can ignore it."
  const button = (label: string) =>
    `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${color};color:#fff;text-decoration:none">${label}</a></p>`
  if (parsed.searchParams.has("pending")) {
    const lead = `Confirm your address to finish setting up the passkey you just created for ${host}. If this address already has an account there, the passkey is added to it and you are signed in.`
    const where = "Open the link in the browser where you created the passkey."
    return {
      subject: `Finish setting up your passkey for ${host}`,
      text: `${lead}\n\n${url}\n\n${where} ${ignore}\n`,
      html: `<body style="font-family:sans-serif"><p>${escapeHtml(lead)}</p>${button("Confirm and sign in")}<p style="color:#666">${escapeHtml(where)} ${ignore}</p></body>`,
    }
  }
  return {
    subject: `Sign in to ${host}`,
    text: `Sign in to ${host}\n\n${url}\n\n${ignore}\n`,
    html: `<body style="font-family:sans-serif"><p>Sign in to <strong>${escapeHtml(host)}</strong></p>${button("Sign in")}<p style="color:#666">${ignore}</p></body>`,
  }
}

/**
 * Reads what an email API provider needs from its options: the API key (`apiKey`, or the
 * environment's `AUTH_<ID>_KEY`) and the API's base URL (`apiUrl`, https; plain http only on a
 * loopback address, for a local fake of the API).
 *
 * @throws {Configuration} naming `apiKey` or `apiUrl`.
 */
export function emailApiOptions(
  id: string,
  brand: string,
  options: { apiKey?: unknown; apiUrl?: unknown },
  defaultApiUrl: string,
): { apiKey: string; apiUrl: string } {
  const variable = envName(id, "KEY")
  const apiKey = options.apiKey ?? readEnv()[variable]
  if (typeof apiKey !== "string" || apiKey === "") throw new Configuration(`${brand}: set \`apiKey\` (or ${variable}) to your ${brand} API key.`)
  const apiUrl = options.apiUrl ?? defaultApiUrl
  const parsed = typeof apiUrl === "string" && URL.canParse(apiUrl) ? new URL(apiUrl) : undefined
  if (parsed === undefined || !(parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopbackAddress(parsed.hostname)))) {
    throw new Configuration(`${brand}: \`apiUrl\` must be an https URL (plain http only on a loopback address).`)
  }
  return { apiKey, apiUrl: parsed.href.replace(/\/+$/, "") }
}

/** How long an email API may take to accept a message. */
const EMAIL_API_TIMEOUT_MS = 10_000

/**
 * Sends one request to an email API and checks its answer: any non-2xx status becomes an
 * {@link EmailSignInError} that names the vendor, the status and the vendor's own message (cut
 * short), with `hide` (the API key, the link) removed from it. `what` names the message in that
 * error: the sign-in email unless said otherwise (a provider's `sendMail` says `"the email"`).
 *
 * @throws {EmailSignInError} when the API cannot be reached, times out, or refuses the message.
 */
export async function sendEmailApiRequest(brand: string, url: string, init: RequestInit, hide: readonly string[], what = "the sign-in email"): Promise<void> {
  const scrub = (text: string): string => hide.reduce((out, secret) => (secret === "" ? out : out.split(secret).join("[redacted]")), text)
  let response: Response
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(EMAIL_API_TIMEOUT_MS) })
  } catch (cause) {
    const timedOut = cause instanceof DOMException && (cause.name === "TimeoutError" || cause.name === "AbortError")
    throw new EmailSignInError(timedOut ? `${brand} did not answer within ${EMAIL_API_TIMEOUT_MS} ms.` : `${brand} could not be reached.`)
  }
  if (response.ok) {
    await response.body?.cancel()
    return
  }
  const body = (await response.text().catch(() => "")).slice(0, 2000)
  let detail = body
  try {
    const parsed: unknown = JSON.parse(body)
    detail = vendorMessage(parsed) ?? body
  } catch {
    // Not JSON: the text itself, cut short below.
  }
  detail = scrub(detail).replace(/\s+/g, " ").trim().slice(0, 200)
  throw new EmailSignInError(`${brand} refused ${what}: HTTP ${response.status}${detail === "" ? "" : ` (${detail})`}.`)
}

/** The human part of an email API's error answer: `message`, `Message`, `error`, or SendGrid's `errors[].message`. */
function vendorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined
  const record = body as Record<string, unknown>
  for (const key of ["message", "Message", "error", "detail"]) {
    const value = record[key]
    if (typeof value === "string") return value
    if (typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string") return (value as { message: string }).message
  }
  if (Array.isArray(record.errors)) {
    return record.errors
      .map((error: unknown) => (typeof error === "object" && error !== null ? (error as { message?: unknown }).message : undefined))
      .filter((message): message is string => typeof message === "string")
      .join("; ")
  }
  return undefined
}
