/**
 * The second-factor pages, drawn with the built-in pages' layout (theme, brand, dark mode, no
 * script but the passkey flow's own, which its control brings): the challenge a pending sign-in answers (a code from the authenticator app, a backup
 * code, a passkey), the authenticator app's setup with its QR code drawn here, and the backup
 * codes, shown once. Every value from a request or the configuration is escaped; the routes
 * serve them with `html()`, whose policy allows no script (the challenge's admits the passkey's).
 */
import type { InternalConfig, RequestContext } from "../internal.js"
import { escapeHtml, hiddenInput, homePage, layout, themeButtonStyle } from "../pages/layout.js"
import { qrSvg } from "./qr.js"

/** What a page needs of the request: the app's origin, where the routes live, the theme. */
export type FactorPageContext = Pick<RequestContext, "origin" | "authUrl"> & { config: Pick<InternalConfig, "theme"> }

/** A second factor the challenge page offers. */
export type ChallengeFactor = "totp" | "backup" | "passkey" | "email"

/**
 * Why the last attempt was refused, as the challenge route names it (`?error=`): each has its
 * sentence; any other value, which may come from a hand-made URL, shows a neutral one.
 */
export type ChallengeError = "invalidCode" | "replayed" | "rateLimited" | "locked" | "expired" | "passkeyFailed" | "InvalidFactor" | "codeExpired"

const CHALLENGE_ERRORS: Readonly<Record<ChallengeError, string>> = {
  invalidCode: "That code did not work. Check it and try again.",
  replayed: "That code was already used. Wait for the next code in your app, then enter it.",
  rateLimited: "Too many wrong codes. Wait a few minutes, then try again.",
  locked: "Codes from your authenticator app are turned off after too many wrong ones. Use a backup code, and we have emailed you about it.",
  expired: "This sign-in took too long. Please sign in again.",
  passkeyFailed: "Your passkey was not accepted. Try again, or use a code.",
  InvalidFactor: "That way to confirm it is you is not offered here. Use one shown on this page.",
  codeExpired: "That code has expired or was used up. Ask for a new one.",
}
const UNKNOWN_ERROR = "That did not work. Please try again."

/** The rules only these pages need, added to the layout's. */
const STYLES = `.steps{text-align:left;margin:0 0 1rem;padding-left:1.25rem}.steps li+li{margin-top:.25rem}
.qr{display:block;width:100%;max-width:15rem;height:auto;margin:0 auto 1rem;border-radius:6px}
.secret{font:600 1.0625rem/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-spacing:.35em;letter-spacing:.04em;overflow-wrap:anywhere}
.codes{list-style:none;display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.5rem;margin:0 0 1rem;padding:0}
.codes li{padding:.375rem .25rem;border:1px solid var(--border);border-radius:6px;font:600 1rem/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
details{margin:1rem 0 0;text-align:left}summary{cursor:pointer;color:var(--link);text-decoration:underline;text-underline-offset:2px;margin:0 0 .75rem}`

/** The refusal's fixed sentence, for an error code from the URL; nothing without one. */
function errorLine(code: string | undefined): string {
  if (code === undefined || code === "") return ""
  const known = Object.hasOwn(CHALLENGE_ERRORS, code) ? CHALLENGE_ERRORS[code as ChallengeError] : UNKNOWN_ERROR
  return `<p class="error" role="alert">${escapeHtml(known)}</p>`
}

/** The code field of the app code and the backup code forms. */
function codeField(id: string, label: string, hint: string, attributes: string): string {
  return `<label for="${id}">${label}</label><input id="${id}" name="code" type="text" aria-describedby="${id}-hint"${attributes} required><p class="muted hint" id="${id}-hint">${hint}</p>`
}

/** The app's name: `theme.brandName`, else its host. */
function appName(context: FactorPageContext): string {
  const { brandName } = context.config.theme
  if (brandName !== undefined) return brandName
  try {
    return new URL(homePage(context.config.theme, context.origin)).host
  } catch {
    return "this site"
  }
}

/**
 * The challenge of a sign-in that waits for its second factor: the code from the authenticator
 * app (`autocomplete="one-time-code"`, a numeric keyboard), a backup code behind "Use a backup
 * code instead" (open after a refused backup code, or when it is the only way), a passkey
 * button when that factor is offered, and a mailed code ("Email me a code", then its field).
 * Each form posts to `{basePath}/mfa/verify` with its `factor` and the CSRF token (the email
 * button to `{basePath}/mfa/email`); the passkey form also carries an empty `credential` that the
 * passkey script fills. `error` comes from the URL and is shown only as its fixed sentence.
 *
 * @example
 * ```ts
 * return html(context, mfaChallengePage(context, { factors: ["totp", "backup"], csrfToken, error: url.searchParams.get("error") ?? undefined }))
 * ```
 */
