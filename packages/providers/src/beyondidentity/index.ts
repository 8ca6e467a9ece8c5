/**
 * Beyond Identity (OpenID Connect, passkeys). In the Admin Console create an application with the
 * redirect URI `{origin}/api/auth/callback/beyondidentity`. `issuer` is the application's issuer,
 * e.g. `https://auth-us.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`
 * (EU tenants use `auth-eu`).
 *
 * @see https://developer.beyondidentity.com/docs/
 * @module beyondidentity
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a Beyond Identity user. */
export interface BeyondIdentityProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  name?: string
  preferred_username?: string
  email?: string
  [claim: string]: unknown
}

/** Beyond Identity sign-in for one application. */
export default function BeyondIdentity(
  config: OIDCUserConfig<BeyondIdentityProfile> = {},
): OIDCConfig<BeyondIdentityProfile> {
  const issuer = tenantIssuer(
    "beyondidentity",
    config,
    "your application's issuer URL, e.g. https://auth-us.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>",
  )
  return oauthProvider<OIDCConfig<BeyondIdentityProfile>>(
    {
      id: "beyondidentity",
      name: "Beyond Identity",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#5077c5" },
    },
    config,
  )
}
