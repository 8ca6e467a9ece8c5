/**
 * Starting a sign-in: the authorization URL the browser is sent to, with the check values.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 Authorization Request
 */
import type { SetCookie } from "../http/cookies.js"
import { OAuthSignInError } from "../errors/flow-errors.js"
import type { CookiesOptions } from "../model.js"
import type { FlowBinding } from "../internal.js"
import { createChecks } from "./checks.js"
import type { InternalOAuthProvider } from "./provider.js"
import { authorizationServer } from "./server.js"

/** Parameters a sign-in request may not override: they carry the protocol's guarantees. */
const PROTECTED = new Set(["response_type", "client_id", "redirect_uri", "state", "nonce", "code_challenge", "code_challenge_method"])

/** The URL to send the browser to, and the cookies to set before it goes. */
export interface AuthorizationRequest {
  url: URL
  cookies: SetCookie[]
}

/**
 * Builds the authorization URL for a provider.
 *
 * @throws {OAuthSignInError} when the provider's metadata cannot be fetched or names no
 *   authorization endpoint.
 */
export async function createAuthorizationUrl(
  provider: InternalOAuthProvider,
  context: {
    redirectUri: string
    secrets: readonly string[]
    cookies: CookiesOptions
    /** What the check values are bound to: the origin (where a redirect proxy returns), the browser, the signed-in user. */
    binding: FlowBinding
    /** Extra parameters from the sign-in request (`login_hint`, `prompt`, ...). */
    extraParams: URLSearchParams
  },
): Promise<AuthorizationRequest> {
  let endpoint: string | undefined
  try {
    endpoint = (await authorizationServer(provider)).authorization_endpoint
  } catch (cause) {
    throw new OAuthSignInError(`The metadata of provider "${provider.id}" could not be fetched.`, { cause })
  }
  if (endpoint === undefined) {
    throw new OAuthSignInError(`Provider "${provider.id}" has no authorization endpoint in its configuration or metadata.`)
  }
  const url = new URL(endpoint)
  const checks = await createChecks(provider.checks, context.secrets, context.cookies, context.binding)
  const params = url.searchParams
  for (const [key, value] of Object.entries(provider.authorization.params)) params.set(key, value)
  for (const [key, value] of context.extraParams) if (!PROTECTED.has(key)) params.set(key, value)
  params.set("response_type", "code")
  params.set("client_id", provider.clientId)
  params.set("redirect_uri", context.redirectUri)
  for (const [key, value] of Object.entries(checks.params)) params.set(key, value)
  return { url, cookies: checks.cookies }
}
