/**
 * The app's own pages, rendered on the server: home, the protected page, not found and error.
 * Every value is escaped; the only script is the static `/assets/client.js`.
 */
import type { AccessToken, Session, SessionStrategy } from "@portcullis/core"

import { DEFAULT_ACCOUNTS } from "@portcullis/dev-idp"

import { AUTH_BASE_PATH } from "./auth.js"
import { DEMO_PROVIDER_ID } from "./demo-idp.js"
import { DEMO_USERNAME } from "./demo-user.js"
import type { EmailDelivery } from "./email.js"
import type { ProviderStatus } from "./providers.js"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

/** The stylesheet of every page, served as `/assets/style.css`. */
export const STYLESHEET = `:root{color-scheme:light dark;--brand:#2f5bd3;--link:#1d4ed8;--text:#111827;--muted:#4b5563;--card:#fff;--bg:#f3f4f6;--border:#d1d5db;--alert:#b91c1c}
@media (prefers-color-scheme:dark){:root{--link:#93b4ff;--text:#f3f4f6;--muted:#b4bcc8;--card:#1f2937;--bg:#111827;--border:#4b5563;--alert:#fca5a5}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--text)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.9rem 1.5rem;background:var(--card);border-bottom:1px solid var(--border)}
header .brand{font-weight:700;margin-right:auto;color:inherit;text-decoration:none}
header nav{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}
header a{color:var(--link);text-decoration:none}
@media (max-width:30rem){header{padding:.75rem;column-gap:.75rem;font-size:.9375rem}header nav{column-gap:.75rem}}
main{max-width:42rem;margin:2rem auto;padding:0 1rem}
main a{color:var(--link)}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;padding:1.5rem;margin-bottom:1.25rem;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
.muted{color:var(--muted)}
.user{display:flex;gap:1rem;align-items:center;margin:1rem 0}
.avatar{width:72px;height:72px;flex:none;border-radius:50%;object-fit:cover}
.avatar.initials{display:grid;place-items:center;background:var(--brand);color:#fff;font-size:1.6rem;font-weight:700;letter-spacing:.02em}
.user .name{font-size:1.2rem;font-weight:600;margin:0}
.user .email{margin:0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}
.button{display:inline-block;padding:.6rem 1.1rem;border-radius:8px;border:1px solid var(--border);background:transparent;color:inherit;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
main a.button{color:inherit}
.button.primary,main a.button.primary{background:var(--brand);border-color:var(--brand);color:#fff}
.button:disabled{opacity:.6;cursor:progress}
.button.danger{border-color:var(--alert);color:var(--alert)}
input[type=email]{flex:1 1 14rem;min-width:0;padding:.6rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--bg);color:inherit;font:inherit}
label{font-weight:600}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.85rem;font-weight:600}
.badge.on{background:#dcfce7;color:#166534}
.badge.off{background:#fee2e2;color:#991b1b}
ul.providers,ul.devices{list-style:none;padding:0;margin:.5rem 0 0}
ul.providers li,ul.devices li{padding:.35rem 0;border-bottom:1px solid var(--border)}
ul.providers li:last-child{border-bottom:0}
code,pre{font:.9em ui-monospace,monospace}
pre{background:var(--bg);border-radius:8px;padding:1rem;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}
[role=status]:empty{display:none}
[role=status]{color:var(--alert)}
`

/** The app's icon (a padlock), served as `/favicon.svg` and, for pages that do not link it, `/favicon.ico`. */
export const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f5bd3"/><path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="#fff" stroke-width="2.5"/><rect x="8" y="14" width="16" height="12" rx="2.5" fill="#fff"/><circle cx="16" cy="20" r="2" fill="#2f5bd3"/></svg>`

/** The Content-Security-Policy of the app's pages: own script and style only, images also from `imageSources`. */
export function pagePolicy(imageSources: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Profile pictures: https from real providers, the Dev IdP's own http origin on loopback.
    `img-src ${["'self'", "https:", "data:", ...imageSources].join(" ")}`,
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ")
}

interface LayoutOptions {
  title: string
  signedIn: boolean
  /** Loads `/assets/client.js`, for pages with client-side buttons. */
  clientScript?: boolean
}

