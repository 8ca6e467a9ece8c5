import { createHash } from "node:crypto"

/** Escapes text for use in HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;")
}

const STYLE = `
:root { color-scheme: light dark; --accent: #2f5bd3; --text: #1f2328; --bg: #fff; --muted: #595959; --border: #8c8c8c; --error: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --text: #ececec; --bg: #16181d; --muted: #b8bcc4; --border: #80868f; --error: #ffb4ab; } }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem 1rem; display: flex; justify-content: center; background: var(--bg); color: var(--text); }
main { width: 100%; max-width: 26rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
.subtitle { color: var(--muted); margin: 0 0 1.5rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input { display: block; width: 100%; font: inherit; padding: 0.5rem 0.6rem; margin-top: 0.25rem; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--text); }
button { font: inherit; font-weight: 600; width: 100%; padding: 0.6rem; margin-top: 1.25rem; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: inherit; border: 1px solid var(--border); margin-top: 0.5rem; }
.error { color: var(--error); border: 1px solid var(--error); border-radius: 6px; padding: 0.5rem 0.75rem; }
table { width: 100%; border-collapse: collapse; margin-top: 0.5rem; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid var(--border); }
code { font-size: 0.9em; }
ul.scopes { padding-left: 1.25rem; }
section { margin-top: 2rem; }
h2 { font-size: 1rem; margin: 0; }
.note { color: var(--muted); font-size: 0.85rem; }
.lead { font-size: 1.0625rem; margin: 0 0 1rem; }
`

/** Pages carry no script, and their only inline style is allowed by hash. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ")

function layout(title: string, heading: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · ${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`
}

/** What the login page lists under "Demo accounts". */
export interface AccountHint {
  name: string
  email: string
  emailVerified: boolean
  password: string
}

/** Inputs of {@link renderLoginPage}. */
export interface LoginPageInput {
  title: string
  uid: string
  clientName: string
  accounts: readonly AccountHint[]
  login?: string
  error?: string
}

/** The login page: one form posting `login` and `password`, then the demo accounts to copy from. */
export function renderLoginPage(input: LoginPageInput): string {
  const uid = encodeURIComponent(input.uid)
  const error = input.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(input.error)}</p>\n`
  const rows = input.accounts
    .map(
      (account) =>
        `<tr><td>${escapeHtml(account.name)}</td><td><code>${escapeHtml(account.email)}</code>${
          account.emailVerified ? "" : ' <span class="note">(unverified)</span>'
        }</td><td><code>${escapeHtml(account.password)}</code></td></tr>`,
    )
    .join("\n")
  return layout(
    input.title,
    "Sign in",
    `<h1>Sign in</h1>
<p class="subtitle">to continue to <strong>${escapeHtml(input.clientName)}</strong> with ${escapeHtml(input.title)}</p>
${error}<form method="post" action="/interaction/${uid}/login">
<label for="login">Email</label>
<input id="login" name="login" type="text" autocomplete="username" autofocus required value="${escapeHtml(input.login ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${uid}/abort">
<button type="submit" class="secondary">Cancel</button>
</form>
<section>
<h2>Demo accounts</h2>
<p class="note">This is a local test identity provider; these passwords are shown on purpose.</p>
<table>
<thead><tr><th>Name</th><th>Email</th><th>Password</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`,
  )
}

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: "Know who you are (your account identifier)",
  email: "See your email address",
  profile: "See your name and picture",
  offline_access: "Stay connected when you are not using it",
}

/** Inputs of {@link renderConsentPage}. */
export interface ConsentPageInput {
  title: string
  uid: string
  clientName: string
  accountLabel: string
  scopes: readonly string[]
  claims: readonly string[]
}

/** The consent page: "Allow" (the first form) or "Deny". */
export function renderConsentPage(input: ConsentPageInput): string {
  const uid = encodeURIComponent(input.uid)
  const items = [
    ...input.scopes.map((scope) => SCOPE_DESCRIPTIONS[scope] ?? `Use the "${scope}" scope`),
    ...input.claims.map((claim) => `Read the "${claim}" claim`),
  ]
  const list = items.length === 0 ? "" : `<ul class="scopes">\n${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("\n")}\n</ul>`
  return layout(
    input.title,
    "Allow access",
    `<h1>Allow access?</h1>
<p class="lead" data-consent-request><strong>${escapeHtml(input.clientName)}</strong> wants to access your ${escapeHtml(input.title)} account <strong>${escapeHtml(input.accountLabel)}</strong>. It will be able to:</p>
${list}
<form method="post" action="/interaction/${uid}/confirm">
<button type="submit">Allow</button>
</form>
<form method="post" action="/interaction/${uid}/abort">
<button type="submit" class="secondary">Deny</button>
</form>`,
  )
}

/** An error page for failed requests and interactions. */
export function renderErrorPage(title: string, error: string, description: string | undefined): string {
  return layout(
    title,
    "Error",
    `<h1>Something went wrong</h1>
<p class="error" role="alert"><code>${escapeHtml(error)}</code>${description === undefined ? "" : `: ${escapeHtml(description)}`}</p>
<p class="note">Go back to the application and start signing in again.</p>`,
  )
}

/**
 * The RP-initiated logout confirmation page. `form` is oidc-provider's hidden form (it carries the
 * xsrf token); the buttons join it through their `form` attribute.
 */
export function renderLogoutPage(title: string, form: string, formId: string): string {
  return layout(
    title,
    "Sign out",
    `<h1>Sign out?</h1>
<p class="subtitle">Do you want to sign out of ${escapeHtml(title)}?</p>
${form}
<button type="submit" form="${escapeHtml(formId)}" name="logout" value="yes">Sign out</button>
<button type="submit" form="${escapeHtml(formId)}" class="secondary">Stay signed in</button>`,
  )
}

/** Shown after an RP-initiated logout without a `post_logout_redirect_uri`. */
export function renderLoggedOutPage(title: string): string {
  return layout(title, "Signed out", `<h1>Signed out</h1>\n<p class="subtitle">You have been signed out of ${escapeHtml(title)}.</p>`)
}

const AVATAR_COLORS = ["#2f5bd3", "#0b8a6b", "#b3541e", "#7b3fc4", "#b3261e", "#3d6b1f"]

/** A small SVG avatar with the account's initials, so `picture` works offline. */
export function renderAvatar(name: string): string {
  const initials = name
    .split(/\s+/u)
    .filter((part) => part !== "")
    .slice(0, 2)
    .map((part) => String.fromCodePoint(part.codePointAt(0) ?? 0x3f).toUpperCase())
    .join("")
  let hash = 0
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  const color = AVATAR_COLORS[hash % AVATAR_COLORS.length] ?? "#2f5bd3"
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="${color}"/><text x="48" y="60" font-family="system-ui, sans-serif" font-size="40" font-weight="600" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`
}
