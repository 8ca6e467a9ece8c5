/**
 * Provider tokens kept in the sealed session cookie (`tokensInCookie`, JWT sessions without an
 * adapter): loaded at a sign-in with such a provider and by `getAccessToken` only.
 */
import type { Account } from "../model.js"
import type { JWT } from "../types.js"

/** A provider's tokens as the session cookie keeps them (`tokensInCookie`), under the `providerTokens` claim. */
export interface CookieTokens {
  /** The account's id at the provider, for the refresh events. */
  providerAccountId: string
  access_token: string
  refresh_token?: string
  /** Seconds since the epoch. */
  expires_at?: number
  refresh_token_expires_at?: number
  scope?: string
  token_type?: string
}

/** The `providerTokens` claim of a session token, by provider id (empty when there is none). */
export function providerTokensOf(token: JWT): Record<string, CookieTokens> {
  const claim = token.providerTokens
  return typeof claim === "object" && claim !== null && !Array.isArray(claim) ? (claim as Record<string, CookieTokens>) : {}
}

/** The session token with the sign-in's tokens added under `providerTokens` (a provider with `tokensInCookie`, no adapter). */
export function withProviderTokens(token: JWT, account: Account): JWT {
  if (typeof account.access_token !== "string") return token
  const tokens: CookieTokens = { providerAccountId: account.providerAccountId, access_token: account.access_token }
  for (const field of ["refresh_token", "scope", "token_type"] as const) if (typeof account[field] === "string") tokens[field] = account[field]
  if (typeof account.expires_at === "number") tokens.expires_at = account.expires_at
  const refreshIn = account.refresh_token_expires_in
  if (typeof refreshIn === "number" && refreshIn > 0) tokens.refresh_token_expires_at = Math.floor(Date.now() / 1000) + Math.floor(refreshIn)
  return { ...token, providerTokens: { ...providerTokensOf(token), [account.provider]: tokens } }
}

