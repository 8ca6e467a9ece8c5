/**
 * A credentials sign-in: the submitted form read strictly (only the declared fields, each
 * once and of bounded size), then the app's `authorize` asked. No value is ever put in a log
 * message: errors name fields, never their contents.
 */
import { CallbackRouteError, CredentialsSignin } from "../errors/flow-errors.js"
import type { User } from "../model.js"
import { RESERVED_FIELDS, type InternalCredentialsProvider } from "./provider.js"

/** The longest value accepted in one field: far beyond any password, far below the body limit. */
const MAX_VALUE = 1024

function invalidInput(message: string): CredentialsSignin {
  return new CredentialsSignin(message, { code: "invalid_input" })
}

/**
 * The declared fields of a submitted credentials form. Undeclared names are not repeated in
 * the error: a client that mixes up a name and a value would put a password in the log.
 *
 * @throws {CredentialsSignin} (`code: "invalid_input"`) for an undeclared, repeated or oversized field.
 */
export function readCredentials(provider: InternalCredentialsProvider, form: URLSearchParams): Record<string, string> {
  const declared = provider.fieldNames
  const seen = new Set<string>()
  const credentials: Record<string, string> = {}
  for (const [name, value] of form) {
    const known = declared.has(name) || RESERVED_FIELDS.has(name)
    if (!known) {
      throw invalidInput(`The credentials form sent a field that provider "${provider.id}" does not declare (it declares ${[...declared].join(", ")}).`)
    }
    if (seen.has(name)) throw invalidInput(`The credentials form repeats the field "${name}".`)
    seen.add(name)
    if (RESERVED_FIELDS.has(name)) continue
    if (value.length > MAX_VALUE) throw invalidInput(`The credentials field "${name}" is longer than ${MAX_VALUE} characters.`)
    credentials[name] = value
  }
  return credentials
}

/**
 * Asks the provider's `authorize` about the credentials and returns the user to sign in. A
 * user without an `id` gets a random one (it then lives only in its JWT session).
 *
 * @throws {CredentialsSignin} when `authorize` returns `null` or throws `CredentialsSignin`.
 * @throws {CallbackRouteError} when `authorize` throws anything else or returns no usable user.
 */
export async function authorize(
  provider: InternalCredentialsProvider,
  credentials: Record<string, string>,
  request: Request,
): Promise<User & { id: string }> {
  let user: unknown
  try {
    user = await provider.authorize(credentials, request)
  } catch (cause) {
    if (cause instanceof CredentialsSignin) throw cause
    throw new CallbackRouteError(`The \`authorize\` of provider "${provider.id}" threw.`, { cause })
  }
  if (user === null || user === undefined) throw new CredentialsSignin(`The \`authorize\` of provider "${provider.id}" refused the credentials.`)
  if (typeof user !== "object" || Array.isArray(user)) {
    throw new CallbackRouteError(`The \`authorize\` of provider "${provider.id}" returned neither a user object nor null.`)
  }
  const { id } = user as { id?: unknown }
  const userId = typeof id === "number" && Number.isFinite(id) ? String(id) : id === undefined || id === null ? crypto.randomUUID() : id
  if (typeof userId !== "string" || userId === "") {
    throw new CallbackRouteError(`The \`authorize\` of provider "${provider.id}" returned a user whose \`id\` is not a non-empty string.`)
  }
  return { ...(user as User), id: userId }
}
