/**
 * The WebAuthn provider's configuration, as Auth.js documents it, checked once and normalised.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-rp-operations
 */
import type { Awaitable } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import { inputAttribute, isRecord, optionalFunction, optionalString } from "../config/read.js"
import type { RequestContext } from "../internal.js"
import type { NewPasskeyUserInfo, RelyingPartyOptions, WebAuthnRequestInfo } from "../providers/types.js"

/** How strongly the authenticator must check who holds it (a PIN, a fingerprint). */
export type UserVerification = "required" | "preferred" | "discouraged"

/** The relying party: who the passkeys belong to. Each part defaults to the request's origin. */
export interface RelyingParty {
  /** The registrable domain the passkeys are scoped to, e.g. `example.com`. Default: the origin's host name. */
  id: string
  /** The name the browser shows while creating a passkey. Default: the host name. */
  name: string
  /** The origin the ceremony must run on, e.g. `https://example.com`. Default: the request's origin. */
  origin: string
}

/** A field the passkey form shows (Auth.js's `formFields`), its attributes read: only `email` is read by the default `getUserInfo`. */
export interface WebAuthnFormField {
  label?: string
  required?: boolean
  autocomplete?: string
  type?: string
  placeholder?: string
}

/** Who registers a new passkey when nobody is signed in: the default reads the `email` query parameter. */
export interface NewPasskeyUser {
  email?: string
  name?: string
}

/** What `configure` made of a WebAuthn provider's configuration. */
export interface WebAuthnOptions {
  relyingParty: Partial<RelyingParty>
  userVerification: UserVerification
  enableConditionalUI: boolean
  formFields: Readonly<Record<string, WebAuthnFormField>>
  getUserInfo: ((first: unknown, second?: WebAuthnRequestInfo) => Awaitable<NewPasskeyUserInfo | null>) | undefined
  /** The app's own relying party per request (Auth.js's `getRelayingParty`), in place of `relyingParty`. */
  getRelayingParty: ((options: RelyingPartyOptions, request: WebAuthnRequestInfo) => unknown) | undefined
  /** How long a ceremony may take, in milliseconds. */
  timeout: number
  /** SimpleWebAuthn options passed through (Auth.js's names), after ours. */
  registrationOptions: Readonly<Record<string, unknown>>
  authenticationOptions: Readonly<Record<string, unknown>>
  verifyRegistrationOptions: Readonly<Record<string, unknown>>
  verifyAuthenticationOptions: Readonly<Record<string, unknown>>
}

/** How long a challenge lives: a person needs a moment to find their phone or key, not more. */
export const CHALLENGE_MAX_AGE = 5 * 60

const USER_VERIFICATION = new Set(["required", "preferred", "discouraged"])

function record(value: unknown, option: string): Record<string, unknown> {
  if (value === undefined) return {}
  if (!isRecord(value)) throw new Configuration(`\`${option}\` must be an object.`)
  return { ...value }
}

function relyingParty(value: unknown, id: string): Partial<RelyingParty> {
  const given = record(value, `providers["${id}"].relyingParty`)
  const out: Partial<RelyingParty> = {}
  for (const key of ["id", "name", "origin"] as const) {
    // Auth.js's lists: its default getRelayingParty uses the first value of each.
    const list: unknown = given[key]
    const part: unknown = Array.isArray(list) ? list[0] : list
    if (part === undefined && !Array.isArray(list)) continue
    if (typeof part !== "string" || part === "") throw new Configuration(`\`providers["${id}"].relyingParty.${key}\` must be a non-empty string, or a list whose first value is one.`)
    out[key] = part
  }
  if (out.origin !== undefined) {
    let parsed: URL
    try {
      parsed = new URL(out.origin)
    } catch (cause) {
      throw new Configuration(`\`providers["${id}"].relyingParty.origin\` must be an origin such as https://example.com.`, { cause })
    }
    if (parsed.origin !== out.origin) throw new Configuration(`\`providers["${id}"].relyingParty.origin\` must be an origin (scheme, host, port) without a path: "${parsed.origin}".`)
  }
  return out
}

/**
 * Checks a WebAuthn provider's configuration. Auth.js's spelling `relayingParty` is accepted
 * beside `relyingParty`.
 *
 * @throws {Configuration} naming the option that is wrong.
 */
