/**
 * The browser script of the home, devices and account pages, bundled with esbuild and served as
 * `/assets/client.js`: every `<button data-sign-in="<provider id>">` starts a sign-in, every
 * `<button data-revoke-session="<id>">` ends that session and `<button data-revoke-others>` every
 * other one, with `@portcullis/core/client`; on the account page, `data-unlink-provider` unlinks
 * an account, `data-add-passkey` and `data-delete-passkey` add and delete passkeys
 * (`@portcullis/core/webauthn/client`), `<form data-change-email>` asks for a new address and
 * `data-delete-account` deletes the account, and a change core refuses with `ReauthRequired` sends the
 * user to prove it is them (`reauthenticate()`), then back; every `<time data-local-time>` is
 * shown in the browser's time zone.
 */
import { changeEmail, deleteAccount, reauthenticate, revokeOtherSessions, revokeSession, signIn, unlinkAccount } from "@portcullis/core/client"
import { deletePasskey, registerPasskey } from "@portcullis/core/webauthn/client"

const status = document.querySelector<HTMLElement>("[data-sign-in-status]")

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-sign-in]")) {
  const providerId = button.dataset.signIn
  if (providerId === undefined || providerId === "") continue
  button.addEventListener("click", () => {
    button.disabled = true
    if (status !== null) status.textContent = ""
    // signIn() posts the CSRF-checked form itself and navigates to the provider.
    signIn(providerId, { callbackUrl: location.href }).catch((error: unknown) => {
      button.disabled = false
      if (status !== null) status.textContent = `Sign-in could not start: ${error instanceof Error ? error.message : String(error)}`
    })
  })
  // Rendered disabled: the button does nothing until this script has run.
  button.disabled = false
}

const devicesStatus = document.querySelector<HTMLElement>("[data-devices-status]")

/** Runs a revocation from a button, then shows the list as it is now. */
function revokeOnClick(button: HTMLButtonElement, revoke: () => Promise<number>): void {
  button.addEventListener("click", () => {
    button.disabled = true
    if (devicesStatus !== null) devicesStatus.textContent = ""
    // Each posts the CSRF-checked request itself; the page is then read again from the server.
    revoke().then(
      () => {
        location.reload()
      },
      (error: unknown) => {
        button.disabled = false
        if (devicesStatus !== null) devicesStatus.textContent = `The device could not be signed out: ${error instanceof Error ? error.message : String(error)}`
      },
    )
  })
  button.disabled = false
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-revoke-session]")) {
  const id = button.dataset.revokeSession
  if (id !== undefined && id !== "") revokeOnClick(button, () => revokeSession(id))
}
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-revoke-others]")) revokeOnClick(button, () => revokeOtherSessions())

const accountStatus = document.querySelector<HTMLElement>("[data-account-status]")

/**
 * Runs a change from a button of the account page: on success the page is read again from the
 * server; when core answers `ReauthRequired` (the last sign-in is too old for this change), the
 * browser goes to core's re-authentication page, which comes back here; any other refusal is shown.
 */
function changeOnClick(button: HTMLButtonElement, change: () => Promise<{ error: string | null; message?: string }>): void {
  button.addEventListener("click", () => {
    button.disabled = true
    if (accountStatus !== null) accountStatus.textContent = ""
    change().then(
      async ({ error, message }) => {
        if (error === null) location.reload()
        else if (error === "ReauthRequired") await reauthenticate({ callbackUrl: location.href })
        else {
          button.disabled = false
          if (accountStatus !== null) accountStatus.textContent = message ?? `That did not work (${error}).`
        }
      },
      (error: unknown) => {
        button.disabled = false
        if (accountStatus !== null) accountStatus.textContent = `That did not work: ${error instanceof Error ? error.message : String(error)}`
      },
    )
  })
  button.disabled = false
}

/** The passkey functions throw an error whose message names core's code: `ReauthRequired` is a way forward, not a failure. */
async function passkeyChange(run: () => Promise<unknown>): Promise<{ error: string | null; message?: string }> {
  try {
    await run()
    return { error: null }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { error: message.includes("(ReauthRequired)") ? "ReauthRequired" : "PasskeyError", message: `That did not work: ${message}` }
  }
}

const LAST_SIGN_IN_METHOD = "This is your last way to sign in: add a passkey or link another account first."

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-unlink-provider]")) {
  const { unlinkProvider: provider, unlinkAccount: providerAccountId } = button.dataset
  if (provider === undefined || provider === "") continue
  changeOnClick(button, async () => {
    const result = await unlinkAccount(provider, providerAccountId === undefined ? {} : { providerAccountId })
    return result.error === "LastSignInMethod" ? { error: result.error, message: LAST_SIGN_IN_METHOD } : result
  })
}
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-delete-passkey]")) {
  const id = button.dataset.deletePasskey
  if (id !== undefined && id !== "") changeOnClick(button, () => passkeyChange(() => deletePasskey(id)))
}
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-add-passkey]")) {
  changeOnClick(button, () =>
    passkeyChange(async () => {
      // Signed in, a registration adds a passkey to this user; the ceremony's answer says whether it did.
      const result = await registerPasskey("passkey", { redirect: false, callbackUrl: location.href })
      if (result !== undefined && !result.ok) throw new Error(`The passkey was not added (${result.error ?? "refused"})`)
    }),
  )
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-delete-account]")) {
  button.addEventListener("click", () => {
    if (!confirm("Delete your account and sign out everywhere? This cannot be undone.")) return
    button.disabled = true
    deleteAccount().then(
      async (result) => {
        if (result.ok) location.assign("/")
        else if (result.error === "ReauthRequired") await reauthenticate({ callbackUrl: location.href })
        else {
          button.disabled = false
          if (accountStatus !== null) accountStatus.textContent = `The account was not deleted (${result.error ?? "refused"}).`
        }
      },
      (error: unknown) => {
        button.disabled = false
        if (accountStatus !== null) accountStatus.textContent = `The account was not deleted: ${error instanceof Error ? error.message : String(error)}`
      },
    )
  })
  button.disabled = false
}

const emailStatus = document.querySelector<HTMLElement>("[data-email-status]")
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-change-email]")) {
  const input = form.querySelector<HTMLInputElement>("input[name=email]")
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]")
  if (input === null || submit === null) continue
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const email = input.value.trim()
    submit.disabled = true
    if (emailStatus !== null) emailStatus.textContent = ""
    changeEmail(email).then(
      async (result) => {
        submit.disabled = false
        // The same answer whatever the address: nothing here tells whether another account has it.
        if (result.ok && emailStatus !== null) emailStatus.textContent = `Check ${email}: open the link there to confirm the change.`
        else if (result.error === "ReauthRequired") await reauthenticate({ callbackUrl: location.href })
        else if (emailStatus !== null) emailStatus.textContent = `The address was not changed (${result.error ?? "refused"}).`
      },
      (error: unknown) => {
        submit.disabled = false
        if (emailStatus !== null) emailStatus.textContent = `The address was not changed: ${error instanceof Error ? error.message : String(error)}`
      },
    )
  })
  submit.disabled = false
}

// Times are rendered on the server in UTC; here each is shown in the browser's own time zone and language.
const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
for (const time of document.querySelectorAll<HTMLTimeElement>("time[data-local-time]")) {
  const date = new Date(time.dateTime)
  if (!Number.isNaN(date.getTime())) time.textContent = localTime.format(date)
}
