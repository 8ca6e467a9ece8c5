/**
 * BankID Norway (OpenID Connect, BankID's own OIDC service). Get client credentials through a BankID
 * partner, register the redirect URI `{origin}/api/auth/callback/bankid-no`, and for the preproduction
 * environment override `issuer` with BankID's "current" one. `email` is never in the ID token.
 *
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl
 * @module bankid-no
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of a BankID ID token with the `openid profile` scopes. */
export interface BankIDNorwayProfile {
  iss: string
  sub: string
  aud: string
  azp: string
  iat: number
  exp: number
  auth_time: number
  jti: string
  typ?: string
  nonce?: string
  session_state?: string
  sid?: string
  at_hash?: string
  /** The IDP option and level of assurance, e.g. `urn:bankid:bid;LOA=4`. */
  acr: string
  /** The IDP option used: BID (code device), BIM (mobile) or BIS (app). */
  amr: string
  name: string
  given_name: string
  family_name: string
  birthdate: string
  updated_at?: number
  /** The personal identifier of the user's BankID certificate. */
  bankid_altsub?: string
  /** Only from the userinfo endpoint. */
  email?: string
  [claim: string]: unknown
}

/** BankID Norway sign-in. */
export default function BankIDNorway(config: OIDCUserConfig<BankIDNorwayProfile> = {}): OIDCConfig<BankIDNorwayProfile> {
  return oauthProvider<OIDCConfig<BankIDNorwayProfile>>(
    {
      id: "bankid-no",
      name: "BankID",
      type: "oidc",
      issuer: "https://auth.bankid.no/auth/realms/prod",
      authorization: { params: { scope: "openid profile" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#39134c" },
    },
    config,
  )
}
