/**
 * The built-in sign-in page's passkey script (bundled with SimpleWebAuthn's browser side into
 * `page-script.generated.ts` by `scripts/build-webauthn-script.mjs`). Everything it needs is in
 * the form's data attributes; nothing is derived from `location`.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser"
import * as passkeys from "./client.js"
import { signInWithPasskey, startPasskeyAutofill, type PasskeySignInOptions } from "./client.js"

// `signIn("passkey")` of `@portcullis/core/client` loads this script and calls these.
;(globalThis as Record<symbol, unknown>)[Symbol.for("@portcullis/core/webauthn/client")] = passkeys

const MESSAGES: Record<string, string> = {
  WebAuthnCancelled: "The passkey request was cancelled or timed out. Please try again.",
  WebAuthnUnsupported: "This browser does not support passkeys.",
}

function wire(form: HTMLFormElement): void {
  const { passkeyProvider = "passkey", basePath = "/api/auth", csrfToken, callbackUrl, autofill } = form.dataset
  const email = form.querySelector<HTMLInputElement>("[data-passkey-email]")
  const error = form.querySelector<HTMLElement>("[data-passkey-error]")
  const options = (): PasskeySignInOptions => ({ basePath, csrfToken, callbackUrl, redirect: false })
  // One message at a time: the passkey's own replaces whatever the page said before it.
  const show = (message: string | undefined): void => {
    if (error === null) return
    if (message !== undefined) for (const other of document.querySelectorAll<HTMLElement>('[role="alert"]')) if (other !== error) other.hidden = true
    error.textContent = message ?? ""
    error.hidden = message === undefined
  }
  const go = async (action: "authenticate" | "register"): Promise<void> => {
    show(undefined)
    try {
      const value = email?.value.trim() ?? ""
      if (action === "register" && email !== null && value === "") {
        email.reportValidity()
        show("Enter your email to create a passkey.")
        return
      }
      const result = await signInWithPasskey(passkeyProvider, { ...options(), action, ...(action === "register" ? { email: value } : {}) })
      if (result === undefined) return
      if (result.ok || result.error === null) location.assign(result.url)
      else if (result.error in MESSAGES) show(MESSAGES[result.error])
      else location.assign(result.url)
    } catch {
      show("Passkeys are not available right now. Please try again.")
    }
  }
  if (!browserSupportsWebAuthn()) {
    show(MESSAGES.WebAuthnUnsupported)
    return
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void go("authenticate")
  })
  form.querySelector('[data-passkey-action="register"]')?.addEventListener("click", () => void go("register"))
  if (autofill === "true") {
    void startPasskeyAutofill(passkeyProvider, options())
      .then((result) => {
        if (result === undefined) return
        if (result.ok) location.assign(result.url)
        else location.assign(result.url)
      })
      .catch(() => undefined)
  }
}

/** The re-authentication page's one button: the signed-in user's own passkeys, then back where they were going. */
function wireReauth(form: HTMLFormElement): void {
  const { passkeyProvider = "passkey", basePath = "/api/auth", csrfToken, callbackUrl } = form.dataset
  const error = form.querySelector<HTMLElement>("[data-passkey-error]")
  const show = (message: string): void => {
    if (error === null) return
    error.textContent = message
    error.hidden = false
  }
  if (!browserSupportsWebAuthn()) {
    show(MESSAGES.WebAuthnUnsupported ?? "")
    return
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    signInWithPasskey(passkeyProvider, { basePath, csrfToken, callbackUrl, redirect: false, reauthenticate: true })
      .then((result) => {
        if (result === undefined) return
        if (result.error !== null && result.error in MESSAGES) show(MESSAGES[result.error] ?? "")
        else location.assign(result.url)
      })
      .catch(() => {
        show("Passkeys are not available right now. Please try again.")
      })
  })
}

/**
 * A second-factor form's ceremony: on submit, asks `optionsUrl` for the options (`init`: how), runs
 * `ceremony` with them, and posts what it made in the form's `credential` field, which answers
 * with the next page as any of the form routes. Without options (the pending sign-in ended, or may
 * not do this), the browser goes where the answer says.
 */
function wireFormCeremony(form: HTMLFormElement, optionsUrl: string, init: RequestInit, ceremony: (options: object) => Promise<unknown>): void {
  const credential = form.querySelector<HTMLInputElement>('input[name="credential"]')
  const error = form.querySelector<HTMLElement>("[data-passkey-error]")
  const show = (message: string): void => {
    if (error === null) return
    error.textContent = message
    error.hidden = false
  }
  if (!browserSupportsWebAuthn() || credential === null) {
    show(MESSAGES.WebAuthnUnsupported ?? "")
    return
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    fetch(optionsUrl, { ...init, credentials: "same-origin", headers: { accept: "application/json" } })
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as { options?: object; url?: unknown }
        if (body.options === undefined) {
          location.assign(typeof body.url === "string" ? body.url : location.href)
          return
        }
        const made = await ceremony(body.options).catch(() => undefined)
        if (made === undefined) {
          show(MESSAGES.WebAuthnCancelled ?? "")
          return
        }
        credential.value = JSON.stringify(made)
        form.submit()
      })
      .catch(() => {
        show("Passkeys are not available right now. Please try again.")
      })
  })
}

/** The base of the routes, from the form's data (never from `location`). */
function routes(form: HTMLFormElement): string {
  return (form.dataset.basePath ?? "/api/auth").replace(/\/+$/, "")
}

/**
 * The second-factor page's passkey form: asks for options naming the pending user's own passkeys,
 * runs the ceremony, and posts the assertion to `/mfa/verify`.
 */
function wireSecondFactor(form: HTMLFormElement): void {
  const url = `${routes(form)}/webauthn-options/${encodeURIComponent(form.dataset.passkeyProvider ?? "passkey")}?action=mfa`
  wireFormCeremony(form, url, {}, (options) => startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON }))
}

/**
 * The second-factor set-up page's passkey form (a sign-in waiting under `mfa.required`): posts the
 * form's CSRF token for registration options made for the pending user, runs the ceremony, and
 * posts the new passkey to `/mfa/passkey/register`, which completes the sign-in.
 */
function wireSecondFactorRegistration(form: HTMLFormElement): void {
  const csrfToken = form.querySelector<HTMLInputElement>('input[name="csrfToken"]')?.value ?? ""
  wireFormCeremony(form, `${routes(form)}/mfa/passkey/options`, { method: "POST", body: new URLSearchParams({ csrfToken }) }, (options) =>
    startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }),
  )
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-passkey-form]")) wire(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-mfa-passkey-register]")) wireSecondFactorRegistration(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-mfa-passkey]")) wireSecondFactor(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-reauth-passkey]")) wireReauth(form)
