/**
 * The token-response rewrite a provider declares as `token.conform`, written once: providers
 * state only how their answer differs from RFC 6749, section 5.1.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 Successful Response
 * @module
 */
import { OAuthCallbackError } from "../errors/errors.js"
import { readLimitedText } from "../outbound/limited-body.js"

/** The largest token response the rewrite reads, as core's own reading of a provider body. */
const MAX_BODY = 1024 * 1024

/** A standard field a provider sometimes sends with a value of the wrong type. */
export type DroppableTokenField = "expires_in" | "refresh_token" | "scope"

/** How a provider's token response differs from RFC 6749's. */
export interface ConformTokenResponseOptions {
  /**
   * The field that wraps the token object, itself or as the first entry of an array
   * (Instagram's `{ data: [{...}] }`). An answer without the field is read as the flat token
   * object; one whose field holds no object is left as it was.
   */
  nestedIn?: string
  /** The `token_type` assumed when the answer has none (several providers omit it). */
  tokenType?: "bearer"
  /** Joins a `scope` sent as a JSON array into RFC 6749's space-separated string. */
  joinScope?: boolean
  /** Turns an absolute `expires_at` in milliseconds since the epoch into `expires_in` seconds. */
  expiresAtMilliseconds?: boolean
  /**
   * Standard fields dropped when their value is not RFC 6749's type: a string, and for
   * `expires_in` a positive number (Notion's `refresh_token: null`, Mailchimp's `scope: null`
   * and `expires_in: 0`, which means "never").
   */
  drop?: readonly DroppableTokenField[]
}

/**
 * Builds a provider's `token.conform` from how its token response differs from the standard.
 *
 * The rewrite touches only a successful answer whose body is a JSON object: an error answer, a
 * body that is not JSON or not an object, and an answer the rewrite leaves as it was are handed
 * back unchanged (`undefined`), so core's own validation judges them (a token response without
 * `access_token` stays without one, and is refused there). A rewritten answer keeps its status.
 *
 * @throws {OAuthCallbackError} when the body is larger than 1 MiB; its message never quotes the body.
 * @example
 * ```ts
 * token: { url: "https://api.example.com/oauth/token", conform: conformTokenResponse({ tokenType: "bearer", joinScope: true }) }
 * ```
 */
export function conformTokenResponse(options: ConformTokenResponseOptions): (response: Response) => Promise<Response | undefined> {
  return async (response) => {
    if (!response.ok) return undefined
    const body = await readJsonObject(response)
    if (body === undefined) return undefined
    const unwrapped = unwrap(body, options.nestedIn)
    if (unwrapped === undefined) return undefined
    const tokens = rewrite(unwrapped, options)
    if (tokens === body) return undefined
    return Response.json(tokens, { status: response.status })
  }
}

/** The token object inside `body`, `undefined` when the wrapping field holds none. */
function unwrap(body: Record<string, unknown>, field: string | undefined): Record<string, unknown> | undefined {
  if (field === undefined || !Object.hasOwn(body, field)) return body
  const nested: unknown = body[field]
  const token: unknown = Array.isArray(nested) ? nested[0] : nested
  return isObject(token) ? token : undefined
}

/** The rewritten fields, or `fields` itself when nothing needed a change. */
function rewrite(fields: Record<string, unknown>, options: ConformTokenResponseOptions): Record<string, unknown> {
  const tokens = { ...fields }
  let changed = false
  if (options.tokenType !== undefined && tokens.token_type === undefined) {
    tokens.token_type = options.tokenType
    changed = true
  }
  if (options.joinScope === true && Array.isArray(tokens.scope)) {
    tokens.scope = tokens.scope.map(String).join(" ")
    changed = true
  }
  if (options.expiresAtMilliseconds === true && typeof tokens.expires_at === "number") {
    tokens.expires_in = Math.max(0, Math.floor((tokens.expires_at - Date.now()) / 1000))
    delete tokens.expires_at
    changed = true
  }
  for (const field of options.drop ?? []) {
    if (!Object.hasOwn(tokens, field) || isStandard(field, tokens[field])) continue
    Reflect.deleteProperty(tokens, field)
    changed = true
  }
  return changed ? tokens : fields
}

function isStandard(field: DroppableTokenField, value: unknown): boolean {
  return field === "expires_in" ? typeof value === "number" && value > 0 : typeof value === "string"
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** The body as a JSON object, `undefined` when it is not one; read no further than the size limit. */
async function readJsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  const text = await readLimitedText(response, MAX_BODY, () => new OAuthCallbackError(`The token response is larger than ${MAX_BODY} bytes.`))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: core's validation refuses it with its own error, which never quotes the body.
    return undefined
  }
  return isObject(body) ? body : undefined
}