export function mfaChallengePage(
  context: FactorPageContext,
  params: {
    factors: readonly ChallengeFactor[]
    csrfToken: string
    /** Why the last attempt was refused (`?error=`): untrusted. */
    error?: string | undefined
    /** The factor of the refused attempt (`?factor=`): `"backup"` shows its form open. */
    factor?: string | undefined
    /** The passkey flow's control (`SignInFlow.secondFactor`): its form's data attributes and its script element. */
    passkey?: { attributes: string; script: string } | undefined
  },
): string {
  const { factors, csrfToken } = params
  const action = escapeHtml(`${context.authUrl}/mfa/verify`)
  const button = themeButtonStyle(context.config.theme)
  const hidden = (factor: ChallengeFactor) => `${hiddenInput("csrfToken", csrfToken)}${hiddenInput("factor", factor)}`
  const error = errorLine(params.error)
  const parts: string[] = []
  if (factors.includes("totp")) {
    parts.push(
      `<form method="post" action="${action}">${hidden("totp")}${codeField("mfa-totp", "Code from your authenticator app", `Open the app and enter the 6-digit code it shows for ${escapeHtml(appName(context))}.`, ' inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" autofocus')}<button type="submit" class="button primary"${button}>Continue</button></form>`,
    )
  }
  if (factors.includes("passkey")) {
    const first = parts.length === 0
    if (!first) parts.push('<p class="or">or</p>')
    const { attributes = "", script = "" } = params.passkey ?? {}
    parts.push(
      `<form method="post" action="${action}" data-mfa-passkey${attributes}>${hidden("passkey")}<input type="hidden" name="credential" value=""><button type="submit" class="button${first ? " primary" : ""}"${first ? button : ""}>Use a passkey</button><p class="error" role="alert" data-passkey-error hidden></p></form>${script}`,
    )
  }
  if (factors.includes("email")) parts.push(...emailParts(context, params, parts.length === 0))
  if (factors.includes("backup")) {
    const only = parts.length === 0
    const form = `<form method="post" action="${action}">${hidden("backup")}${codeField("mfa-backup", "Backup code", "One of the codes you saved when you turned on two-step sign-in. Each works once.", ` autocomplete="off" autocapitalize="none" spellcheck="false"${only ? " autofocus" : ""}`)}<button type="submit" class="button${only ? " primary" : ""}"${only ? button : ""}>Use this backup code</button></form>`
    parts.push(only ? form : `<details${params.factor === "backup" ? " open" : ""}><summary>Use a backup code instead</summary>${form}</details>`)
  }
  const signIn = escapeHtml(`${context.authUrl}/signin`)
  return layout(
    context.config.theme,
    "Two-step sign-in",
    `<h1>Confirm it is you</h1><p>You signed in. One more step keeps your account safe.</p>${error}${parts.join("")}<p class="links"><a href="${signIn}">Start again</a></p>`,
    context.origin,
    STYLES,
  )
}

/**
 * The mailed code's part of the challenge: "Email me a code" (a post to `{basePath}/mfa/email`),
 * then the field for the code it sends, first once a code was asked for (`?factor=email`). Behind
 * "Email me a code instead" when another factor comes first, open once a code was asked for.
 */
function emailParts(context: FactorPageContext, params: { csrfToken: string; error?: string | undefined; factor?: string | undefined }, first: boolean): string[] {
  const asked = params.factor === "email"
  const button = themeButtonStyle(context.config.theme)
  const csrf = hiddenInput("csrfToken", params.csrfToken)
  const send = `<form method="post" action="${escapeHtml(`${context.authUrl}/mfa/email`)}">${csrf}<button type="submit" class="button${first && !asked ? " primary" : ""}"${first && !asked ? button : ""}>${asked ? "Email me a new code" : "Email me a code"}</button></form>`
  const sent = asked && (params.error === undefined || params.error === "") ? '<p class="notice" role="status">We emailed you a code. It can take a minute to arrive.</p>' : ""
  const field = `<form method="post" action="${escapeHtml(`${context.authUrl}/mfa/verify`)}">${csrf}${hiddenInput("factor", "email")}${codeField("mfa-email", "Code from the email", "The 6-digit code we emailed you. It works for 10 minutes.", ` inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8"${asked ? " autofocus" : ""}`)}<button type="submit" class="button${asked ? " primary" : ""}"${asked ? button : ""}>Continue</button></form>`
  const body = asked ? `${sent}${field}${send}` : `${send}${field}`
  if (first) return [body]
  return [`<details${asked ? " open" : ""}><summary>Email me a code instead</summary>${body}</details>`]
}