/** The brand is the link home: no second "Home" link, so the header fits one line on a 390 px phone. */
function layout(options: LayoutOptions, body: string): string {
  const account = options.signedIn
    ? `<a href="${AUTH_BASE_PATH}/signout">Sign out</a>`
    : `<a href="${AUTH_BASE_PATH}/signin">Sign in</a>`
  const script = options.clientScript === true ? `\n<script type="module" src="/assets/client.js"></script>` : ""
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Auth example</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/style.css">${script}
</head>
<body>
<header><a class="brand" href="/">Auth example</a><nav aria-label="Main"><a href="/protected">Protected</a><a href="/account">Account</a>${account}</nav></header>
<main>
${body}
</main>
</body></html>
`
}

/** An image URL worth putting in `src`: http(s) only. */
function imageUrl(value: string | null | undefined): string | undefined {
  if (typeof value !== "string") return undefined
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined
  } catch {
    return undefined
  }
}

/** Up to two letters that stand for the user: the initials of the name, else the email's first letter. */
export function initials(user: { name?: string | null; email?: string | null }): string {
  const words = (user.name ?? "").trim().split(/\s+/u).filter((word) => word.length > 0)
  const picked = words.length === 0 ? [user.email ?? "?"] : words.length === 1 ? words : [words[0] ?? "", words.at(-1) ?? ""]
  return picked.map((word) => Array.from(word)[0] ?? "").join("").toLocaleUpperCase("en")
}

/** The signed-in user: picture (or initials when the provider shares none), name and email. */
function userCard(user: NonNullable<Session["user"]>): string {
  const image = imageUrl(user.image)
  const picture =
    image === undefined
      ? `<span class="avatar initials" aria-hidden="true" data-testid="avatar-initials">${escapeHtml(initials(user))}</span>`
      : `<img class="avatar" src="${escapeHtml(image)}" alt="" width="72" height="72">`
  const name = user.name ?? "(no name shared)"
  const email = user.email ?? "(no email shared)"
  return `<div class="user" data-testid="user">${picture}<div><p class="name" data-testid="user-name">${escapeHtml(name)}</p><p class="email muted" data-testid="user-email">${escapeHtml(email)}</p></div></div>`
}

/** What the home page shows. */
export interface HomeView {
  session: Session | null
  sessionStrategy: SessionStrategy
  /** The Dev IdP's issuer URL. */
  demoIdpUrl: string
  /** The optional providers, each with whether its credentials are set. */
  providers: readonly ProviderStatus[]
  /** How sign-in links are delivered. */
  emailDelivery: EmailDelivery
  /** Where database sessions live. Default `"memory"`. */
  sessionStore?: SessionStore
}

/** Where the app keeps users and database sessions: the memory adapter, or PostgreSQL (`DATABASE_URL`). */
export type SessionStore = "memory" | "postgres"

// The Dev IdP starts with dev-idp's default accounts: the hint reads them there, so it cannot drift.
const DEMO_IDP_ACCOUNTS = DEFAULT_ACCOUNTS.map(
  (account) => `<code>${escapeHtml(account.email)}</code> / <code>${escapeHtml(account.password)}</code>`,
).join(" or ")

const EMAIL_STATUS: Record<EmailDelivery, string> = {
  smtp: `<span class="badge on">on</span> <span class="muted">links are emailed through <code>AUTH_EMAIL_SERVER</code></span>`,
  terminal: `<span class="badge on">on</span> <span class="muted">links are printed in the terminal; set <code>AUTH_EMAIL_SERVER</code> and <code>AUTH_EMAIL_FROM</code> to email them</span>`,
  off: `<span class="badge off">off</span> <span class="muted">set <code>AUTH_EMAIL_SERVER</code> and <code>AUTH_EMAIL_FROM</code></span>`,
}

/** The home page: the session, the custom Dev IdP button, and which providers are on. */
export function renderHome(view: HomeView): string {
  const user = view.session?.user
  const strategy = `<span class="muted">(${view.sessionStrategy === "jwt" ? "JWT session: an encrypted cookie" : `database session, in ${view.sessionStore === "postgres" ? "PostgreSQL" : "the memory adapter"}`})</span>`
  const status =
    user === undefined
      ? `<h1>You are not signed in</h1>
<p class="muted" data-testid="state">Signed out.</p>
<div class="actions">
<button type="button" class="button primary" data-sign-in="${DEMO_PROVIDER_ID}" disabled>Sign in with Dev IdP</button>
<a class="button" href="${AUTH_BASE_PATH}/signin">All sign-in options</a>
</div>
<p role="status" data-sign-in-status></p>
<p class="muted">The Dev IdP is a real OpenID Provider running on your machine at <a href="${escapeHtml(view.demoIdpUrl)}/.well-known/openid-configuration">${escapeHtml(view.demoIdpUrl)}</a>. Sign in as ${DEMO_IDP_ACCOUNTS}.</p>
<p class="muted">On <a href="${AUTH_BASE_PATH}/signin">the sign-in page</a> you can also sign in as the demo user <code>${DEMO_USERNAME}</code>, with the password printed in the terminal at start (or your <code>DEMO_USER_PASSWORD</code>), ask for a sign-in link by email, or create a passkey.</p>`
      : `<h1>You are signed in</h1>
<p class="muted" data-testid="state">Signed in ${strategy}</p>
${userCard(user)}
<div class="actions">
<a class="button primary" href="/protected">Open the protected page</a>
<a class="button" href="/token">Dev IdP token</a>
<a class="button" href="${AUTH_BASE_PATH}/signout">Sign out</a>
</div>`
  const providers = view.providers
    .map((provider) =>
      provider.enabled
        ? `<li>${escapeHtml(provider.name)} <span class="badge on">on</span></li>`
        : `<li>${escapeHtml(provider.name)} <span class="badge off">off</span> <span class="muted">set ${provider.variables.map((name) => `<code>${escapeHtml(name)}</code>`).join(" and ")}</span></li>`,
    )
    .join("\n")
  return layout(
    { title: "Home", signedIn: user !== undefined, clientScript: user === undefined },
    `<section class="card">
${status}
</section>
<section class="card">
<h2>Providers</h2>
<ul class="providers">
<li>Dev IdP <span class="badge on">on</span> <span class="muted">always, offline</span></li>
<li>Demo user (username and password) <span class="badge on">on</span> <span class="muted">always: <code>${DEMO_USERNAME}</code>, with the password printed at start</span></li>
<li>Email sign-in link ${EMAIL_STATUS[view.emailDelivery]}</li>
<li>Passkeys <span class="badge on">on</span> <span class="muted">always: create one on the sign-in page${view.emailDelivery === "off" ? "" : "; the address is confirmed by a link first"}</span></li>
${providers}
</ul>
<p class="muted">Real providers switch on when their credentials are in <code>apps/example/.env</code>: see <code>apps/example/.env.example</code>.</p>
</section>`,
  )
}

/** The protected page, shown only with a session. */
export function renderProtected(session: Session): string {
  const user = session.user ?? {}
  return layout(
    { title: "Protected page", signedIn: true },
    `<section class="card">
<h1>Protected page</h1>
<p class="muted">Only signed-in users see this page; without a session it sends you to sign in.</p>
${userCard(user)}
<p><a href="/devices">Signed-in devices</a> · <a href="/settings">Two-step sign-in</a></p>
<h2>The session</h2>
<pre data-testid="session" tabindex="0">${escapeHtml(JSON.stringify(session, null, 2))}</pre>
</section>`,
  )
}

/** What the settings page shows. */
export interface SettingsView {
  session: Session
  /** The user confirmed an authenticator app. */
  authenticator: boolean
  /** Backup codes the user has left. */
  backupCodes: number
}

/** The ways the session's user proved who they are, in words. */
const METHOD_NAMES: Record<string, string> = { fed: "an identity provider", email: "an email link", pwd: "a password", hwk: "a passkey", otp: "an authenticator code", kba: "a backup code" }

/**
 * The settings page: whether two-step sign-in is on (an authenticator app, and backup codes
 * left), how this session signed in, and the way to core's pages that turn it on, make new
 * backup codes or turn it off (each asks for a recent sign-in first).
 */
export function renderSettings(view: SettingsView): string {
  return layout(
    { title: "Settings", signedIn: true },
    `<section class="card">
<h1>Settings</h1>
<h2>Two-step sign-in</h2>
${twoStep(view, "/settings")}
</section>`,
  )
}

/**
 * Whether two-step sign-in is on (with the backup codes left), how this session signed in, and
 * the way to core's pages that manage it, which come back to `back`: the settings and the account page show this.
 */
function twoStep(view: SettingsView, back: string): string {
  const manage = `${AUTH_BASE_PATH}/mfa/setup?${new URLSearchParams({ callbackUrl: back }).toString()}`
  const methods = (view.session.assurance?.methods ?? []).filter((method) => Object.hasOwn(METHOD_NAMES, method)).map((method) => METHOD_NAMES[method] ?? method)
  const how = methods.length === 0 ? "" : `<p class="muted" data-testid="signed-in-with">This session signed in with ${escapeHtml(methods.join(" and "))}.</p>`
  const state = view.authenticator
    ? `<p data-testid="two-step">Status: <span class="badge on">on</span></p>
<p class="muted">Each sign-in asks for a code from your authenticator app after the first step. Backup codes left: <strong data-testid="backup-codes-left">${String(view.backupCodes)}</strong>.</p>
<div class="actions"><a class="button" href="${manage}">Manage two-step sign-in</a></div>`
    : `<p data-testid="two-step">Status: <span class="badge off">off</span></p>
<p class="muted">Turn it on to be asked, after every sign-in, for a code from an authenticator app on your phone. You also get backup codes for when the phone is not at hand.</p>
<div class="actions"><a class="button primary" href="${manage}">Turn on two-step sign-in</a></div>`
  return `${state}
${how}`
}

/** One signed-in device as the devices page shows it (core's `SessionInfo`). */
export interface DeviceView {
  id: string
  device: string
  createdAt: string
  lastSeenAt: string
  clientAddress: string | null
  current: boolean
  provider: { id: string; name: string | null } | null
}

/**
 * A time as people read it: `/assets/client.js` rewrites it in the browser's own time zone and
 * language; the server's text, in UTC, is what shows without the script.
 */
function when(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}" data-local-time>${escapeHtml(`${iso.slice(0, 16).replace("T", " ")} UTC`)}</time>`
}

