/**
 * `@portcullis/core/webauthn/client`: passkeys in the browser, on the built-in page or the app's own.
 * SimpleWebAuthn's browser side is bundled with the app (no CDN). `signIn("passkey")` from
 * `@portcullis/core/client` instead loads these functions, only when called, from the script `Auth()`
 * serves (`{basePath}/webauthn-script/:id`), so apps that never use passkeys ship none of it.
 *
 * @example
 * ```ts
 * import { signInWithPasskey, startPasskeyAutofill, registerPasskey } from "@portcullis/core/webauthn/client"
 * startPasskeyAutofill("passkey")                   // offers saved passkeys in <input autocomplete="username webauthn">
 * button.onclick = () => signInWithPasskey("passkey", { callbackUrl: "/account" })
 * signUp.onclick = () => registerPasskey("passkey", { email: emailInput.value })
 * ```
 *
 * @module webauthn/client
 */
import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  sendSignal,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser"
import type { ClientOptions, NavigationResult } from "../client-types.js"
import type { PasskeyList, PasskeySummary } from "./manage.js"

export type { PasskeyList, PasskeySummary } from "./manage.js"

/** What the passkey functions take. */
export interface PasskeySignInOptions extends ClientOptions {
  /** `"authenticate"` (the default when signed out) or `"register"` (the default when signed in). */
  action?: "authenticate" | "register"
  /** The new user's email, for a passkey-first sign-up. */
  email?: string
  /** Where to go after signing in. Default: the current page. */
  callbackUrl?: string
  /** `false` to get the result instead of navigating. */
  redirect?: boolean
  /** A CSRF token already at hand (the built-in page has one); fetched otherwise. */
  csrfToken?: string
  /**
   * `true` to prove the signed-in user again (the re-authentication page): the options come from
   * `{basePath}/reauth/:id` and name only that user's passkeys; the session is kept.
   */
  reauthenticate?: boolean
}

/** A ceremony's outcome when the browser refused or the person cancelled: nothing was sent. */
const CANCELLED = "WebAuthnCancelled"

function base(options: ClientOptions): string {
  return (options.basePath ?? "/api/auth").replace(/\/+$/, "")
}

async function fetchJson(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", ...init, headers: { accept: "application/json", ...(init?.headers as Record<string, string> | undefined) } })
  const body: unknown = await response.json().catch(() => ({}))
  if (!response.ok) {
    const { error, message } = body as { error?: unknown; message?: unknown }
    throw new Error(`${url} answered HTTP ${String(response.status)}${typeof error === "string" ? ` (${error})` : ""}${typeof message === "string" ? `: ${message}` : ""}`)
  }
  return body
}

// Kept apart from `../client.js` (types only from there): the built-in page's script bundles this
// module, and must not change whenever the main client does.
async function getCsrfToken(options: ClientOptions): Promise<string> {
  const body = (await fetchJson(`${base(options)}/csrf`)) as { csrfToken?: unknown }
  if (typeof body.csrfToken !== "string") throw new Error("GET /csrf answered no token")
  return body.csrfToken
}

type CeremonyOptions =
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }

async function ceremonyOptions(providerId: string, options: PasskeySignInOptions): Promise<CeremonyOptions> {
  const query = new URLSearchParams()
  if (options.action !== undefined) query.set("action", options.action)
  if (options.email !== undefined && options.email !== "") query.set("email", options.email)
  const route = options.reauthenticate === true ? "reauth" : "webauthn-options"
  const url = `${base(options)}/${route}/${encodeURIComponent(providerId)}${query.size === 0 || options.reauthenticate === true ? "" : `?${query.toString()}`}`
  return (await fetchJson(url)) as CeremonyOptions
}

/** The `error` and `code` in the body of a sign-in the server refused because it does not know the credential. */
const REFUSED = "WebAuthnVerificationError"
const UNKNOWN_CREDENTIAL = "unknown_credential"
/** How long a navigation waits for the browser to take a signal: it is only a hint. */
const SIGNAL_WAIT_MS = 1000

/**
 * Tells the password manager that the server does not know this passkey (the WebAuthn Signal
 * API), so it stops offering it. Never throws: browsers without the API just keep the passkey.
 *
 * @see https://w3c.github.io/webauthn/#sctn-signal-methods
 */
async function signalUnknownCredential(rpID: string, credentialID: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, SIGNAL_WAIT_MS)))
  await Promise.race([sendSignal({ signalName: "unknownCredential", rpID, credentialID }).catch(() => undefined), waited])
  clearTimeout(timer)
}

