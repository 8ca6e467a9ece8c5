/**
 * `@portcullis/core/webauthn`: the passkey (WebAuthn) sign-in flow that `Passkey()` and `WebAuthn()`
 * from `@portcullis/providers` carry. Apps that configure neither bundle none of it.
 *
 * @example
 * ```ts
 * import Passkey from "@portcullis/providers/passkey"
 * Auth(request, { adapter, providers: [Passkey({ formFields: { email: { label: "Email", required: true } } })], secret })
 * ```
 *
 * @see https://www.w3.org/TR/webauthn-3/
 * @module webauthn
 */
import type { AdapterMethod } from "../adapters.js"
import { redirect } from "../http/context.js"
import { FLOW } from "../config/flows.js"
import type { SignInFlow } from "../internal.js"
import { signInPageUrl } from "../http/routes.js"
import { listAuthenticators, webauthnCallback, webauthnOptions } from "./ceremony.js"
import { changePasskey, listPasskeys } from "./manage.js"
import { configureWebAuthn, type WebAuthnOptions } from "./options.js"
import { decoratePage, reauthControl, secondFactorControl, servePageScript } from "./page.js"
import { enrolmentOptions, enrolSecondFactor, secondFactorOptions, verifySecondFactor } from "./second-factor.js"

export type { NewPasskeyUser, RelyingParty, UserVerification, WebAuthnFormField, WebAuthnOptions } from "./options.js"
export type { PasskeyList, PasskeySummary } from "./manage.js"
export { FLOW }

const ADAPTER_METHODS: AdapterMethod[] = [
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "createUser",
  "deleteUser",
  "linkAccount",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
]

/**
 * The WebAuthn flow: `GET {basePath}/webauthn-options/:id`, `POST {basePath}/callback/:id`,
 * `{basePath}/webauthn-credentials/:id` (list, rename, delete) and the sign-in page's script
 * at `{basePath}/webauthn-script/:id`.
 */
export const webauthn = {
  name: "WebAuthn",
  configure: (config) => configureWebAuthn(config),
  adapterMethods: () => ADAPTER_METHODS,
  needsAdapter: "to store its passkeys and users",
  // A passkey starts in the browser, not with a redirect: a form posted here gets the sign-in page.
  signIn: (context, _provider, request) => Promise.resolve(redirect(context, signInPageUrl(context, { callbackUrl: request.callbackUrl }))),
  callback: (context, provider) => webauthnCallback(context, provider),
  routes: {
    // `?action=mfa`: the pending user's passkeys, for a second factor.
    "webauthn-options": { GET: (context, provider) => (context.url.searchParams.get("action") === "mfa" ? secondFactorOptions(context, provider) : webauthnOptions(context, provider)), clientLimit: "passkeyOptions" },
    "webauthn-credentials": { GET: listPasskeys, POST: changePasskey },
    "webauthn-script": { GET: (context) => Promise.resolve(servePageScript(context)) },
  },
  page: decoratePage,
  // The signed-in user's own passkeys prove them again (`allowCredentials`).
  reauth: { offers: () => true, control: reauthControl },
  // Any of the user's passkeys, but the first factor's, completes a sign-in pending its second factor.
  // Under `mfa.required`, a pending user with no factor may register a passkey as their first one.
  secondFactor: { control: secondFactorControl, verify: verifySecondFactor, enrol: { options: enrolmentOptions, register: enrolSecondFactor } },
  waysIn: async (context, _provider, user) => {
    const { adapter } = context.config
    if (adapter === undefined) return []
    return (await listAuthenticators(adapter, user.id)).map((passkey) => ({ kind: "passkey" as const, credentialID: passkey.credentialID }))
  },
} satisfies SignInFlow<WebAuthnOptions>

/** What the provider factories spread into their configuration: the flow, under {@link FLOW}. */
export const webauthnFlow = { [FLOW]: webauthn } as const
