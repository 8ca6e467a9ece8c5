/**
 * The refresh token grant: new tokens for an account's refresh token, each failure a
 * `RefreshTokenError`. Reached only from `getAccessToken`, by a dynamic import.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 Refreshing an Access Token
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RefreshTokens
 */
import * as o from "oauth4webapi"
import { RefreshTokenError } from "../errors/flow-errors.js"
import type { InternalOAuthProvider } from "./provider.js"
import { withRequestTimeout } from "../outbound/deadline.js"
import { authorizationServer, clientAuthOf, clientOf, httpOptions, verifyIdTokenSignature } from "./server.js"

/** What a successful refresh gave: the fields of the token response an account keeps. */
export interface RefreshedTokens {
  access_token: string
  token_type: string
  /** Seconds since the epoch. */
  expires_at?: number
  /** Absent when the provider keeps the old refresh token valid (Google). */
  refresh_token?: string
  /** Seconds since the epoch, from `refresh_token_expires_in`. */
  refresh_token_expires_at?: number
  scope?: string
  id_token?: string
}

/** A refresh the provider refused with `invalid_grant`: the refresh token is no longer valid. */
export class InvalidGrant extends RefreshTokenError {}

function describe(provider: InternalOAuthProvider, cause: unknown): RefreshTokenError {
  if (cause instanceof RefreshTokenError) return cause
  if (cause instanceof o.ResponseBodyError) {
    const message = `Provider "${provider.id}" refused the refresh token: ${cause.error}${cause.error_description === undefined ? "" : `: ${cause.error_description}`}.`
    return cause.error === "invalid_grant" ? new InvalidGrant(message, { cause }) : new RefreshTokenError(message, { cause })
  }
  if (cause instanceof DOMException && (cause.name === "TimeoutError" || cause.name === "AbortError")) {
    return new RefreshTokenError(`The token endpoint of provider "${provider.id}" did not answer a refresh within ${provider.timeout} ms.`, { cause })
  }
  const detail = cause instanceof Error ? cause.message : String(cause)
  return new RefreshTokenError(`The refresh at provider "${provider.id}" failed: ${detail}.`, { cause })
}

/**
 * Spends `refreshToken` at the provider's token endpoint, with the provider's client
 * authentication, and validates the answer (an ID token in it by the issuer's keys).
 *
 * @throws {InvalidGrant} (a `RefreshTokenError`) when the provider answers `invalid_grant`.
 * @throws {RefreshTokenError} for every other failure: another error, no answer, an unusable response.
 */
export async function refreshTokens(provider: InternalOAuthProvider, refreshToken: string, sensitive: Set<string>): Promise<RefreshedTokens> {
  try {
    const server = await authorizationServer(provider)
    const { response, tokens } = await withRequestTimeout(provider.timeout, undefined, async (signal) => {
      const response = await o.refreshTokenGrantRequest(server, clientOf(provider), clientAuthOf(provider), refreshToken, {
        ...httpOptions(provider, signal),
        ...(provider.token.params === undefined ? {} : { additionalParameters: provider.token.params }),
      })
      return { response, tokens: await o.processRefreshTokenResponse(server, clientOf(provider), response) }
    })
    for (const value of [tokens.access_token, tokens.refresh_token, tokens.id_token]) if (typeof value === "string") sensitive.add(value)
    if (tokens.id_token !== undefined) await verifyIdTokenSignature(provider, server, response, undefined)
    if (tokens.token_type !== "bearer") throw new RefreshTokenError(`Provider "${provider.id}" issued a "${tokens.token_type}" token; only bearer tokens are supported.`)
    const now = Math.floor(Date.now() / 1000)
    const refreshed: RefreshedTokens = { access_token: tokens.access_token, token_type: tokens.token_type }
    if (typeof tokens.expires_in === "number") refreshed.expires_at = now + tokens.expires_in
    if (typeof tokens.refresh_token === "string" && tokens.refresh_token !== "") refreshed.refresh_token = tokens.refresh_token
    const refreshExpiresIn = tokens.refresh_token_expires_in
    if (typeof refreshExpiresIn === "number" && Number.isFinite(refreshExpiresIn) && refreshExpiresIn > 0) refreshed.refresh_token_expires_at = now + Math.floor(refreshExpiresIn)
    if (typeof tokens.scope === "string") refreshed.scope = tokens.scope
    if (typeof tokens.id_token === "string") refreshed.id_token = tokens.id_token
    return refreshed
  } catch (cause) {
    throw describe(provider, cause)
  }
}