async function finish(providerId: string, options: PasskeySignInOptions, csrfToken: string, ceremony: CeremonyOptions, data: { id: string }): Promise<NavigationResult | undefined> {
  const response = await fetch(`${base(options)}/callback/${encodeURIComponent(providerId)}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ action: ceremony.action, data: JSON.stringify(data), csrfToken, callbackUrl: options.callbackUrl ?? location.href }),
  })
  const body = (await response.json().catch(() => ({}))) as { url?: unknown; error?: unknown; code?: unknown }
  const url = typeof body.url === "string" ? body.url : location.href
  const error = typeof body.error === "string" ? body.error : new URL(url, location.href).searchParams.get("error")
  // Only the refusal itself says the credential is unknown: the URL may be the sign-in's
  // callbackUrl, which any link chooses, and forgetting a working passkey can lock its user out.
  if (ceremony.action === "authenticate" && body.error === REFUSED && body.code === UNKNOWN_CREDENTIAL) {
    await signalUnknownCredential(ceremony.options.rpId ?? location.hostname, data.id)
  }
  const result = { url, error, ok: response.ok && error === null }
  if (options.redirect === false) return result
  location.assign(url)
  return undefined
}

function cancelled(): NavigationResult {
  return { url: location.href, error: CANCELLED, ok: false }
}

/**
 * How many ceremonies this page started. An autofill gives way to any ceremony started after it:
 * its options may arrive while a person is creating a passkey, and starting it then would cancel
 * theirs, or have the browser answer with the passkey just made, which the server does not know
 * yet (a sign-up waiting for its email link), and sign-in would fail and forget that passkey.
 */
let started = 0

async function run(providerId: string, options: PasskeySignInOptions, autofill: boolean): Promise<NavigationResult | undefined> {
  const mine = ++started
  const superseded = () => autofill && mine !== started
  const csrfToken = options.csrfToken ?? (await getCsrfToken(options))
  const ceremony = await ceremonyOptions(providerId, autofill ? { ...options, action: "authenticate" } : options)
  if (superseded()) return undefined
  let data: { id: string }
  try {
    data =
      ceremony.action === "register"
        ? await startRegistration({ optionsJSON: ceremony.options })
        : await startAuthentication({ optionsJSON: ceremony.options, useBrowserAutofill: autofill })
  } catch (error) {
    // The person cancelled, another ceremony replaced this one, or the browser refused.
    if (autofill) return undefined
    console.debug("The passkey ceremony did not complete.", error)
    return cancelled()
  }
  if (superseded()) return undefined
  return finish(providerId, options, csrfToken, ceremony, data)
}

/**
 * Signs in with a passkey (or, with `action: "register"`, creates one). Navigates by default;
 * with `redirect: false` resolves to the result. A cancelled ceremony resolves to an error
 * `"WebAuthnCancelled"` and sends nothing.
 *
 * @throws {Error} when the options route fails (no adapter, a bad email).
 */
export async function signInWithPasskey(providerId = "passkey", options: PasskeySignInOptions = {}): Promise<NavigationResult | undefined> {
  if (!browserSupportsWebAuthn()) return { url: location.href, error: "WebAuthnUnsupported", ok: false }
  return run(providerId, options, false)
}

/** Auth.js's name for {@link signInWithPasskey} (`next-auth/webauthn`). */
export const signIn = signInWithPasskey

/**
 * Creates a passkey: for a new user (pass `email`) or, when signed in, one more for that user.
 *
 * @throws {Error} when the options route fails.
 */
export function registerPasskey(providerId = "passkey", options: Omit<PasskeySignInOptions, "action"> = {}): Promise<NavigationResult | undefined> {
  return signInWithPasskey(providerId, { ...options, action: "register" })
}

/**
 * Offers the browser's saved passkeys in the autofill of an `<input autocomplete="username
 * webauthn">` of the page, and signs in when one is picked. Resolves to `undefined` at once where
 * the browser has no passkey autofill, and when another ceremony replaces this one.
 */
export async function startPasskeyAutofill(providerId = "passkey", options: Omit<PasskeySignInOptions, "action" | "email"> = {}): Promise<NavigationResult | undefined> {
  if (!(await browserSupportsWebAuthnAutofill())) return undefined
  return run(providerId, options, true)
}

/** Stops a waiting autofill (or any pending ceremony). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony()
}

/**
 * The signed-in user's passkeys. Also tells the browser's password manager which passkeys are
 * still accepted (the WebAuthn Signal API, where the browser has it), so deleted ones disappear.
 *
 * @throws {Error} when nobody is signed in.
 */
export async function listPasskeys(providerId = "passkey", options: ClientOptions = {}): Promise<PasskeySummary[]> {
  const list = (await fetchJson(`${base(options)}/webauthn-credentials/${encodeURIComponent(providerId)}`)) as PasskeyList
  if (list.userHandle !== null) {
    void sendSignal({ signalName: "allAcceptedCredentials", rpID: list.rpId, userID: list.userHandle, allAcceptedCredentialIDs: list.passkeys.map((passkey) => passkey.id) }).catch(() => undefined)
  }
  return list.passkeys
}

async function change(providerId: string, options: ClientOptions, fields: Record<string, string>): Promise<unknown> {
  const csrfToken = await getCsrfToken(options)
  return fetchJson(`${base(options)}/webauthn-credentials/${encodeURIComponent(providerId)}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, csrfToken }),
  })
}

/**
 * Renames one of the signed-in user's passkeys.
 *
 * @throws {Error} when it is not theirs or the name is empty or too long.
 */
export async function renamePasskey(credentialId: string, name: string, providerId = "passkey", options: ClientOptions = {}): Promise<PasskeySummary> {
  const body = (await change(providerId, options, { action: "rename", credentialId, name })) as { passkey: PasskeySummary }
  return body.passkey
}

/**
 * Deletes one of the signed-in user's passkeys, and tells the password manager it is gone
 * (Signal API), so it is not offered again.
 *
 * @throws {Error} when it is not theirs, or when it is their last way to sign in (HTTP 409,
 * the message says what to do first).
 */
export async function deletePasskey(credentialId: string, providerId = "passkey", options: ClientOptions & { rpId?: string } = {}): Promise<void> {
  await change(providerId, options, { action: "delete", credentialId })
  await signalUnknownCredential(options.rpId ?? location.hostname, credentialId)
}
