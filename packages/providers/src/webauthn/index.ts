/**
 * WebAuthn: Auth.js's general WebAuthn provider. Like `Passkey()`, but asks for user
 * verification as "preferred" (and then does not require it, unlike Auth.js, which asks for
 * "preferred" and then requires it). Needs an adapter with the Authenticator methods.
 *
 * @see https://www.w3.org/TR/webauthn-3/
 * @module webauthn
 */
import type { WebAuthnConfig, WebAuthnUserConfig } from "@portcullis/core/providers"
import { webauthnFlow } from "@portcullis/core/webauthn"
import logo from "./logo.js"

const defaults = { id: "webauthn", name: "WebAuthn", type: "webauthn" } as const

/** What `WebAuthn()` takes: every WebAuthn option; `id`, `name` and `type` are optional. */
export type WebAuthnOptions = WebAuthnUserConfig

/**
 * A WebAuthn provider.
 *
 * @example
 * ```ts
 * import WebAuthn from "@portcullis/providers/webauthn"
 * Auth(request, { adapter, providers: [WebAuthn({ relyingParty: { name: "Acme" } })], secret })
 * ```
 */
export default function WebAuthn(config: WebAuthnOptions = {}): WebAuthnConfig {
  return {
    formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
    userVerification: "preferred",
    enableConditionalUI: true,
    style: { logo, brandColor: "#3423A6" },
    ...config,
    id: config.id ?? defaults.id,
    name: config.name ?? defaults.name,
    type: defaults.type,
    ...webauthnFlow,
  }
}
