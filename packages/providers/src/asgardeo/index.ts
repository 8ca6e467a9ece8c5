/**
 * Asgardeo by WSO2 (OpenID Connect). Register a "Traditional Web Application" with OpenID Connect
 * in the Asgardeo Console and add the authorized redirect URL `{origin}/api/auth/callback/asgardeo`.
 * `issuer` is your organization's token endpoint, e.g. `https://api.asgardeo.io/t/acme/oauth2/token`;
 * mark the user attributes you need (email, name, photo) as requested in the app's "User Attributes" tab.
 *
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/discover-oidc-configs/
 * @module asgardeo
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims Asgardeo issues for the `openid profile email` scopes. */
export interface AsgardeoProfile {
  sub: string
  iss: string
  aud: string | string[]
  azp?: string
  exp: number
  iat: number
  sid?: string
  org_id?: string
  org_name?: string
  username?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** Asgardeo sign-in for one organization. */
export default function Asgardeo(config: OIDCUserConfig<AsgardeoProfile> = {}): OIDCConfig<AsgardeoProfile> {
  const issuer = tenantIssuer(
    "asgardeo",
    config,
    "your organization's token endpoint URL, e.g. https://api.asgardeo.io/t/acme/oauth2/token",
  )
  return oauthProvider<OIDCConfig<AsgardeoProfile>>(
    {
      id: "asgardeo",
      name: "Asgardeo",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#ff7300" },
    },
    config,
  )
}
