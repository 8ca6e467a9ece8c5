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
 * The second-factor page's passkey form: asks for options naming the pending user's own passkeys,
 * runs the ceremony, and posts the assertion in the form's `credential` field to `/mfa/verify`,
 * which answers with the next page as any of its forms.
 */
function wireSecondFactor(form: HTMLFormElement): void {
  const { passkeyProvider = "passkey", basePath = "/api/auth" } = form.dataset
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
    const url = `${basePath.replace(/\/+$/, "")}/webauthn-options/${encodeURIComponent(passkeyProvider)}?action=mfa`
    fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as { options?: PublicKeyCredentialRequestOptionsJSON; url?: unknown }
        if (body.options === undefined) {
          // The pending sign-in ended: the page it is sent to says so.
          location.assign(typeof body.url === "string" ? body.url : location.href)
          return
        }
        const assertion = await startAuthentication({ optionsJSON: body.options }).catch(() => undefined)
        if (assertion === undefined) {
          show(MESSAGES.WebAuthnCancelled ?? "")
          return
        }
        credential.value = JSON.stringify(assertion)
        form.submit()
      })
      .catch(() => {
        show("Passkeys are not available right now. Please try again.")
      })
  })
}

/**
 * The second-factor set-up page's passkey form (a sign-in waiting under `mfa.required`): posts the
 * form's CSRF token for registration options made for the pending user, runs the ceremony, and
 * posts the new passkey in the form's `credential` field, which completes the sign-in.
 */
function wireSecondFactorRegistration(form: HTMLFormElement): void {
  const { basePath = "/api/auth" } = form.dataset
  const credential = form.querySelector<HTMLInputElement>('input[name="credential"]')
  const csrfToken = form.querySelector<HTMLInputElement>('input[name="csrfToken"]')?.value ?? ""
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
    const url = `${basePath.replace(/\/+$/, "")}/mfa/passkey/options`
    fetch(url, { method: "POST", credentials: "same-origin", headers: { accept: "application/json" }, body: new URLSearchParams({ csrfToken }) })
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as { options?: PublicKeyCredentialCreationOptionsJSON; url?: unknown }
        if (body.options === undefined) {
          // The pending sign-in ended, or may not enrol: the page it is sent to says so.
          location.assign(typeof body.url === "string" ? body.url : location.href)
          return
        }
        const created = await startRegistration({ optionsJSON: body.options }).catch(() => undefined)
        if (created === undefined) {
          show(MESSAGES.WebAuthnCancelled ?? "")
          return
        }
        credential.value = JSON.stringify(created)
        form.submit()
      })
      .catch(() => {
        show("Passkeys are not available right now. Please try again.")
      })
  })
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-passkey-form]")) wire(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-mfa-passkey-register]")) wireSecondFactorRegistration(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-mfa-passkey]")) wireSecondFactor(form)
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-reauth-passkey]")) wireReauth(form)