export function configureWebAuthn(config: Readonly<Record<string, unknown>>): WebAuthnOptions {
  const id = typeof config.id === "string" ? config.id : "webauthn"
  const userVerification = config.userVerification ?? "required"
  if (typeof userVerification !== "string" || !USER_VERIFICATION.has(userVerification)) {
    throw new Configuration(`\`providers["${id}"].userVerification\` must be "required", "preferred" or "discouraged".`)
  }
  const enableConditionalUI = config.enableConditionalUI ?? true
  if (typeof enableConditionalUI !== "boolean") throw new Configuration(`\`providers["${id}"].enableConditionalUI\` must be a boolean.`)
  const timeout = config.timeout ?? CHALLENGE_MAX_AGE * 1000
  if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 10_000 || timeout > CHALLENGE_MAX_AGE * 1000) {
    throw new Configuration(`\`providers["${id}"].timeout\` must be a number of milliseconds from 10000 to ${String(CHALLENGE_MAX_AGE * 1000)}.`)
  }
  const formFields: Record<string, WebAuthnFormField> = {}
  for (const [name, field] of Object.entries(record(config.formFields, `providers["${id}"].formFields`))) {
    if (!isRecord(field)) throw new Configuration(`\`providers["${id}"].formFields.${name}\` must be an object.`)
    formFields[name] = formField(field, `providers["${id}"].formFields.${name}`)
  }
  const simple = record(config.simpleWebAuthn, `providers["${id}"].simpleWebAuthn`)
  for (const [name, value] of Object.entries(simple)) {
    if (typeof value === "function") {
      throw new Configuration(`\`providers["${id}"].simpleWebAuthn.${name}\`: core verifies WebAuthn itself, so SimpleWebAuthn's functions cannot be replaced; pass options (an object) by name instead.`)
    }
  }
  const browserVersion = config.simpleWebAuthnBrowserVersion
  if (browserVersion !== undefined && browserVersion !== false && !(typeof browserVersion === "string" && /^v\d+(?:\.\d+){0,2}$/.test(browserVersion))) {
    throw new Configuration(`\`providers["${id}"].simpleWebAuthnBrowserVersion\` must be a version such as "v9.0.1", or false.`)
  }
  const passThrough = (name: string): Record<string, unknown> => record(config[name] ?? simple[name], `providers["${id}"].${name}`)
  return {
    relyingParty: relyingParty(config.relyingParty ?? config.relayingParty, id),
    userVerification: userVerification as UserVerification,
    enableConditionalUI,
    formFields,
    getUserInfo: optionalFunction(config.getUserInfo, `providers["${id}"].getUserInfo`),
    getRelayingParty: optionalFunction(config.getRelayingParty, `providers["${id}"].getRelayingParty`),
    timeout,
    registrationOptions: passThrough("registrationOptions"),
    authenticationOptions: passThrough("authenticationOptions"),
    verifyRegistrationOptions: passThrough("verifyRegistrationOptions"),
    verifyAuthenticationOptions: passThrough("verifyAuthenticationOptions"),
  }
}

/** A request as Auth.js hands it to `getRelayingParty` and `getUserInfo`: its URL parsed, its query and headers as records. */
export function requestInfo(request: Request): WebAuthnRequestInfo {
  const url = new URL(request.url)
  return { url, method: request.method, query: Object.fromEntries(url.searchParams), headers: Object.fromEntries(request.headers) }
}

/** The fields of a passkey form field that are read, each a value or a signal holding one. */
function formField(field: Record<string, unknown>, option: string): WebAuthnFormField {
  const required = inputAttribute(field.required)
  if (required !== undefined && typeof required !== "boolean") throw new Configuration(`\`${option}.required\` must be a boolean.`)
  const out: WebAuthnFormField = {}
  const label = optionalString(field.label, `${option}.label`)
  const autocomplete = optionalString(inputAttribute(field.autocomplete ?? field.autoComplete), `${option}.autocomplete`)
  const type = optionalString(inputAttribute(field.type), `${option}.type`)
  const placeholder = optionalString(inputAttribute(field.placeholder), `${option}.placeholder`)
  if (label !== undefined) out.label = label
  if (required !== undefined) out.required = required
  if (autocomplete !== undefined) out.autocomplete = autocomplete
  if (type !== undefined) out.type = type
  if (placeholder !== undefined) out.placeholder = placeholder
  return out
}

/**
 * The relying party of one request: the app's `getRelayingParty`, else the configured parts with
 * the rest from the request's origin.
 *
 * @throws {Configuration} when `getRelayingParty` answers something other than an id, a name and an origin.
 * @see https://www.w3.org/TR/webauthn-3/#relying-party-identifier
 */
export function resolveRelyingParty(
  options: WebAuthnOptions,
  context: Pick<RequestContext, "origin" | "authUrl" | "request">,
  provider: { id: string; name: string },
): RelyingParty {
  const { origin } = context
  if (options.getRelayingParty !== undefined) {
    const request = context.request
    let answer: unknown
    try {
      answer = options.getRelayingParty({ url: new URL(context.authUrl), provider: { id: provider.id, name: provider.name } }, requestInfo(request))
    } catch (cause) {
      throw new Configuration(`The \`getRelayingParty\` of provider "${provider.id}" threw.`, { cause })
    }
    const rp = relyingParty(answer, provider.id)
    if (rp.id === undefined || rp.name === undefined || rp.origin === undefined) {
      throw new Configuration(`\`providers["${provider.id}"].getRelayingParty\` must return { id, name, origin }.`)
    }
    return { id: rp.id, name: rp.name, origin: rp.origin }
  }
  const host = new URL(options.relyingParty.origin ?? origin).hostname
  return { id: options.relyingParty.id ?? host, name: options.relyingParty.name ?? host, origin: options.relyingParty.origin ?? origin }
}
