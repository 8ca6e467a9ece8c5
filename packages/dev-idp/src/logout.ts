import { randomBytes } from "node:crypto"
import { request } from "node:http"

import type Provider from "oidc-provider"
import type { KoaContextWithOIDC } from "oidc-provider"

import type { ProviderMiddleware } from "./interactions.js"
import type { MemoryStore } from "./store.js"

/**
 * The event a logout token announces, as the key of its `events` claim.
 *
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#LogoutToken
 */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"

/** Seconds a logout token is valid, as oidc-provider issues them. */
const LOGOUT_TOKEN_TTL = 120

/**
 * What {@link DevIdp.logoutToken} puts into a logout token: the client it is for, the subject and
 * IdP session it ends, and any claim to add, replace or (set to `undefined`) remove.
 */
export interface LogoutTokenInput {
  /** The audience (`aud`): the relying party the token is for. Override `aud` to send it elsewhere. */
  clientId: string
  /** The account ended; omitted when not given. */
  sub?: string
  /** The IdP session ended, as the ID tokens of that session carried it; omitted when not given. */
  sid?: string
  /**
   * Any other claim, replacing a default (`iss`, `aud`, `iat`, `exp`, `jti`, `events`) or added
   * (`nonce`); `undefined` removes the default.
   */
  [claim: string]: unknown
}

/**
 * The claims of a logout token as oidc-provider sends it (`iss`, `aud`, `iat`, `exp` two minutes
 * on, a fresh `jti`, the back-channel logout event, and `sub` and/or `sid`), then the overrides.
 *
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#LogoutToken
 */
export function logoutTokenClaims(issuer: string, input: LogoutTokenInput, now = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  const { clientId, sub, sid, ...overrides } = input
  const claims: Record<string, unknown> = {
    iss: issuer,
    aud: clientId,
    iat: now,
    exp: now + LOGOUT_TOKEN_TTL,
    jti: randomBytes(16).toString("base64url"),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    ...(sub === undefined ? {} : { sub }),
    ...(sid === undefined ? {} : { sid }),
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) Reflect.deleteProperty(claims, name)
    else claims[name] = value
  }
  return claims
}

/** One logout token the IdP sent to a client's `backchannel_logout_uri` when a session ended. */
export interface BackchannelLogoutRecord {
  clientId: string
  sub: string
  /** The `sid` the token carried, when the client registered `backchannel_logout_session_required`. */
  sid: string | undefined
  /** Why the delivery failed (the relying party answered other than 200 or 204, or was unreachable); `undefined` when it succeeded. */
  error: string | undefined
}

/** Where `logoutSource` leaves the xsrf secret of a logout to confirm without asking. */
const CONFIRM_AT_ONCE = Symbol("dev-idp: confirm this logout at once")

/**
 * Marks an end-session request to be confirmed without showing the page, when it carried a valid
 * `id_token_hint` (oidc-provider has verified it by the time the page is rendered), as Keycloak
 * does. Returns whether it did.
 */
export function markLogoutConfirmed(ctx: KoaContextWithOIDC): boolean {
  const secret = ctx.oidc.session?.state?.secret
  if (ctx.oidc.entities.IdTokenHint === undefined || typeof secret !== "string") return false
  ;(ctx.state as Record<symbol, unknown>)[CONFIRM_AT_ONCE] = secret
  return true
}

/**
 * Confirms a marked logout in the same response: once oidc-provider has stored the logout's state
 * (the xsrf secret, `state`, `post_logout_redirect_uri`), posts the confirmation form to its own
 * `/session/end/confirm` with the browser's cookies, and answers with that response (the redirect
 * to `post_logout_redirect_uri` and the cleared session cookie). oidc-provider offers no way to
 * skip its confirmation, and this goes through its own route, so the session end, grant revocation
 * and back-channel logout are exactly what the "Sign out" button does.
 */
