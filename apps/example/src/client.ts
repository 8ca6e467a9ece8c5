/**
 * The browser script of the home page, bundled with esbuild and served as `/assets/client.js`:
 * every `<button data-sign-in="<provider id>">` starts a sign-in with `@portcullis/core/client`.
 */
import { signIn } from "@portcullis/core/client"

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
