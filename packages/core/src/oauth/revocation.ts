/**
 * Revoking the provider's tokens when the user is gone (`revokeTokensOnSignOut`): an RFC 7009
 * request for the refresh token and the access token, at the provider's `revocation_endpoint`.
 * Provider tokens belong to the account, not to one device: with an adapter they are revoked
 * when the user signs out of their last session, or unlinks the account; kept in the session cookie
 * (`tokensInCookie`) they are that cookie's own. A failing or slow revocation is logged, without
 * the token, and never holds the sign-out up.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009
 */
import * as o from "oauth4webapi"
import type { Adapter, AdapterAccount } from "../adapters.js"
import { withRequestTimeout } from "../outbound/deadline.js"
import { AuthError } from "../errors/errors.js"
import { OAuthSignInError } from "../errors/flow-errors.js"
import type { FlowProvider, RequestContext } from "../internal.js"
import { sanitizeError } from "../errors/logger.js"
import type { JWT } from "../types.js"
import { providerTokensOf } from "../session/cookie-tokens.js"
import { callAdapter } from "../outbound/store.js"
import type { InternalOAuthProvider } from "./provider.js"
import { authorizationServer, clientAuthOf, clientOf, httpOptions } from "./server.js"

/** The longest a sign-out waits for the provider to confirm a revocation; the request goes on in the background. */
export const REVOCATION_WAIT_MS = 2_000

interface Revocable {
  token: string
  hint: "refresh_token" | "access_token"
}

function revocable(tokens: { refresh_token?: unknown; access_token?: unknown } | undefined): Revocable[] {
  const out: Revocable[] = []
  if (typeof tokens?.refresh_token === "string" && tokens.refresh_token !== "") out.push({ token: tokens.refresh_token, hint: "refresh_token" })
  if (typeof tokens?.access_token === "string" && tokens.access_token !== "") out.push({ token: tokens.access_token, hint: "access_token" })
  return out
}

/**
 * The tokens to revoke now: the ended cookie's own, or with an adapter the account's, once the
 * user has no live session left (the store's tokens are then cleared from the account).
 */
async function tokensToRevoke(adapter: Adapter | undefined, provider: InternalOAuthProvider, ended: { userId: string | undefined; token: JWT | null }): Promise<Revocable[]> {
  if (adapter === undefined) return ended.token === null ? [] : revocable(providerTokensOf(ended.token)[provider.id])
  const { userId } = ended
  if (userId === undefined) return []
  const now = Date.now()
  const live = (await callAdapter(adapter, "listSessionRecords", { userId })).filter((record) => (record.revokedAt ?? null) === null && new Date(record.expires).getTime() > now)
  if (live.length > 0) return []
  const account = (await callAdapter(adapter, "listAccountsByUserId", userId)).find((candidate) => candidate.provider === provider.id)
  if (account === undefined) return []
  const tokens = revocable(account)
  if (tokens.length > 0 && typeof adapter.updateAccount === "function") {
    await callAdapter(adapter, "updateAccount", { provider: account.provider, providerAccountId: account.providerAccountId, access_token: undefined, refresh_token: undefined, expires_at: undefined })
  }
  return tokens
}

async function revoke(provider: InternalOAuthProvider, { token, hint }: Revocable): Promise<void> {
  const server = await authorizationServer(provider)
  if (typeof server.revocation_endpoint !== "string") {
    throw new OAuthSignInError(`Provider "${provider.id}" has \`revokeTokensOnSignOut\` but its metadata has no \`revocation_endpoint\`.`)
  }
  await withRequestTimeout(provider.timeout, undefined, async (signal) => {
    const response = await o.revocationRequest(server, clientOf(provider), clientAuthOf(provider), token, {
      ...httpOptions(provider, signal),
      additionalParameters: { token_type_hint: hint },
    })
    await o.processRevocationResponse(response)
  })
}

/**
 * Revokes `tokens` at the provider, waiting at most {@link REVOCATION_WAIT_MS}; every failure is
 * logged with the tokens redacted, none is thrown.
 */
async function revokeAll(context: RequestContext, provider: InternalOAuthProvider, tokens: Revocable[] | (() => Promise<Revocable[]>), when: string): Promise<void> {
  const { config } = context
  const report = (cause: unknown): void => {
    const error = cause instanceof AuthError ? cause : new OAuthSignInError(`Revoking the tokens of provider "${provider.id}" ${when} failed.`, { cause })
    config.logger.error(sanitizeError(error, context.sensitive))
  }
  let found: Revocable[]
  try {
    found = typeof tokens === "function" ? await tokens() : tokens
  } catch (cause) {
    report(cause)
    return
  }
  for (const { token } of found) context.sensitive.add(token)
  const work = Promise.all(found.map((token) => revoke(provider, token).catch(report)))
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, REVOCATION_WAIT_MS)))])
  clearTimeout(timer)
}

/**
 * Revokes the provider's tokens of a session that just ended, when they are no one else's. Waits
 * at most {@link REVOCATION_WAIT_MS}; every failure is logged with the tokens redacted.
 */
export async function revokeOnSignOut(context: RequestContext, { options: provider }: FlowProvider<InternalOAuthProvider>, ended: { userId: string | undefined; token: JWT | null }): Promise<void> {
  await revokeAll(context, provider, () => tokensToRevoke(context.config.adapter, provider, ended), "at sign-out")
}

/**
 * Revokes the tokens of an account the user just unlinked: once unlinked they are no session's,
 * whatever sessions the user still has. Waits at most {@link REVOCATION_WAIT_MS}; every failure
 * is logged with the tokens redacted, and none undoes the unlink.
 */
export async function revokeOnUnlink(context: RequestContext, { options: provider }: FlowProvider<InternalOAuthProvider>, account: AdapterAccount): Promise<void> {
  await revokeAll(context, provider, revocable(account), "after its account was unlinked")
}