/** A base32 secret in groups of four, as people type it: spaces make it easier to read and are ignored by the apps. */
function readableSecret(secret: string): string {
  return (secret.replace(/[\s=]/g, "").match(/.{1,4}/g) ?? []).join(" ")
}

/**
 * The authenticator app's setup: the `otpauth://` URI as a QR code drawn here (no third-party
 * service ever sees the secret), the secret in groups of four for typing in by hand, and the
 * form that confirms the first code (`{basePath}/mfa/totp/confirm`, with the CSRF token).
 *
 * @throws {Configuration} when `uri` is too long for a QR code (see `qrSvg`).
 */
export function totpSetupPage(
  context: FactorPageContext,
  params: { secret: string; uri: string; csrfToken: string; error?: string | undefined; /** Where the browser goes once enrolled, posted back with the code. */ callbackUrl?: string | undefined },
): string {
  const name = escapeHtml(appName(context))
  const error = errorLine(params.error)
  const qr = qrSvg(params.uri, { label: `QR code that adds ${appName(context)} to your authenticator app` })
  const form = `<form method="post" action="${escapeHtml(`${context.authUrl}/mfa/totp/confirm`)}">${hiddenInput("csrfToken", params.csrfToken)}${hiddenInput("callbackUrl", params.callbackUrl)}${codeField("totp-confirm", "Code from your authenticator app", "The 6-digit code the app now shows, to check that it is set up.", ' inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8"')}<button type="submit" class="button primary"${themeButtonStyle(context.config.theme)}>Turn on two-step sign-in</button></form>`
  return layout(
    context.config.theme,
    "Set up your authenticator app",
    `<h1>Set up your authenticator app</h1>${error}<ol class="steps"><li>Open an authenticator app on your phone, or install one (your password manager may have one).</li><li>Add an account in it and scan this code.</li><li>Enter the code the app then shows.</li></ol>${qr}<p class="muted">Cannot scan? Type this key into the app instead, as a time-based key:</p><p class="secret">${escapeHtml(readableSecret(params.secret))}</p>${form}<p class="muted">The app makes a new code every 30 seconds for ${name}. Each sign-in will ask for one.</p>`,
    context.origin,
    STYLES,
  )
}

/** `url` when it is an http(s) URL (or a path) on any origin, else the app's home page: never a `javascript:` link. */
function safeLink(url: string, context: FactorPageContext): string {
  try {
    const parsed = new URL(url, context.origin)
    if (parsed.protocol === "https:" || parsed.protocol === "http:") return parsed.href
  } catch {
    // Not a URL: the home page below.
  }
  return homePage(context.config.theme, context.origin)
}

/**
 * The backup codes, shown once: each in the list, a download of them all as a text file (a
 * `data:` link: no script), plain words about keeping them, and the way on (`continueUrl`).
 *
 * @example
 * ```ts
 * return html(context, backupCodesPage(context, { codes, continueUrl: callbackUrl }))
 * ```
 */
export function backupCodesPage(context: FactorPageContext, params: { codes: readonly string[]; continueUrl: string }): string {
  const name = appName(context)
  const file = `${name}: backup codes for two-step sign-in.\nEach code works once. Keep this file somewhere safe.\n\n${params.codes.join("\n")}\n`
  const fileName = `${name.toLowerCase().replace(/[^a-z0-9.-]+/g, "-").replace(/^-+|-+$/g, "") || "site"}-backup-codes.txt`
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(file)}`
  const list = params.codes.map((code) => `<li>${escapeHtml(code)}</li>`).join("")
  return layout(
    context.config.theme,
    "Your backup codes",
    `<h1>Save your backup codes</h1><p>If you lose your phone, a backup code signs you in instead of the app. Each code works once.</p><p class="notice" role="status">This is the only time you will see these codes. Save them now, in a password manager or on paper somewhere safe.</p><ul class="codes" aria-label="Backup codes">${list}</ul><p class="muted">Select the codes to copy them, or download them as a file.</p><a class="button" href="${escapeHtml(download)}" download="${escapeHtml(fileName)}">Download the codes</a><a class="button primary" href="${escapeHtml(safeLink(params.continueUrl, context))}"${themeButtonStyle(context.config.theme)}>I have saved my codes</a>`,
    context.origin,
    STYLES,
  )
}
