/**
 * The normalise stage for `mfa` (second factors): the option read into its internal form and
 * checked against the adapter, which must keep factors and session records. `normalise.ts`
 * loads this module only when `mfa` is set, so an app without second factors carries none of it.
 */
import { SESSION_RECORD_METHODS, type Adapter, type AdapterMethod, type AdapterUser } from "../adapters.js"
import { Configuration } from "../errors/errors.js"
import type { FlowProvider, InternalConfig, InternalMfa } from "../internal.js"
import type { MfaFactor } from "../types.js"
import { isRecord } from "./read.js"

/** The adapter methods second factors need (see `AuthFactorMethods` in `adapters.ts`). */
const AUTH_FACTOR_METHODS: readonly AdapterMethod[] = [
  "createAuthFactor",
  "listAuthFactors",
  "updateAuthFactor",
  "deleteAuthFactor",
  "useAuthFactorStep",
  "countAuthFactorFailure",
  "replaceAuthFactors",
]

/** A pending sign-in's row (`factors/gate.ts`): its codes counted and it consumed once across instances. */
const PENDING_METHODS: readonly AdapterMethod[] = ["createVerificationToken", "useVerificationToken"]

const FACTORS: readonly MfaFactor[] = ["totp", "passkey", "email"]
const OPTIONS = new Set(["factors", "required"])

/**
 * `mfa` in its internal form: `factors` checked (default `["totp"]`), `required` made a function
 * whatever was given (default `false`), the adapter checked for the methods second factors and
 * their sessions call, and `"email"` for a way to mail its codes (`mail.send`, or an email
 * provider's transport): with it listed a user with a verified address owes a code, and one that
 * never arrives would keep them out.
 *
 * @throws {Configuration} naming the option that is not usable, an option `mfa` does not have
 * (a misspelt `required` would otherwise leave every user without a second factor), or the
 * adapter methods that are missing, or no way to mail an email code.
 */
export function normaliseMfa(value: unknown, adapter: Adapter | undefined, sending?: { mail: InternalConfig["mail"]; providers: readonly FlowProvider[] }): InternalMfa {
  if (!isRecord(value)) throw new Configuration('`mfa` must be an object such as `{ factors: ["totp"], required: true }`.')
  const unknown = Object.keys(value).filter((key) => !OPTIONS.has(key))
  if (unknown.length > 0) throw new Configuration(`\`mfa\` has no option ${unknown.map((key) => `\`${key}\``).join(", ")}: its options are \`factors\` and \`required\`.`)
  const mfa = { factors: readFactors(value.factors), required: readRequired(value.required) }
  checkAdapter(adapter)
  // `sending` is what `Auth()`'s configuration has to send mail with; a caller without it checks the option alone.
  if (sending !== undefined && mfa.factors.includes("email") && sending.mail.send === undefined && !sending.providers.some((provider) => provider.flow.mailTransport?.(provider.options) !== undefined)) {
    throw new Configuration(
      '`mfa.factors` lists "email", but no mail can be sent: set `mail.send`, or configure an email provider with a transport (Resend, Nodemailer...). A user who owes a code that never arrives could not sign in.',
    )
  }
  return mfa
}

function readFactors(value: unknown): MfaFactor[] {
  if (value === undefined) return ["totp"]
  const choices = FACTORS.map((factor) => `"${factor}"`).join(", ")
  // Each factor at most once: a longer array (a sparse one of any length included) cannot be right.
  if (!Array.isArray(value) || value.length === 0 || value.length > FACTORS.length) {
    throw new Configuration(`\`mfa.factors\` must be a non-empty array of ${choices}, each at most once.`)
  }
  const factors: MfaFactor[] = []
  for (let index = 0; index < value.length; index++) {
    const factor: unknown = value[index]
    if (!FACTORS.includes(factor as MfaFactor)) throw new Configuration(`\`mfa.factors[${index}]\` must be one of ${choices}.`)
    if (factors.includes(factor as MfaFactor)) throw new Configuration(`\`mfa.factors\` lists "${factor as MfaFactor}" twice.`)
    factors.push(factor as MfaFactor)
  }
  return factors
}

function readRequired(value: unknown): InternalMfa["required"] {
  if (value === undefined || typeof value === "boolean") {
    const required = value === true
    return () => Promise.resolve(required)
  }
  if (typeof value !== "function") throw new Configuration("`mfa.required` must be a boolean or a function of the user answering one.")
  const decide = value as (user: AdapterUser) => unknown
  return async (user) => {
    const answer = await decide(user)
    // Neither "yes" nor undefined is taken for an answer: a slip in the app's function fails the
    // sign-in, rather than silently letting a user in without a second factor (or the reverse).
    if (typeof answer !== "boolean") throw new Configuration(`\`mfa.required\` answered ${answer === null ? "null" : typeof answer}, not true or false.`)
    return answer
  }
}

function checkAdapter(adapter: Adapter | undefined): void {
  const needed = [...AUTH_FACTOR_METHODS, ...SESSION_RECORD_METHODS, ...PENDING_METHODS]
  if (adapter === undefined) {
    throw new Configuration(
      `\`mfa\` needs an \`adapter\` that keeps second factors and session records (${needed.join(", ")}): ` +
        "@portcullis/adapter-pg and @portcullis/adapter-memory do; see the core README's \"Second factors\".",
    )
  }
  const missing = needed.filter((method) => typeof (adapter as Record<string, unknown>)[method] !== "function")
  if (missing.length > 0) {
    throw new Configuration(
      `\`mfa\` needs adapter methods the \`adapter\` is missing: ${missing.join(", ")}. An Auth.js adapter gains them from ` +
        "@portcullis/adapter-pg on the same database (see the core README's \"Second factors\").",
    )
  }
}