/**
 * The "Signed-in devices" page: every session of the user, this one marked, the others each with
 * a button that signs that device out. Every value is escaped: the device names are fixed words,
 * but the ids and provider names come from the store.
 */
export function renderDevices(devices: readonly DeviceView[]): string {
  return layout(
    { title: "Signed-in devices", signedIn: true, clientScript: true },
    `<section class="card">
<h1>Signed-in devices</h1>
<p class="muted">Where you are signed in now. Signing a device out ends its session: its next page asks it to sign in again.</p>
${deviceList(devices)}
</section>`,
  )
}

/** The user's sessions, this one marked, each other with its sign-out button: the devices page and the account page show this. */
function deviceList(devices: readonly DeviceView[]): string {
  const rows = devices
    .map((device) => {
      // What tells two "Chrome on Linux" apart: this one, where and how each signed in, and when.
      const how = device.provider === null ? "Signed in" : `Signed in with ${escapeHtml(device.provider.name ?? device.provider.id)}`
      const from = device.clientAddress === null ? "" : ` from <code>${escapeHtml(device.clientAddress)}</code>`
      const seen = device.current ? "Active now" : `Last active ${when(device.lastSeenAt)}`
      const action = device.current
        ? `<span class="badge on">This device</span>`
        : `<button type="button" class="button" data-revoke-session="${escapeHtml(device.id)}" disabled>Sign out this device</button>`
      return `<li data-testid="device"${device.current ? ` data-current="true"` : ""}><strong>${escapeHtml(device.device)}</strong> ${action}<br><span class="muted">${how}${from} on ${when(device.createdAt)} · ${seen}</span></li>`
    })
    .join("\n")
  const others = devices.some((device) => !device.current)
    ? `<p><button type="button" class="button" data-revoke-others disabled>Sign out everywhere else</button></p>`
    : `<p class="muted">No other device is signed in.</p>`
  return `<ul class="devices">
${rows}
</ul>
${others}
<p role="status" data-devices-status></p>`
}

