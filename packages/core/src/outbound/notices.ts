/**
 * The notices a user is mailed after a change to how they sign in or where they are reached (a
 * factor, a passkey, a linked account, the password, the address), so that a change made with a
 * stolen session is seen by the owner (OWASP ASVS v5 6.3.7). One home for every notice: each is
 * plain words, with no link, no code and no secret, because a notice is never a way in, and a
 * mail that does not go out never undoes the change it reports.
 */
import type { RequestContext } from "../internal.js"
import { hasMailTransport, mailBody, sendMail } from "./mail.js"

/**
 * What changed on the account; each has a subject and plain lines, no link and no code.
 *
 * - `totpAdded`, `totpRemoved`, `backupCodesRegenerated`, `backupCodesRemoved`,
 *   `emailCodeFactorAdded`, `emailCodeFactorRemoved`: the second factors; `totpLocked`: wrong
 *   codes in a row locked the authenticator app.
 * - `emailChanged`: sent to the **old** address once the change applied; it names neither
 *   address (the old one is where it goes; the new one is not shown, so a mailbox the owner lost
 *   learns nothing of where the account went).
 * - `passkeyAdded` (not the first passkey of an account that passkey made), `passkeyRemoved`.
 * - `accountLinked` (not the first account of a new user), `accountUnlinked`: `detail.provider`
 *   names the provider ("Your GitHub account was linked").
 * - `passwordChanged`, `passwordReset`.
 * - `passwordSignUpTaken`: someone tried to sign up with an address that has an account; it
 *   tells the owner to reset the password if it was them, and that nothing changed otherwise.
 */
export type NoticeChange =
  | "totpAdded"
  | "totpRemoved"
  | "backupCodesRegenerated"
  | "backupCodesRemoved"
  | "totpLocked"
  | "emailCodeFactorAdded"
  | "emailCodeFactorRemoved"
  | "emailChanged"
  | "passkeyAdded"
  | "passkeyRemoved"
  | "accountLinked"
  | "accountUnlinked"
  | "passwordChanged"
  | "passwordReset"
  | "passwordSignUpTaken"

/** What a notice may name besides the change: the provider's or the passkey holder's display name. */
export interface NoticeDetail {
  /** "GitHub" for an account; the password manager holding a passkey ("iCloud Keychain"), when known. */
  provider?: string
}

interface Notice {
  subject: string
  lines: readonly string[]
  /** What to do if it was not the owner; the default for a change someone made. */
  closing?: string
}

const NOT_YOU = "If this was not you, sign in, change how you sign in, and sign out your other sessions."

/** The provider's name as a notice shows it: one line of at most 64 characters, or nothing. */
function named(detail: NoticeDetail | undefined): string | undefined {
  const name = detail?.provider?.replace(/\s+/g, " ").trim()
  return name === undefined || name === "" ? undefined : name.slice(0, 64)
}

function notice(change: NoticeChange, detail: NoticeDetail | undefined): Notice {
  const provider = named(detail)
  switch (change) {
    case "totpAdded":
      return {
        subject: "Two-step sign-in is on",
        lines: ["An authenticator app was added to your account: each sign-in now asks for a code from it, or for one of your backup codes."],
      }
    case "totpRemoved":
      return {
        subject: "Two-step sign-in is off",
        lines: ["The authenticator app and the backup codes were removed from your account: signing in no longer asks for a code."],
      }
    case "backupCodesRegenerated":
      return { subject: "New backup codes were made", lines: ["New backup codes were made for your account. The old ones no longer work."] }
    case "backupCodesRemoved":
      return { subject: "Your backup codes were removed", lines: ["The backup codes of your account were removed. Your authenticator app still works."] }
    case "totpLocked":
      return {
        subject: "Your authenticator app was locked",
        lines: ["Someone typed too many wrong codes for your authenticator app in a row, so it no longer signs you in."],
        closing: "If this was not you, someone may know your password: change it. Sign in with a backup code, then set up the authenticator app again.",
      }
    case "emailCodeFactorAdded":
      return { subject: "Sign-in codes by email are on", lines: ["Each sign-in to your account now asks for a code sent to your email address."] }
    case "emailCodeFactorRemoved":
      return { subject: "Sign-in codes by email are off", lines: ["Signing in to your account no longer asks for a code sent to your email address."] }
    case "emailChanged":
      return {
        subject: "Your email address was changed",
        lines: ["The email address of your account was changed. This address no longer signs you in, and your account's mail now goes to the new one."],
      }
    case "passkeyAdded":
      return {
        subject: "A passkey was added",
        lines: [`A passkey${provider === undefined ? "" : ` in ${provider}`} was added to your account: it can now sign you in.`],
      }
    case "passkeyRemoved":
      return {
        subject: "A passkey was removed",
        lines: [`A passkey${provider === undefined ? "" : ` in ${provider}`} was removed from your account: it no longer signs you in.`],
      }
    case "accountLinked":
      return {
        subject: provider === undefined ? "An account was linked" : `Your ${provider} account was linked`,
        lines: [`${provider === undefined ? "An account at another provider" : `Your ${provider} account`} was linked to your account: it can now sign you in.`],
      }
    case "accountUnlinked":
      return {
        subject: provider === undefined ? "An account was unlinked" : `Your ${provider} account was unlinked`,
        lines: [`${provider === undefined ? "An account at another provider" : `Your ${provider} account`} was unlinked from your account: it no longer signs you in.`],
      }
    case "passwordChanged":
      return { subject: "Your password was changed", lines: ["The password of your account was changed. The old one no longer works."] }
    case "passwordReset":
      return { subject: "Your password was reset", lines: ["The password of your account was reset through a link sent to this address. The old one no longer works."] }
    case "passwordSignUpTaken":
      return {
        subject: "Someone tried to sign up with your address",
        lines: ["Someone tried to make a new account with this address, which already has one. No account was made."],
        closing: "If it was you, sign in, or reset your password from the sign-in page if you forgot it. If it was not you, you need do nothing: nothing changed.",
      }
  }
}

/**
 * Mails `to` the notice of `change` (kind `"notice"`), once the change has landed, when the app
 * has a transport (`mail.send`, or an email provider's): without one, or for a user without an
 * address, nothing is sent and nothing logged. A mail that fails is logged by `sendMail` and
 * changes nothing of the change itself. A caller that must not wait on the mail
 * (an answer that must take the same time either way) may `void` the promise.
 *
 * @returns when the mail went out or was given up; never throws.
 * @example
 * ```ts
 * await sendNotice(context, user.email, "accountLinked", { provider: provider.name })
 * ```
 */
export async function sendNotice(context: RequestContext, to: string | null | undefined, change: NoticeChange, detail?: NoticeDetail): Promise<void> {
  if (typeof to !== "string" || to === "" || !hasMailTransport(context)) return
  const { subject, lines, closing = NOT_YOU } = notice(change, detail)
  const paragraphs = [...lines, closing]
  try {
    await sendMail(context, {
      to,
      kind: "notice",
      subject,
      // A provider's name comes from configuration: escaped like any text put in HTML.
      ...mailBody(paragraphs),
    })
  } catch {
    // `sendMail` answers its failures itself: this only keeps a logger that throws from failing a change that landed.
  }
}
