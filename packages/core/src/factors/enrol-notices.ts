/**
 * The notices a user is mailed when their second factors change (a factor added or removed,
 * backup codes made anew), so someone who changed them with a stolen session is seen by the
 * owner. Plain words, no link and no code: a notice is not a way in.
 */
import type { RequestContext } from "../internal.js"
import { sendMail } from "../outbound/mail.js"
import { escapeHtml } from "../pages/layout.js"

/** What changed. */
export type FactorChange = "totpAdded" | "totpRemoved" | "backupCodesRegenerated" | "backupCodesRemoved"

const NOTICES: Readonly<Record<FactorChange, { subject: string; lines: readonly string[] }>> = {
  totpAdded: {
    subject: "Two-step sign-in is on",
    lines: ["An authenticator app was added to your account: each sign-in now asks for a code from it, or for one of your backup codes."],
  },
  totpRemoved: {
    subject: "Two-step sign-in is off",
    lines: ["The authenticator app and the backup codes were removed from your account: signing in no longer asks for a code."],
  },
  backupCodesRegenerated: {
    subject: "New backup codes were made",
    lines: ["New backup codes were made for your account. The old ones no longer work."],
  },
  backupCodesRemoved: {
    subject: "Your backup codes were removed",
    lines: ["The backup codes of your account were removed. Your authenticator app still works."],
  },
}

const CLOSING = "If this was not you, sign in, change how you sign in, and sign out your other sessions."

/**
 * Mails `to` the notice of `change`. A user without an address gets none; a mail that does not
 * go out is logged by `sendMail` and changes nothing of the change itself.
 */
export async function sendFactorNotice(context: RequestContext, to: string | null | undefined, change: FactorChange): Promise<void> {
  if (typeof to !== "string" || to === "") return
  const { subject, lines } = NOTICES[change]
  const paragraphs = [...lines, CLOSING]
  await sendMail(context, {
    to,
    kind: "notice",
    subject,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
  })
}
