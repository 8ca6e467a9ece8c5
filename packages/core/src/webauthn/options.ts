/**
 * The WebAuthn provider's configuration, as Auth.js documents it, checked once and normalised.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-rp-operations
 */
import type { Awaitable } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import { isRecord, optionalFunction } from "../config/read.js"

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

/** A field the passkey form shows (Auth.js's `formFields`); only `email` is read by the default `getUserInfo`. */
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
  getUserInfo: ((request: Request) => Awaitable<NewPasskeyUser | null>) | undefined
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
    const part = given[key]
    if (part === undefined) continue
    if (typeof part !== "string" || part === "") throw new Configuration(`\`providers["${id}"].relyingParty.${key}\` must be a non-empty string.`)
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
  const formFields = record(config.formFields, `providers["${id}"].formFields`)
  for (const [name, field] of Object.entries(formFields)) {
    if (!isRecord(field)) throw new Configuration(`\`providers["${id}"].formFields.${name}\` must be an object.`)
  }
  const simple = record(config.simpleWebAuthn, `providers["${id}"].simpleWebAuthn`)
  const passThrough = (name: string): Record<string, unknown> => record(config[name] ?? simple[name], `providers["${id}"].${name}`)
  return {
    relyingParty: relyingParty(config.relyingParty ?? config.relayingParty, id),
    userVerification: userVerification as UserVerification,
    enableConditionalUI,
    formFields: formFields as Record<string, WebAuthnFormField>,
    getUserInfo: optionalFunction(config.getUserInfo, `providers["${id}"].getUserInfo`),
    timeout,
    registrationOptions: passThrough("registrationOptions"),
    authenticationOptions: passThrough("authenticationOptions"),
    verifyRegistrationOptions: passThrough("verifyRegistrationOptions"),
    verifyAuthenticationOptions: passThrough("verifyAuthenticationOptions"),
  }
}

/** The relying party of one request: the configured parts, the rest from the request's origin. */
export function resolveRelyingParty(options: WebAuthnOptions, origin: string): RelyingParty {
  const host = new URL(options.relyingParty.origin ?? origin).hostname
  return { id: options.relyingParty.id ?? host, name: options.relyingParty.name ?? host, origin: options.relyingParty.origin ?? origin }
}
