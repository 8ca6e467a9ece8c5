/**
 * What each route does, keyed as the source declares it (`"<METHOD> <action or flow route>"`).
 * One action may serve several paths (`POST signin` is the page's form and a provider's sign-in),
 * so each key holds one row per path. `routes.ts` fails when a declared route has no row here or
 * a row names a route the source no longer has.
 */

/** One path of a route and what it does. */
export interface RouteDoc {
  path: string
  does: string
  /** The `rateLimit.perClient` rule its requests count against. */
  limit?: string
}

export const ROUTE_DOCS: Record<string, readonly RouteDoc[]> = {
  "GET providers": [{ path: "/providers", does: "The configured providers as JSON: id, name, type, sign-in and callback URLs (no secrets)." }],
  "GET csrf": [{ path: "/csrf", does: "A CSRF token as JSON (`{ csrfToken }`), and the cookie it is checked against." }],
  "GET signin": [{ path: "/signin", does: "The built-in sign-in page (or a redirect to `pages.signIn`): a button or form per provider, the error of a failed attempt." }],
  "POST signin": [
    { path: "/signin", does: "The sign-in page again (a form without a provider)." },
    { path: "/signin/:id", does: "Starts a sign-in with a provider: the redirect to an OAuth or OpenID provider, or the sign-in mail. CSRF-checked.", limit: "signIn" },
  ],
  "GET callback": [{ path: "/callback/:id", does: "Where a provider sends the browser back (OAuth code, email link token): checks it and starts the session.", limit: "callback" }],
  "POST callback": [{ path: "/callback/:id", does: "A provider that posts its callback (`form_post`, Apple), a credentials form or a passkey's answer.", limit: "callback" }],
  "GET session": [{ path: "/session", does: "The session as JSON (`null` when signed out), shaped by the `session` callback; renews a sliding session's cookie." }],
  "POST session": [{ path: "/session", does: "Updates the session with data from the browser (`update()`): runs the `jwt` callback with `trigger: \"update\"`. CSRF-checked.", limit: "sessionUpdate" }],
  "GET sessions": [{ path: "/sessions", does: "The signed-in user's sessions (devices) as JSON: browser, address, created and last seen, which one is this one. Needs an adapter that keeps session records." }],
  "POST sessions": [{ path: "/sessions/revoke", does: "Ends one of the user's sessions, every other one, or all of them (sign out everywhere). CSRF-checked." }],
  "GET signout": [{ path: "/signout", does: "The built-in sign-out page (or a redirect to `pages.signOut`): a button that posts the sign-out." }],
  "POST signout": [{ path: "/signout", does: "Ends the session (and, per provider options, the provider's session or tokens). CSRF-checked." }],
  "GET signout-callback": [{ path: "/signout/callback/:id", does: "Where an OpenID provider's own sign-out (`endSessionOnSignOut`) sends the browser back; goes on to the app's `callbackUrl`." }],
  "GET error": [{ path: "/error", does: "The built-in error page for an error code (or a redirect to `pages.error`)." }],
  "GET verify-request": [{ path: "/verify-request", does: "The \"check your email\" page shown after a sign-in link was sent (or `pages.verifyRequest`)." }],
  "GET mfa": [
    { path: "/mfa", does: "The second factor's challenge of a pending sign-in (`mfa`): a code from the authenticator app or a backup code; JSON `{ factors }` for `Accept: application/json`." },
    { path: "/mfa/setup", does: "The page that starts setting up an authenticator app (a recent sign-in, or under `mfa.required` the pending sign-in of a user with no factor)." },
  ],
  "POST mfa": [
    { path: "/mfa/verify", does: "Completes a pending sign-in with a TOTP, backup or mailed code and goes to the original `callbackUrl`; 5 wrong codes end it. CSRF-checked.", limit: "callback" },
    { path: "/mfa/email", does: "Mails a 6-digit code for the pending sign-in (`mfa.factors: [\"email\"]`; 10 minutes, 3 tries; never after an email link) and goes back to `/mfa`; the same answer whether or not the mail went out. CSRF-checked.", limit: "signIn" },
    { path: "/mfa/totp/setup", does: "A new authenticator-app secret and its `otpauth://` URI (QR code on the page); 409 when one is set up already." },
    { path: "/mfa/totp/confirm", does: "Confirms the authenticator app with its first code and shows the backup codes, once." },
    { path: "/mfa/backup-codes", does: "Replaces every backup code with ten new ones (a recent sign-in at level 2)." },
    { path: "/mfa/remove", does: "Removes a second factor (a recent sign-in at level 2; never the last one under `mfa.required`)." },
  ],
  "GET accounts": [{ path: "/accounts", does: "The signed-in user's linked accounts as JSON (provider and account id, never tokens)." }],
  "POST accounts": [{ path: "/accounts/unlink", does: "Unlinks one of the user's accounts, never the last way in; revokes its tokens with `revokeTokensOnSignOut`. CSRF-checked." }],
  "GET reauth": [
    { path: "/reauth", does: "The re-authentication page: the signed-in user's ways to prove it is still them (passkey, authenticator app, password, a linked OpenID provider, an email link); JSON `{ methods }` for `Accept: application/json`." },
    { path: "/reauth/:id", does: "A passkey's options naming only the signed-in user's passkeys; an emailed re-authentication link's confirmation page.", limit: "passkeyOptions" },
  ],
  "POST reauth": [
    { path: "/reauth/:id", does: "Proves the signed-in user again through a provider (a password form, an OpenID provider's fresh login, an email link) or, at `/reauth/totp`, an authenticator app's code; raises the same session. CSRF-checked.", limit: "signIn" },
  ],
  "GET account": [
    { path: "/account/email/confirm", does: "The page an email change's link opens: the new address and a form that applies it (opening it changes nothing, so a mail scanner cannot)." },
  ],
  "POST account": [
    { path: "/account/email", does: "Asks to change the signed-in user's address (a recent sign-in, level 2 with a second factor): a one-hour link to the new address; the same answer whatever the address. CSRF-checked.", limit: "signIn" },
    { path: "/account/email/confirm", does: "Applies the change the link names, once, in any browser; tells the old address. CSRF-checked.", limit: "callback" },
    { path: "/account/delete", does: "Deletes the signed-in user's account, sign-in methods, sessions, factors and the address's sign-in links (a recent sign-in, level 2 with a second factor). CSRF-checked." },
  ],
  "GET password": [
    { path: "/password/signup", does: "`Password()`'s sign-up page (`?sent=1`: \"check your email\"). Served only with a `Password()` provider." },
    { path: "/password/verify", does: "The page a mailed confirmation link opens: its button confirms the address." },
    { path: "/password/reset-request", does: "The \"forgot your password?\" page." },
    { path: "/password/reset", does: "The page a mailed reset link opens: the new-password form." },
    { path: "/password/change", does: "The signed-in user's change-password form." },
  ],
  "POST password": [
    { path: "/password/signup", does: "Creates a password account and mails the link that confirms its address; a taken address is answered alike. CSRF-checked.", limit: "password" },
    { path: "/password/verify", does: "Confirms the address of the mailed link, once; signs nobody in. CSRF-checked.", limit: "password" },
    { path: "/password/reset-request", does: "Mails a reset link (single use, 15 minutes) to the address's account, if there is one; answered alike either way. CSRF-checked.", limit: "password" },
    { path: "/password/reset", does: "Sets a new password with a reset link's token; ends every session of the user and signs nobody in. CSRF-checked.", limit: "password" },
    { path: "/password/change", does: "Changes the signed-in user's password (the current one, a recent sign-in); ends every other session. CSRF-checked.", limit: "password" },
  ],
  "POST backchannel-logout": [{ path: "/backchannel-logout/:id", does: "OpenID Connect Back-Channel Logout: the provider posts a signed logout token and the user's sessions end on every instance (`backchannelLogout: true`)." }],
  "GET webauthn-options": [{ path: "/webauthn-options/:id", does: "A passkey challenge (authentication or registration options) for the browser's WebAuthn call.", limit: "passkeyOptions" }],
  "GET webauthn-credentials": [{ path: "/webauthn-credentials/:id", does: "The signed-in user's passkeys as JSON: name, created, last used." }],
  "POST webauthn-credentials": [{ path: "/webauthn-credentials/:id", does: "Renames or deletes one of the user's passkeys (never the last way in). CSRF-checked." }],
  "GET webauthn-script": [{ path: "/webauthn-script/:id", does: "The sign-in page's passkey script, served by `Auth()` itself (no CDN; the page's CSP admits only it)." }],
}
