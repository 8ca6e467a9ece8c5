/**
 * `@portcullis/core/client`: the browser side. Each function talks to the routes of `Auth()`,
 * fetching the CSRF token itself.
 *
 * @example
 * ```ts
 * import { signIn, signOut, getSession } from "@portcullis/core/client"
 * button.onclick = () => signIn("github", { callbackUrl: "/dashboard" })
 * ```
 *
 * @module client
 */
import type { ClientOptions, NavigationResult, SessionInfo } from "./client-types.js"

export type { ClientOptions, NavigationResult, SessionInfo } from "./client-types.js"

/** A session as `GET /session` answers it. */
export interface ClientSession {
  user?: { id?: string; name?: string | null; email?: string | null; image?: string | null }
  expires: string
  [field: string]: unknown
}

let defaultBasePath = "/api/auth"

/** Sets where `Auth()` is mounted for every later call. */
export function configureClient(options: ClientOptions): void {
  if (options.basePath !== undefined) defaultBasePath = options.basePath.replace(/\/+$/, "")
}

function base(options: ClientOptions | undefined): string {
  return options?.basePath?.replace(/\/+$/, "") ?? defaultBasePath
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
  return response.json()
}

/** This browser's CSRF token. */
export async function getCsrfToken(options?: ClientOptions): Promise<string> {
  const body = (await getJson(`${base(options)}/csrf`)) as { csrfToken?: unknown }
  if (typeof body.csrfToken !== "string") throw new Error("GET /csrf answered no token")
  return body.csrfToken
}

/** The current session, or `null`. */
export async function getSession(options?: ClientOptions): Promise<ClientSession | null> {
  return (await getJson(`${base(options)}/session`)) as ClientSession | null
}

/**
 * Asks the server to update the session with `data` (`POST /session`): the `jwt` and `session`
 * callbacks get `trigger: "update"` and it. Resolves to the updated session, or `null`.
 *
 * @example
 * ```ts
 * await updateSession({ theme: "dark" })
 * ```
 */
export async function updateSession(data: unknown, options?: ClientOptions): Promise<ClientSession | null> {
  const url = `${base(options)}/session`
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ csrfToken: await getCsrfToken(options), data }),
  })
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
  return (await response.json()) as ClientSession | null
}

/** The configured providers, keyed by id. */
export async function getProviders(
  options?: ClientOptions,
): Promise<Record<string, { id: string; name: string; type: string; signinUrl: string; callbackUrl: string }>> {
  return (await getJson(`${base(options)}/providers`)) as Record<
    string,
    { id: string; name: string; type: string; signinUrl: string; callbackUrl: string }
  >
}

async function post(url: string, form: Record<string, string>): Promise<NavigationResult> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams(form),
  })
  const body = (await response.json().catch(() => ({}))) as { url?: unknown; error?: unknown }
  const target = typeof body.url === "string" ? body.url : location.href
  const error = typeof body.error === "string" ? body.error : new URL(target, location.href).searchParams.get("error")
  return { url: target, error, ok: response.ok && error === null }
}

/** The passkey functions the script `Auth()` serves puts here (see `@portcullis/core/webauthn/client`). */
const PASSKEYS = Symbol.for("@portcullis/core/webauthn/client")

/**
 * The passkey code, loaded only when a passkey is used: the same-origin script `Auth()` serves
 * for the built-in page, which also exposes the functions. Not an `import()`: a bundler that
 * does not split (esbuild's default) would inline it, and every app would ship it.
 */
async function loadPasskeys(basePath: string, providerId: string): Promise<typeof import("./webauthn/client.js")> {
  const scope = globalThis as { [PASSKEYS]?: typeof import("./webauthn/client.js") }
  if (scope[PASSKEYS] === undefined) {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement("script")
      script.src = `${basePath}/webauthn-script/${encodeURIComponent(providerId)}`
      script.onload = () => {
        resolve()
      }
      script.onerror = () => {
        reject(new Error(`${script.src} could not be loaded`))
      }
      document.head.append(script)
    })
  }
  const passkeys = scope[PASSKEYS]
  if (passkeys === undefined) throw new Error("The passkey script did not load.")
  return passkeys
}