export function confirmMarkedLogout(issuer: string): ProviderMiddleware {
  return async (ctx, next) => {
    await next()
    const secret = (ctx.state as Record<symbol, unknown>)[CONFIRM_AT_ONCE]
    if (typeof secret !== "string") return
    const confirmed = await postToSelf(`${issuer}/session/end/confirm`, ctx.get("cookie"), new URLSearchParams({ xsrf: secret, logout: "yes" }))
    const earlier = ctx.response.headers["set-cookie"]
    const setCookies = [...(earlier === undefined ? [] : [earlier].flat().map(String)), ...confirmed.setCookies]
    ctx.body = confirmed.body
    ctx.status = confirmed.status
    for (const name of ["content-type", "location", "cache-control"]) {
      const value = confirmed.headers[name]
      if (value === undefined) ctx.remove(name)
      else ctx.set(name, value)
    }
    if (setCookies.length > 0) ctx.set("set-cookie", setCookies)
  }
}

interface SelfResponse {
  status: number
  headers: Record<string, string | undefined>
  setCookies: string[]
  body: string
}

/**
 * POSTs a form to the IdP itself over node:http rather than `fetch`, which a test may have stubbed.
 */
function postToSelf(url: string, cookie: string, form: URLSearchParams): Promise<SelfResponse> {
  const body = form.toString()
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("error", reject)
        incoming.on("end", () => {
          const headers: Record<string, string | undefined> = {}
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === "string") headers[name] = value
          }
          resolve({
            status: incoming.statusCode ?? 500,
            headers,
            setCookies: incoming.headers["set-cookie"] ?? [],
            body: Buffer.concat(chunks).toString("utf8"),
          })
        })
      },
    )
    outgoing.on("error", reject)
    outgoing.end(body)
  })
}

/** One client's part in a stored IdP session (oidc-provider's `Session.authorizations` entries). */
interface SessionAuthorization {
  sid?: string
  grantId?: string
  persistsLogout?: boolean
}

/** What {@link endAccountSessions} needs of the running IdP. */
export interface AccountSessionEnd {
  provider: Provider
  store: MemoryStore
  /** Whether back-channel logout is on. */
  backchannelLogout: boolean
  /** Called for each logout token sent, with the outcome. */
  onLogoutToken(record: BackchannelLogoutRecord): void
  /** Called for each grant revoked. */
  onGrantRevoked(): void
}

/**
 * Ends every IdP session of an account as an administrator's "sign out" does (Keycloak's admin
 * console): each client in those sessions with a `backchannel_logout_uri` gets a logout token (the
 * one oidc-provider sends from its end-session endpoint), each session's grants are revoked unless
 * they outlive a logout (offline access), and the sessions are forgotten, so the next
 * authorization shows the login form.
 *
 * @returns the logout tokens sent, in order.
 */
export async function endAccountSessions(sub: string, idp: AccountSessionEnd): Promise<BackchannelLogoutRecord[]> {
  const sent: BackchannelLogoutRecord[] = []
  for (const session of idp.store.sessionsOf(sub)) {
    const authorizations = (session.payload.authorizations ?? {}) as Record<string, SessionAuthorization>
    for (const [clientId, authorization] of Object.entries(authorizations)) {
      const client = await idp.provider.Client.find(clientId)
      if (idp.backchannelLogout && client?.backchannelLogoutUri !== undefined) {
        const sid = client.backchannelLogoutSessionRequired === true ? authorization.sid : undefined
        // Client#backchannelLogout is what oidc-provider's end-session endpoint calls (not in its typings).
        const deliver = (client as unknown as { backchannelLogout(sub: string, sid: string | undefined): Promise<void> }).backchannelLogout(sub, authorization.sid)
        const record = await deliver.then(
          () => ({ clientId, sub, sid, error: undefined }),
          (error: unknown) => ({ clientId, sub, sid, error: error instanceof Error ? error.message : String(error) }),
        )
        sent.push(record)
        idp.onLogoutToken(record)
      }
      if (authorization.grantId !== undefined && authorization.persistsLogout !== true) {
        await revokeGrant(idp.provider, authorization.grantId)
        idp.onGrantRevoked()
      }
    }
    idp.store.destroySession(session.id)
  }
  return sent
}

async function revokeGrant(provider: Provider, grantId: string): Promise<void> {
  await Promise.all([
    provider.AccessToken.revokeByGrantId(grantId),
    provider.RefreshToken.revokeByGrantId(grantId),
    provider.AuthorizationCode.revokeByGrantId(grantId),
  ])
  await (await provider.Grant.find(grantId))?.destroy()
}
