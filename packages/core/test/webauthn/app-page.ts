/** The example "own page" of the browser test: passkeys through `@portcullis/core/webauthn/client`, bundled by the test. */
import { signIn } from "../../src/client.js"
import { deletePasskey, listPasskeys, registerPasskey, startPasskeyAutofill } from "../../src/webauthn/client.js"

declare global {
  interface Window {
    passkeys: { register: typeof registerPasskey; list: typeof listPasskeys; remove: typeof deletePasskey; signIn: typeof signIn }
  }
}

window.passkeys = { register: registerPasskey, list: listPasskeys, remove: deletePasskey, signIn }
// The sign-in page of the app offers autofill; its account page manages passkeys.
if (location.pathname === "/app") void startPasskeyAutofill("passkey", { callbackUrl: "/account" })