/** What `signIn` takes: where to go, whether to navigate, and the form fields a provider reads. */
export type SignInOptions = ClientOptions & {
  callbackUrl?: string
  redirect?: boolean
  /** Form fields: `email` for an email provider, the declared fields for a credentials provider. */
  [field: string]: string | boolean | undefined
}

/**
 * Starts a sign-in with a provider (or opens the sign-in page when no id is given). By default
 * the browser navigates; with `redirect: false` the target URL is returned instead. Extra string
 * options are sent as form fields: a credentials provider's fields go to its callback (the
 * provider's type is read from `GET /providers`), anything else to `POST /signin/:id`.
 *
 * @example
 * ```ts
 * await signIn("email", { email: "ada@example.com" })
 * await signIn("passkey")                               // or { action: "register", email } for a new passkey
 * const result = await signIn("credentials", { username: "ada", password, redirect: false })
 * if (result?.error === "CredentialsSignin") showError()
 * ```
 */
export async function signIn(
  providerId?: string,
  options: SignInOptions = {},
  authorizationParams: Record<string, string> = {},
): Promise<NavigationResult | undefined> {
  const { basePath: _basePath, callbackUrl: requested, redirect: _redirect, ...rest } = options
  const callbackUrl = requested ?? location.href
  if (providerId === undefined) {
    location.assign(`${base(options)}/signin?${new URLSearchParams({ callbackUrl }).toString()}`)
    return undefined
  }
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(rest)) if (typeof value === "string") fields[name] = value
  const query = new URLSearchParams(authorizationParams).toString()
  let url = `${base(options)}/signin/${encodeURIComponent(providerId)}${query === "" ? "" : `?${query}`}`
  // The provider's type matters only for a form (credentials) or a passkey: ask only then.
  const type = Object.keys(fields).length > 0 || providerId === "passkey" || providerId === "webauthn" ? (await getProviders(options))[providerId]?.type : undefined
  if (type === "webauthn") {
    const { signInWithPasskey } = await loadPasskeys(base(options), providerId)
    const action = fields.action === "register" || fields.action === "authenticate" ? fields.action : undefined
    return signInWithPasskey(providerId, { basePath: base(options), callbackUrl, redirect: options.redirect !== false, action, email: fields.email })
  }
  if (type === "credentials") url = `${base(options)}/callback/${encodeURIComponent(providerId)}`
  const result = await post(url, { ...fields, csrfToken: await getCsrfToken(options), callbackUrl })
  if (options.redirect === false) return result
  location.assign(result.url)
  return undefined
}

/** Signs out (CSRF-checked) and, by default, navigates to `callbackUrl`. */
export async function signOut(
  options: ClientOptions & { callbackUrl?: string; redirect?: boolean } = {},
): Promise<NavigationResult | undefined> {
  const callbackUrl = options.callbackUrl ?? location.href
  const result = await post(`${base(options)}/signout`, { csrfToken: await getCsrfToken(options), callbackUrl })
  if (options.redirect === false) return result
  location.assign(result.url)
  return undefined
}


/** The signed-in user's sessions on every device, the current one first. Rejects when signed out (`401`). */
export async function listSessions(options?: ClientOptions): Promise<SessionInfo[]> {
  return (await getJson(`${base(options)}/sessions`)) as SessionInfo[]
}

async function revoke(target: Record<string, unknown>, options: ClientOptions | undefined): Promise<{ revoked: number; url?: string }> {
  const url = `${base(options)}/sessions/revoke`
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ ...target, csrfToken: await getCsrfToken(options) }),
  })
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
  return (await response.json()) as { revoked: number; url?: string }
}

