/**
 * The browser script of the home page and the devices page, bundled with esbuild and served as
 * `/assets/client.js`: every `<button data-sign-in="<provider id>">` starts a sign-in, every
 * `<button data-revoke-session="<id>">` ends that session and `<button data-revoke-others>` every
 * other one, with `@portcullis/core/client`; every `<time data-local-time>` is shown in the
 * browser's time zone.
 */
import { revokeOtherSessions, revokeSession, signIn } from "@portcullis/core/client"

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

// Times are rendered on the server in UTC; here each is shown in the browser's own time zone and language.
const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
for (const time of document.querySelectorAll<HTMLTimeElement>("time[data-local-time]")) {
  const date = new Date(time.dateTime)
  if (!Number.isNaN(date.getTime())) time.textContent = localTime.format(date)
}