/** One of the user's accounts at a provider (core's `GET /accounts`), with the provider's name. */
export interface LinkedAccountView {
  provider: string
  providerAccountId: string
  name: string
  /** It is the user's last way to sign in, so core refuses to unlink it. */
  lastSignInMethod: boolean
}

/** One of the user's passkeys (core's `GET /webauthn-credentials/passkey`). */
export interface PasskeyView {
  id: string
  name: string
  createdAt: string | null
  lastUsedAt: string | null
}

/** What the account page shows. */
export interface AccountView {
  session: Session
  devices: readonly DeviceView[]
  accounts: readonly LinkedAccountView[]
  /** The OAuth providers the user has no account at, which they can link while signed in. */
  linkable: readonly { id: string; name: string }[]
  /** `undefined` when the app has no passkey provider. */
  passkeys: readonly PasskeyView[] | undefined
  twoStep: Omit<SettingsView, "session">
}

function linkedAccounts(view: AccountView): string {
  const rows = view.accounts.map((account) => {
    const action = account.lastSignInMethod
      ? `<span class="muted">your only way to sign in: add a passkey or link another account before unlinking it</span>`
      : `<button type="button" class="button" data-unlink-provider="${escapeHtml(account.provider)}" data-unlink-account="${escapeHtml(account.providerAccountId)}" disabled>Unlink</button>`
    return `<li data-testid="linked-account"><strong>${escapeHtml(account.name)}</strong> ${action}</li>`
  })
  const list = rows.length === 0 ? `<p class="muted">No account at another provider is linked.</p>` : `<ul class="providers">\n${rows.join("\n")}\n</ul>`
  const link = view.linkable.map((provider) => `<button type="button" class="button" data-sign-in="${escapeHtml(provider.id)}" disabled>Link ${escapeHtml(provider.name)}</button>`).join("")
  return `${list}${link === "" ? "" : `\n<div class="actions">${link}</div>`}`
}

