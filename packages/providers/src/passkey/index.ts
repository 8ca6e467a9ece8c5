/**
 * Passkey: sign-in and sign-up with passkeys (WebAuthn discoverable credentials), user
 * verification required. Needs an adapter with the Authenticator methods. The built-in page
 * shows an email field (with passkey autofill) and the sign-in and create buttons; on your own
 * pages use `@portcullis/core/webauthn/client` or `signIn("passkey")`.
 *
 * @see https://www.w3.org/TR/webauthn-3/
 * @module passkey
 */
import type { WebAuthnConfig, WebAuthnUserConfig } from "@portcullis/core/providers"
import { webauthnFlow } from "@portcullis/core/webauthn"

const defaults = { id: "passkey", name: "Passkey", type: "webauthn" } as const

/** What `Passkey()` takes: every WebAuthn option; `id`, `name` and `type` are optional. */
export type PasskeyOptions = WebAuthnUserConfig

/**
 * A passkey provider.
 *
 * @example
 * ```ts
 * import Passkey from "@portcullis/providers/passkey"
 * Auth(request, { adapter, providers: [Passkey()], secret })
 * ```
 */
export default function Passkey(config: PasskeyOptions = {}): WebAuthnConfig {
  return {
    formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
    userVerification: "required",
    enableConditionalUI: true,
    ...config,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: defaults.type,
    ...webauthnFlow,
  }
}