/**
 * Ends one of the user's sessions by its `id` (from {@link listSessions}); that device is signed
 * out on its next request. Resolves to how many sessions ended (`0` for an unknown id).
 */
export async function revokeSession(id: string, options?: ClientOptions): Promise<number> {
  return (await revoke({ id }, options)).revoked
}

/** Ends every session of the user but this one. Resolves to how many ended. */
export async function revokeOtherSessions(options?: ClientOptions): Promise<number> {
  return (await revoke({ others: true }, options)).revoked
}

/**
 * Signs out on every device, this one included, then (by default) navigates to `callbackUrl`
 * (or first to the provider's own sign-out, as {@link signOut} does).
 */
export async function signOutEverywhere(options: ClientOptions & { callbackUrl?: string; redirect?: boolean } = {}): Promise<{ revoked: number; url: string }> {
  const callbackUrl = options.callbackUrl ?? location.href
  const result = await revoke({ all: true, callbackUrl }, options)
  const url = result.url ?? callbackUrl
  if (options.redirect !== false) location.assign(url)
  return { revoked: result.revoked, url }
}

/** One of the signed-in user's accounts, as {@link getAccounts} lists them. */
export interface ClientLinkedAccount {
  provider: string
  providerAccountId: string
  type: string
  /** Unlinking it would be refused (`LastSignInMethod`): it is the user's last way to sign in. */
  lastSignInMethod: boolean
}

/**
 * The signed-in user's accounts that {@link unlinkAccount} can unlink (`GET /accounts`): those at
 * OAuth 2.0, OpenID Connect and OAuth 1.0a providers the app configures, with no token.
 *
 * @throws {Error} when nobody is signed in (HTTP 401) or the server cannot list them.
 */
export async function getAccounts(options?: ClientOptions): Promise<ClientLinkedAccount[]> {
  const body = (await getJson(`${base(options)}/accounts`)) as { accounts?: ClientLinkedAccount[] }
  return body.accounts ?? []
}

/** What {@link unlinkAccount} resolves to. */
export interface UnlinkAccountResult {
  ok: boolean
  /**
   * `null` once unlinked; else the error code: `LastSignInMethod` (the user's last way to sign
   * in: add another first), `ReauthRequired` (the user must prove it is still them: see `url`),
   * `UnknownAccount`, `SignInRequired`, `MissingCSRF`, `Configuration`...
   */
  error: string | null
  /** The account that was unlinked. */
  unlinked?: { provider: string; providerAccountId: string }
  /** With `ReauthRequired`: the re-authentication page, for {@link reauthenticate}'s navigation or a link. */
  url?: string
}

/**
 * Unlinks one of the signed-in user's accounts (`POST /accounts/unlink`, CSRF-checked). Give
 * `providerAccountId` only when the user linked several accounts at the provider. Resolves with
 * the outcome; rejects only when the server cannot be reached.
 *
 * @example
 * ```ts
 * const result = await unlinkAccount("github")
 * if (result.error === "LastSignInMethod") alert("Add another way to sign in before removing GitHub.")
 * ```
 */
export async function unlinkAccount(provider: string, options: ClientOptions & { providerAccountId?: string } = {}): Promise<UnlinkAccountResult> {
  const form: Record<string, string> = { csrfToken: await getCsrfToken(options), provider }
  if (options.providerAccountId !== undefined) form.providerAccountId = options.providerAccountId
  const response = await fetch(`${base(options)}/accounts/unlink`, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  })
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; unlinked?: UnlinkAccountResult["unlinked"]; url?: unknown }
  if (response.ok && body.unlinked !== undefined) return { ok: true, error: null, unlinked: body.unlinked }
  const error = typeof body.error === "string" ? body.error : `HTTP ${String(response.status)}`
  return error === "ReauthRequired" && typeof body.url === "string" ? { ok: false, error, url: body.url } : { ok: false, error }
}

