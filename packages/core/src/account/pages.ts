/**
 * The account settings' pages, drawn with the built-in pages' layout (theme, brand, dark mode,
 * 390 px wide): the "check your inbox" page after an email change was asked for, the page a
 * change's link opens (a form: only its post applies the change, so a mail scanner that follows
 * the link changes nothing), its outcome, and the page after an account was deleted, whose one
 * script tells the browser's password manager that the account's passkeys are gone.
 */
import { sha256Base64url } from "../crypto/sealed.js"
import type { InternalConfig, RequestContext } from "../internal.js"
import { escapeHtml, hiddenInput, homePage, layout, themeButtonStyle } from "../pages/layout.js"

/** What a page needs of the request: the app's origin, where the routes live, the theme. */
export type AccountPageContext = Pick<RequestContext, "origin" | "authUrl"> & { config: Pick<InternalConfig, "theme"> }

/** How long an email change's link works, as the pages say it. */
export const LINK_LIFETIME_WORDS = "one hour"

function page(context: AccountPageContext, title: string, body: string): string {
  return layout(context.config.theme, title, body, context.origin)
}

function homeLink(context: AccountPageContext): string {
  return `<p class="links"><a href="${escapeHtml(homePage(context.config.theme, context.origin))}">Back to the site</a></p>`
}

/** After `POST /account/email` from a form: the same page whether or not a link went out. */
export function checkInboxPage(context: AccountPageContext): string {
  return page(
    context,
    "Check your inbox",
    `<h1>Check your inbox</h1><p>We sent a message to the new address. Open the link in it within ${LINK_LIFETIME_WORDS} to confirm the change: your address stays as it is until then.</p>${homeLink(context)}`,
  )
}

/** The page an email change's link opens: the new address, and a form whose post applies the change. */
export function confirmEmailPage(context: AccountPageContext, params: { email: string; token: string; csrfToken: string }): string {
  const action = `${context.authUrl}/account/email/confirm`
  return page(
    context,
    "Confirm your new email address",
    `<h1>Confirm your new email address</h1><p>Use <strong>${escapeHtml(params.email)}</strong> as the email address of your account?</p>
<form method="post" action="${escapeHtml(action)}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("token", params.token)}<button class="button" type="submit" style="${themeButtonStyle(context.config.theme)}">Use this address</button></form>${homeLink(context)}`,
  )
}

/** A link that is unreadable, expired, used, or replaced by a newer request (or ended by "sign out everywhere"). */
export function linkRefusedPage(context: AccountPageContext): string {
  return page(
    context,
    "This link no longer works",
    `<h1>This link no longer works</h1><p class="error" role="alert">It was used already, has expired, or a newer request replaced it.</p><p>Ask for the change again from your account settings.</p>${homeLink(context)}`,
  )
}

/** After the change was applied. */
export function emailChangedPage(context: AccountPageContext, email: string): string {
  return page(context, "Email address changed", `<h1>Email address changed</h1><p>Your account now uses <strong>${escapeHtml(email)}</strong>.</p>${homeLink(context)}`)
}

/**
 * The script of the page after a deletion: for each deleted passkey, the WebAuthn Signal API's
 * `signalUnknownCredential`, where the browser has it, so its password manager stops offering it.
 * Its data comes from a JSON element, so the script is one fixed text and its hash the policy.
 *
 * @see https://w3c.github.io/webauthn/#sctn-signal-methods WebAuthn Level 3 §5.1.10 (signal methods)
 */
const SIGNAL_SCRIPT = `(()=>{const d=JSON.parse(document.getElementById("deleted-passkeys").textContent);const s=globalThis.PublicKeyCredential&&PublicKeyCredential.signalUnknownCredential;if(typeof s!=="function")return;for(const id of d.credentialIds)PublicKeyCredential.signalUnknownCredential({rpId:d.rpId,credentialId:id}).catch(()=>{})})()`

/** The deleted passkeys the page signals: the relying party's id and the credential ids (base64url). */
export interface DeletedPasskeys {
  rpId: string
  credentialIds: string[]
}

/** JSON inside a `<script>` element: nothing in it can end the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c")
}

/** The CSP source of the signal script: its SHA-256, base64 as CSP writes it. */
export async function signalScriptSource(): Promise<string> {
  const digest = (await sha256Base64url(SIGNAL_SCRIPT)).replace(/-/g, "+").replace(/_/g, "/")
  return `'sha256-${digest}${"=".repeat((4 - (digest.length % 4)) % 4)}'`
}

/** After `POST /account/delete` from a form: the account is gone; the deleted passkeys are signalled to the browser. */
export function accountDeletedPage(context: AccountPageContext, passkeys: DeletedPasskeys): string {
  const signal =
    passkeys.credentialIds.length === 0
      ? ""
      : `<script type="application/json" id="deleted-passkeys">${scriptJson(passkeys)}</script><script>${SIGNAL_SCRIPT}</script>`
  return page(context, "Account deleted", `<h1>Your account was deleted</h1><p>Your account, its sign-in methods and its sessions are gone. You are signed out.</p>${homeLink(context)}${signal}`)
}
