/**
 * Duende IdentityServer 6 (OpenID Connect). Register a client with the authorization code grant and the
 * redirect URI `{origin}/api/auth/callback/duende-identity-server6`, then set `issuer` to your server's URL.
 * IdentityServer keeps user claims out of the ID token by default, so the profile is read from userinfo.
 *
 * @see https://docs.duendesoftware.com/identityserver/v6/reference/endpoints/
 * @module duende-identity-server6
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The userinfo claims IdentityServer returns for the `openid profile email` scopes. */
export interface DuendeIdentityServer6Profile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  website?: string
  [claim: string]: unknown
}

/**
 * Duende IdentityServer 6 sign-in.
 *
 * Without `issuer` (or `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function DuendeIdentityServer6(
  config: OIDCUserConfig<DuendeIdentityServer6Profile> = {},
): OIDCConfig<DuendeIdentityServer6Profile> {
  const issuer = tenantIssuer("duende-identity-server6", config, "your IdentityServer URL, e.g. https://identity.example.com")
  return oauthProvider<OIDCConfig<DuendeIdentityServer6Profile>>(
    {
      id: "duende-identity-server6",
      name: "Duende IdentityServer 6",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      idToken: false,
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#1b5e9c" },
    },
    config,
  )
}