/**
 * Sends the browser to the re-authentication page (`{basePath}/reauth`), where the user proves it
 * is still them before a sensitive change, and comes back to `callbackUrl` (default: this page);
 * with `redirect: false`, answers its URL instead of navigating. A sensitive route that answered
 * `ReauthRequired` gives the same URL as its `url`.
 *
 * @example
 * ```ts
 * const result = await unlinkAccount("github")
 * if (result.error === "ReauthRequired") await reauthenticate()
 * ```
 */
export async function reauthenticate(options: ClientOptions & { callbackUrl?: string; redirect?: boolean } = {}): Promise<{ url: string }> {
  const url = new URL(`${base(options)}/reauth`, location.href)
  url.searchParams.set("callbackUrl", options.callbackUrl ?? location.href)
  if (options.redirect !== false) location.assign(url.href)
  return Promise.resolve({ url: url.href })
}

/**
 * What {@link changeEmail} and {@link deleteAccount} resolve to: done, or the error code
 * (`ReauthRequired` with `url`, the re-authentication page, for {@link reauthenticate}'s
 * navigation or a link; `SessionRequired`, `EmailSignInError`, `MissingCSRF`, `Configuration`...).
 */
export interface AccountActionResult {
  ok: boolean
  /** `null` when done; else the error code. */
  error: string | null
  /** With `ReauthRequired` (and `SessionRequired`): where to send the browser. */
  url?: string
}

/** Posts `fields` with the CSRF token to an account route and reads its JSON answer. */
async function postAccount(path: string, fields: Record<string, string>, options: ClientOptions | undefined): Promise<{ result: AccountActionResult; body: Record<string, unknown> }> {
  const response = await fetch(`${base(options)}${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, csrfToken: await getCsrfToken(options) }),
  })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (response.ok && body.ok === true) return { result: { ok: true, error: null }, body }
  const error = typeof body.error === "string" ? body.error : `HTTP ${String(response.status)}`
  return { result: typeof body.url === "string" ? { ok: false, error, url: body.url } : { ok: false, error }, body }
}

/**
 * Asks to change the signed-in user's email address (`POST /account/email`): a link goes to the
 * new address, and the address changes only once that link's page is confirmed. Resolves `{ ok:
 * true }` whatever the address is (nothing tells whether another account has it); rejects only
 * when the server cannot be reached.
 *
 * @example
 * ```ts
 * const result = await changeEmail("ada@new.example")
 * if (result.error === "ReauthRequired") await reauthenticate()
 * ```
 */
export async function changeEmail(email: string, options?: ClientOptions): Promise<AccountActionResult> {
  return (await postAccount("/account/email", { email, callbackUrl: location.href }, options)).result
}

/**
 * Deletes the signed-in user's account (`POST /account/delete`): the user, their sign-in methods
 * and every session; this browser is signed out. Where the browser has the WebAuthn Signal API,
 * its password manager is told the deleted passkeys are gone (`signalUnknownCredential`).
 * Resolves with the outcome; rejects only when the server cannot be reached.
 *
 * @example
 * ```ts
 * const result = await deleteAccount()
 * if (result.error === "ReauthRequired") await reauthenticate()
 * ```
 */
export async function deleteAccount(options?: ClientOptions): Promise<AccountActionResult> {
  const { result, body } = await postAccount("/account/delete", { callbackUrl: location.href }, options)
  const passkeys = body.passkeys as { rpId?: unknown; credentialIds?: unknown } | undefined
  const signal = (globalThis.PublicKeyCredential as { signalUnknownCredential?: (options: { rpId: string; credentialId: string }) => Promise<void> } | undefined)?.signalUnknownCredential
  if (result.ok && typeof signal === "function" && typeof passkeys?.rpId === "string" && Array.isArray(passkeys.credentialIds)) {
    for (const credentialId of passkeys.credentialIds) {
      if (typeof credentialId === "string") await signal.call(globalThis.PublicKeyCredential, { rpId: passkeys.rpId, credentialId }).catch(() => undefined)
    }
  }
  return result
}