function passkeyList(passkeys: readonly PasskeyView[]): string {
  const rows = passkeys.map((passkey) => {
    const used = passkey.lastUsedAt === null ? "" : ` · last used ${when(passkey.lastUsedAt)}`
    const made = passkey.createdAt === null ? "" : `added ${when(passkey.createdAt)}`
    return `<li data-testid="passkey"><strong>${escapeHtml(passkey.name)}</strong> <button type="button" class="button" data-delete-passkey="${escapeHtml(passkey.id)}" disabled>Delete</button><br><span class="muted">${made}${used}</span></li>`
  })
  const list = rows.length === 0 ? `<p class="muted">You have no passkey yet.</p>` : `<ul class="devices">\n${rows.join("\n")}\n</ul>`
  return `${list}\n<div class="actions"><button type="button" class="button primary" data-add-passkey disabled>Add a passkey</button></div>`
}

/**
 * The account page: who is signed in, the email address (change), the devices, the linked
 * accounts (unlink, link another), the passkeys (add, delete), two-step sign-in (core's pages),
 * and deleting the account. What changes how the user signs
 * in asks for a recent sign-in: the script sends the user to core's `/reauth` when core answers
 * `ReauthRequired`, and back here afterwards.
 */
export function renderAccount(view: AccountView): string {
  const user = view.session.user ?? {}
  return layout(
    { title: "Account", signedIn: true, clientScript: true },
    `<section class="card">
<h1>Account</h1>
${userCard(user)}
<p class="muted">A change to how you sign in asks you to confirm it is you when you last signed in more than 10 minutes ago. Each one is also told to your email address.</p>
<p role="status" data-account-status data-sign-in-status></p>
</section>
<section class="card" aria-labelledby="email-heading">
<h2 id="email-heading">Email address</h2>
<p class="muted">A link goes to the new address; your address changes once you open it and confirm. The old one is told.</p>
<form data-change-email>
<label for="new-email">New email address</label>
<div class="actions"><input id="new-email" name="email" type="email" autocomplete="email" required><button type="submit" class="button" disabled>Change email</button></div>
</form>
<p role="status" data-email-status></p>
</section>
<section class="card" aria-labelledby="devices-heading">
<h2 id="devices-heading">Signed-in devices</h2>
${deviceList(view.devices)}
</section>
<section class="card" aria-labelledby="accounts-heading">
<h2 id="accounts-heading">Linked accounts</h2>
${linkedAccounts(view)}
</section>
${
  view.passkeys === undefined
    ? ""
    : `<section class="card" aria-labelledby="passkeys-heading">
<h2 id="passkeys-heading">Passkeys</h2>
${passkeyList(view.passkeys)}
</section>
`
}<section class="card" aria-labelledby="two-step-heading">
<h2 id="two-step-heading">Two-step sign-in</h2>
${twoStep({ ...view.twoStep, session: view.session }, "/account")}
</section>
<section class="card" aria-labelledby="delete-heading">
<h2 id="delete-heading">Delete your account</h2>
<p class="muted">This deletes your account, the ways you sign in and every session, on every device. It cannot be undone.</p>
<div class="actions"><button type="button" class="button danger" data-delete-account disabled>Delete my account</button></div>
</section>`,
  )
}

