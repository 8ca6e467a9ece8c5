/**
 * IdentityServer4 (OpenID Connect), self-hosted. Register a client with the authorization code
 * grant, a secret, the `openid profile email` scopes and the redirect URI
 * `{origin}/api/auth/callback/identity-server4`. `issuer` is the server's base URL, e.g.
 * `https://identity.example.com`. IdentityServer4 is out of support; Duende IdentityServer
 * speaks the same protocol.
 *
 * @see https://identityserver4.readthedocs.io/en/latest/topics/clients.html
 * @module identity-server4
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims for the standard `openid profile email` identity resources. */
export interface IdentityServer4Profile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  nbf?: number
  auth_time?: number
  idp?: string
  amr?: string[]
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  website?: string
  picture?: string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/** IdentityServer4 sign-in. */
export default function IdentityServer4(
  config: OIDCUserConfig<IdentityServer4Profile> = {},
): OIDCConfig<IdentityServer4Profile> {
  const issuer = tenantIssuer("identity-server4", config, "your server's URL, e.g. https://identity.example.com")
  return oauthProvider<OIDCConfig<IdentityServer4Profile>>(
    {
      id: "identity-server4",
      name: "IdentityServer4",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#009be1" },
    },
    config,
  )
}
