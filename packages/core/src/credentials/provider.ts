/**
 * A credentials provider's configuration, checked and normalised once.
 */
import { Configuration } from "../errors/errors.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { ProviderButtonStyles } from "../model.js"
import { inputAttribute, isRecord, optionalString } from "../config/read.js"

/** One declared form field, ready to render and to accept. */
export interface CredentialField {
  name: string
  label: string
  type: string
  placeholder: string | undefined
  autocomplete: string | undefined
  required: boolean
  /** The other declared `<input>` attributes, HTML-named (see `ATTRIBUTES`). */
  attributes: (readonly [name: string, value: string | true])[]
}

/** A credentials provider as the routes use it. */
export interface InternalCredentialsProvider {
  id: string
  name: string
  type: "credentials"
  /** The declared fields, in order: the only ones accepted from the browser. */
  fields: CredentialField[]
  /** The names of `fields`, for checking a submitted form. */
  fieldNames: ReadonlySet<string>
  authorize: CredentialsConfig["authorize"]
  style: ProviderButtonStyles
  /** The field that names the account, whose failed attempts are counted (`undefined`: none is). */
  identifierField: string | undefined
}

/** A name that is safe as a form field and an element id, and says what it holds. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

/** Fields the sign-in form itself sends beside the credentials. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set(["csrfToken", "callbackUrl"])

const INPUT_TYPES = new Set(["text", "password", "email", "tel", "number", "url"])

/** The `<input>` attributes a field may declare beyond its label, type and placeholder: Auth.js's name, HTML's, and the value it takes. */
const ATTRIBUTES: readonly (readonly [option: string, html: string, kind: "string" | "number" | "bound" | "boolean"])[] = [
  ["pattern", "pattern", "string"],
  ["minLength", "minlength", "number"],
  ["maxLength", "maxlength", "number"],
  ["min", "min", "bound"],
  ["max", "max", "bound"],
  ["step", "step", "bound"],
  ["inputMode", "inputmode", "string"],
  ["title", "title", "string"],
  ["autoFocus", "autofocus", "boolean"],
]

/** An attribute's value as the page writes it (`true` for a boolean one that is set), or `undefined` when it is not of its kind. */
function attributeText(value: unknown, kind: "string" | "number" | "bound" | "boolean"): string | true | undefined {
  if (kind === "boolean") return value === true ? true : undefined
  if (typeof value === "string") return kind === "number" ? undefined : value
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined
  return kind === "number" && !(Number.isInteger(value) && value >= 0) ? undefined : String(value)
}

/**
 * The declared `<input>` attributes of one field, checked.
 *
 * @throws {Configuration} naming the attribute whose value is not of its kind.
 */
function readAttributes(input: Record<string, unknown>, option: string): Pick<CredentialField, "autocomplete" | "required" | "attributes"> {
  const attributes: (readonly [string, string | true])[] = []
  for (const [name, html, kind] of ATTRIBUTES) {
    const value = inputAttribute(input[name])
    if (value === undefined || value === false) continue
    const text = attributeText(value, kind)
    if (text === undefined) throw new Configuration(`\`${option}.${name}\` must be ${kind === "boolean" ? "true or false" : kind === "string" ? "a string" : kind === "number" ? "a whole number" : "a number or a string"}.`)
    attributes.push([html, text])
  }
  const required = inputAttribute(input.required)
  if (required !== undefined && typeof required !== "boolean") throw new Configuration(`\`${option}.required\` must be a boolean.`)
  return {
    autocomplete: optionalString(inputAttribute(input.autoComplete ?? input.autocomplete), `${option}.autoComplete`),
    required: required !== false,
    attributes,
  }
}

/** More fields than any sign-in form needs: a bound on what a request may make us read. */
const MAX_FIELDS = 16

/**
 * Checks and normalises one credentials provider.
 *
 * @throws {Configuration} naming the provider and the option to fix.
 */
export function normalizeCredentialsProvider(config: CredentialsConfig): InternalCredentialsProvider {
  const { id } = config
  const at = (option: string): string => `providers["${id}"].${option}`
  if (typeof config.authorize !== "function") {
    throw new Configuration(`\`${at("authorize")}\` must be a function that checks the credentials and returns a user or null.`)
  }
  const declared: unknown = config.credentials
  if (!isRecord(declared)) throw new Configuration(`\`${at("credentials")}\` must be an object of form fields, such as \`{ username: { label: "Username" } }\`.`)
  const entries = Object.entries(declared)
  if (entries.length > MAX_FIELDS) throw new Configuration(`\`${at("credentials")}\` declares more than ${MAX_FIELDS} fields.`)
  const fields = entries.map(([name, input]): CredentialField => {
    const option = at(`credentials.${name}`)
    if (!FIELD_NAME.test(name) || RESERVED_FIELDS.has(name)) {
      throw new Configuration(`\`${option}\`: a field name must start with a letter, use letters, digits, \`-\` or \`_\`, and not be csrfToken or callbackUrl.`)
    }
    if (!isRecord(input)) throw new Configuration(`\`${option}\` must be an object such as \`{ label: "Password", type: "password" }\`.`)
    const type = optionalString(inputAttribute(input.type), `${option}.type`) ?? "text"
    if (!INPUT_TYPES.has(type)) throw new Configuration(`\`${option}.type\` must be one of ${[...INPUT_TYPES].join(", ")}.`)
    return {
      name,
      label: optionalString(input.label, `${option}.label`) ?? name,
      type,
      placeholder: optionalString(inputAttribute(input.placeholder), `${option}.placeholder`),
      ...readAttributes(input, option),
    }
  })
  if (config.style !== undefined && !isRecord(config.style)) throw new Configuration(`\`${at("style")}\` must be an object.`)
  const names = new Set(fields.map((field) => field.name))
  const identifierField = optionalString(config.identifierField, at("identifierField")) ?? (names.has("email") ? "email" : names.has("username") ? "username" : undefined)
  if (identifierField !== undefined && !names.has(identifierField)) {
    throw new Configuration(`\`${at("identifierField")}\` must name one of the declared fields (${[...names].join(", ")}).`)
  }
  return {
    id,
    name: typeof config.name === "string" && config.name !== "" ? config.name : id,
    type: "credentials",
    fields,
    fieldNames: names,
    identifierField,
    authorize: config.authorize,
    style: { ...config.style },
  }
}
