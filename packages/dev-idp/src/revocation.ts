import type { Configuration, KoaContextWithOIDC } from "oidc-provider"

import type { ProviderMiddleware } from "./interactions.js"

type ProviderContext = Parameters<ProviderMiddleware>[0]
type RevocationPolicy = NonNullable<NonNullable<NonNullable<Configuration["features"]>["revocation"]>["allowedPolicy"]>

/** The revocation endpoint's path (oidc-provider's default route). */
export const REVOCATION_PATH = "/token/revocation"

/** One request to the revocation endpoint, as {@link DevIdp.revocations} lists them. */
export interface RevocationRecord {
  /** The client the request named (authenticated unless the status is `401`); `undefined` when it named none known. */
  clientId: string | undefined
  /** The `token` parameter as sent. */
  token: string | undefined
  tokenTypeHint: string | undefined
  /**
   * What the request revoked (with every other token of its grant): `undefined` for an unknown,
   * expired or foreign token (an unknown one still gets a `200`, per RFC 7009).
   */
  revoked: "refresh_token" | "access_token" | undefined
  /** The status answered (after any {@link DevIdp.onRevocationResponse} transform). */
  status: number
}

/** Where the policy leaves the kind of token it allowed to be revoked. */
const REVOKED = Symbol("dev-idp: revoked token kind")

/**
 * oidc-provider's default policy (a client may revoke its own tokens only; a confidential client
 * naming another's token gets an error), written out so it does not print its "should be changed"
 * notice, and noting what it allowed for {@link recordRevocations}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.1
 */
export function revocationPolicy(InvalidRequest: new (description: string) => Error): RevocationPolicy {
  return (ctx, client, token) => {
    if (token.clientId !== client.clientId) {
      if (client.clientAuthMethod === "none") return false
      throw new InvalidRequest("client is not authorized to revoke the presented token")
    }
    const kind = token.kind === "RefreshToken" ? "refresh_token" : token.kind === "AccessToken" ? "access_token" : undefined
    ;(ctx.state as Record<symbol, unknown>)[REVOKED] = kind
    return true
  }
}

/** Records every request to the revocation endpoint into `records`, after the other middleware have answered. */
export function recordRevocations(records: RevocationRecord[]): ProviderMiddleware {
  return async (ctx, next) => {
    if (ctx.path !== REVOCATION_PATH || ctx.method !== "POST") {
      await next()
      return
    }
    try {
      await next()
    } finally {
      records.push(revocationRecord(ctx))
    }
  }
}

function revocationRecord(ctx: ProviderContext): RevocationRecord {
  // ctx.oidc exists once oidc-provider's route ran; a request refused before it has none.
  const oidc = (ctx as Partial<Pick<KoaContextWithOIDC, "oidc">>).oidc
  const param = (name: string) => {
    const value: unknown = oidc?.params?.[name]
    return typeof value === "string" ? value : undefined
  }
  const revoked = (ctx.state as Record<symbol, unknown>)[REVOKED]
  return {
    clientId: oidc?.client?.clientId,
    token: param("token"),
    tokenTypeHint: param("token_type_hint"),
    revoked: revoked === "refresh_token" || revoked === "access_token" ? revoked : undefined,
    status: ctx.status,
  }
}