/** The provider token page: the Dev IdP access token core keeps fresh (never the token itself). */
export function renderToken(token: AccessToken): string {
  const expires = token.expiresAt === undefined ? undefined : new Date(token.expiresAt * 1000)
  const left = expires === undefined ? undefined : Math.max(0, Math.round((expires.getTime() - Date.now()) / 1000))
  return layout(
    { title: "Provider token", signedIn: true },
    `<section class="card">
<h1>Provider token</h1>
<p class="muted">The access token the Dev IdP issued at sign-in, as <code>getAccessToken()</code> hands it to the app for calling the provider's API. It lives 5 minutes; within 60 seconds of its expiry core refreshes it (one refresh per account, even with many requests at once) and stores the new one. Reload to watch it change.</p>
<dl>
<dt>Expires</dt><dd data-testid="token-expires" data-expires-at="${escapeHtml(String(token.expiresAt ?? ""))}">${expires === undefined ? "not said" : `${escapeHtml(expires.toISOString())} (in ${String(left)} s)`}</dd>
<dt>Scope</dt><dd>${escapeHtml(token.scope ?? "not said")}</dd>
<dt>Token</dt><dd><code data-testid="token-fingerprint">${escapeHtml(token.accessToken.slice(0, 6))}…</code> <span class="muted">(its first characters: the token itself is a secret)</span></dd>
</dl>
</section>`,
  )
}

/**
 * The provider token page of a user who did not sign in with the Dev IdP: the app holds no
 * Dev IdP token for them, and the page says so and how to get one, instead of sending them to sign in.
 */
export function renderNoToken(): string {
  return layout(
    { title: "Provider token", signedIn: true },
    `<section class="card" data-testid="no-token">
<h1>Provider token</h1>
<p>This page shows the access token the Dev IdP issued when you signed in with it. You signed in another way, so the app holds no Dev IdP token for you.</p>
<p class="muted">Signing in with the Dev IdP while you are signed in here adds it to your account; this page then shows its token.</p>
<div class="actions"><a class="button primary" href="${AUTH_BASE_PATH}/signin?callbackUrl=%2Ftoken">Sign in with the Dev IdP too</a><a class="button" href="/">Back home</a></div>
</section>`,
  )
}

/** A page for a path nothing is served at. */
export function renderNotFound(path: string): string {
  return layout(
    { title: "Not found", signedIn: false },
    `<section class="card"><h1>Not found</h1><p>Nothing is served at <code>${escapeHtml(path)}</code>. <a href="/">Home</a></p></section>`,
  )
}

/** A page for an unexpected failure; the details are in the server's log, not here. */
export function renderServerError(): string {
  return layout(
    { title: "Error", signedIn: false },
    `<section class="card"><h1>Something went wrong</h1><p>The server log says what. <a href="/">Home</a></p></section>`,
  )
}

/**
 * "Check your email" after asking for a sign-in link, naming the address when the app knows it
 * (`address`, from the request's cookie: escaped). Without an SMTP server the link is never
 * emailed: in development it is printed in the terminal, and the page says so.
 */
export function renderCheckEmail(delivery: EmailDelivery, address?: string): string {
  const to = address === undefined ? "" : ` for <strong data-testid="link-address">${escapeHtml(address)}</strong>`
  const where =
    delivery === "terminal"
      ? `<p>Your sign-in link${to} is ready. In development it is not emailed: it is printed in the terminal where the app runs (<code>pnpm dev</code>). Open it in this browser to sign in (or, after creating a passkey, to create your account or add the passkey to the one you have).</p>
<p class="muted">To email links instead, set <code>AUTH_EMAIL_SERVER</code> and <code>AUTH_EMAIL_FROM</code>.</p>`
      : `<p>We sent ${address === undefined ? "you an email with a sign-in link" : `a sign-in link to <strong data-testid="link-address">${escapeHtml(address)}</strong>`}. Open it to sign in: it works once, and only for a short time.</p>
<p class="muted">No email? Check your spam folder, or go back and ask for a new link.</p>`
  return layout(
    { title: "Check your email", signedIn: false },
    `<section class="card" data-testid="check-email"><h1>Check your email</h1>
${where}
<p><a href="${AUTH_BASE_PATH}/signin">Back to sign-in</a></p></section>`,
  )
}
