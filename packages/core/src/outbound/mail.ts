/**
 * Core's mails that are not sign-in links (second-factor codes and notices, address changes,
 * password accounts): through the app's `mail.send`, else the transport of the configured email
 * provider. Sending never throws into the request: a failure is logged with the mail's link and
 * code redacted, and the feature that asked learns only whether the mail went out.
 */
import { EmailSignInError } from "../errors/errors.js"
import { sanitizeError } from "../errors/logger.js"
import type { RequestContext } from "../internal.js"
import type { LoggerInstance } from "../model.js"
import type { MailMessage } from "../types.js"
import { withDeadline } from "./deadline.js"

/** How long a mail hook or transport may take to accept a message, as an email API may. */
const MAIL_TIMEOUT_MS = 10_000

/** Whether the mail went out: `noTransport` when nothing is configured to send it, `failed` when sending threw or timed out. */
export type MailOutcome = { sent: true } | { sent: false; reason: "noTransport" | "failed" }

/** The warnings this process has written, each once: an app that reads its configuration per request would repeat them. */
const warned = new Set<string>()

function warnOnce(logger: LoggerInstance, message: string): void {
  if (warned.has(message)) return
  warned.add(message)
  logger.warn("MailNotSent", message)
}

/** What sends the mail: `mail.send`, else the first email provider with a transport. */
function findTransport(context: RequestContext): ((message: MailMessage) => unknown) | undefined {
  const { config } = context
  if (config.mail.send !== undefined) return config.mail.send
  for (const provider of config.providers) {
    const send = provider.flow.mailTransport?.(provider.options)
    if (send !== undefined) return ({ to, subject, text, html }) => send({ to, subject, text, html })
  }
  return undefined
}

/**
 * Whether the app can send core's mails that are not sign-in links (`mail.send`, or an email
 * provider's transport): a notice, which an app may go without, is sent only then.
 */
export function hasMailTransport(context: RequestContext): boolean {
  return findTransport(context) !== undefined
}

/** {@link findTransport}, else `undefined` with a warning (once) naming what to set. */
function transport(context: RequestContext): ((message: MailMessage) => unknown) | undefined {
  const { config } = context
  const found = findTransport(context)
  if (found !== undefined) return found
  const [linkOnly] = config.providers.filter((provider) => provider.flow.mailTransport !== undefined)
  warnOnce(
    config.logger,
    linkOnly === undefined
      ? "A mail that is not a sign-in link (a second-factor code, an address confirmation) was not sent: set `mail.send` to send it, or configure an email provider (Resend, Nodemailer...) whose transport core uses."
      : `A mail that is not a sign-in link (a second-factor code, an address confirmation) was not sent: provider "${linkOnly.id}" has only its own \`sendVerificationRequest\`, which sends sign-in links. Set \`mail.send\` to send the other mails.`,
  )
  return undefined
}

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/**
 * A mail's text and HTML bodies from plain paragraphs, each escaped for the HTML one (a
 * provider's name or an address comes from configuration or a request). Its own escaping:
 * `outbound/` sits below `pages/`, whose `escapeHtml` it may not import.
 */
export function mailBody(paragraphs: readonly string[]): { text: string; html: string } {
  return { text: paragraphs.join("\n\n"), html: paragraphs.map((line) => `<p>${line.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)}</p>`).join("") }
}

/**
 * Sends `message` through `mail.send`, else the configured email provider's transport, within
 * a deadline. Its link and code join the request's redacted values first.
 *
 * @returns whether it was sent; never throws.
 * @example
 * ```ts
 * const { sent } = await sendMail(context, { to, kind: "mfaCode", subject, text, html, code })
 * ```
 */
export async function sendMail(context: RequestContext, message: MailMessage): Promise<MailOutcome> {
  for (const value of [message.url, message.code]) if (value !== undefined && value !== "") context.sensitive.add(value)
  const send = transport(context)
  if (send === undefined) return { sent: false, reason: "noTransport" }
  // A copy: a hook that edits what it is handed changes nothing of ours.
  const copy: MailMessage = { ...message }
  try {
    await withDeadline(MAIL_TIMEOUT_MS, new Error(`The mail was not accepted within ${String(MAIL_TIMEOUT_MS)} ms.`), async () => {
      await send(copy)
    })
    return { sent: true }
  } catch (cause) {
    const error = new EmailSignInError(`Sending a "${message.kind}" mail failed (\`mail.send\`, or the email provider's transport).`, { cause })
    context.config.logger.error(sanitizeError(error, context.sensitive))
    return { sent: false, reason: "failed" }
  }
}
