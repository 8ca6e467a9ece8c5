/**
 * The three signed requests of an OAuth 1.0a sign-in (request token, access token, profile),
 * each bounded in time and size, each answer read defensively.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-2.1 Temporary Credentials
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-2.3 Token Credentials
 */
import { authorizationHeader, type SigningCredentials } from "./signature.js"
import { readLimitedText } from "../outbound/limited-body.js"

/** The largest credentials answer read (a few hundred bytes in practice). */
const MAX_FORM = 16 * 1024
/** The largest profile read. */
const MAX_PROFILE = 1024 * 1024

/** A failed step, in words safe for the log (never a token: answers are described, not quoted). */
export class StepError extends Error {}

function readLimited(response: Response, max: number, what: string): Promise<string> {
  return readLimitedText(response, max, () => new StepError(`the ${what} answer is too large`))
}

/** Sends one signed request; `signal` bounds it (the provider's timeout, the callback's deadline). */
async function signedFetch(
  method: "GET" | "POST",
  url: URL,
  credentials: SigningCredentials,
  protocol: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  const authorization = await authorizationHeader(method, url, credentials, protocol)
  return fetch(url, { method, headers: { authorization, accept: method === "GET" ? "application/json" : "*/*" }, redirect: "manual", signal })
}

/**
 * Asks for credentials (a request token or an access token): a signed POST whose answer is a
 * form with `oauth_token` and `oauth_token_secret`.
 *
 * @throws {StepError} when the provider fails, answers too much, or names no token.
 */
export async function requestCredentials(
  url: URL,
  credentials: SigningCredentials,
  protocol: Record<string, string>,
  signal: AbortSignal,
  what: string,
): Promise<URLSearchParams & { token: string; secret: string }> {
  const response = await signedFetch("POST", url, credentials, protocol, signal)
  if (!response.ok) {
    await response.body?.cancel()
    throw new StepError(`the ${what} endpoint answered HTTP ${response.status}`)
  }
  // X answers these with `text/html`: the content type says nothing, the body must parse as a form.
  const form = new URLSearchParams(await readLimited(response, MAX_FORM, what))
  const token = form.get("oauth_token")
  const secret = form.get("oauth_token_secret")
  if (token === null || token === "" || secret === null || secret === "" || form.getAll("oauth_token").length > 1) {
    throw new StepError(`the ${what} answer is not a form with one \`oauth_token\` and its \`oauth_token_secret\``)
  }
  return Object.assign(form, { token, secret })
}

/**
 * The profile: a signed GET of the profile URL with the access token, answered with a JSON object.
 *
 * @throws {StepError} when the provider fails or answers anything but one JSON object within limits.
 */
export async function requestProfile(url: URL, credentials: SigningCredentials, signal: AbortSignal): Promise<Record<string, unknown>> {
  const response = await signedFetch("GET", url, credentials, {}, signal)
  if (!response.ok) {
    await response.body?.cancel()
    throw new StepError(`the profile endpoint answered HTTP ${response.status}`)
  }
  let body: unknown
  try {
    body = JSON.parse(await readLimited(response, MAX_PROFILE, "profile"))
  } catch (cause) {
    if (cause instanceof StepError) throw cause
    throw new StepError("the profile answer is not JSON")
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new StepError("the profile answer is not a JSON object")
  return body as Record<string, unknown>
}

/** A failed step in words for the log: a timeout named as one, a provider's answer described, never quoted. */
export function describeFailure(provider: string, timeout: number, cause: unknown): string {
  if (cause instanceof DOMException && (cause.name === "TimeoutError" || cause.name === "AbortError")) {
    return `Provider "${provider}" did not answer within ${timeout} ms.`
  }
  return `OAuth 1.0a sign-in with provider "${provider}" failed: ${cause instanceof StepError ? cause.message : "the request failed"}.`
}
