/**
 * Descope (OpenID Connect). Your project ID is the client ID and an access key is the client
 * secret; add `{origin}/api/auth/callback/descope` to the project's approved redirect domains.
 * The issuer defaults to `https://api.descope.com/<project id>`; set `issuer` yourself when you
 * use a custom domain or a regional/federated app.
 *
 * @see https://docs.descope.com/getting-started/nextjs
 * @module descope
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a Descope user. */
export interface DescopeProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  amr?: string[]
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** Descope sign-in for one project. */
export default function Descope(config: OIDCUserConfig<DescopeProfile> = {}): OIDCConfig<DescopeProfile> {
  const projectIssuer = config.clientId ? `https://api.descope.com/${config.clientId}` : undefined
  const issuer = tenantIssuer(
    "descope",
    { issuer: config.issuer ?? projectIssuer },
    "your project's issuer URL, e.g. https://api.descope.com/P2abc123, or set `clientId` to your project ID",
  )
  return oauthProvider<OIDCConfig<DescopeProfile>>(
    {
      id: "descope",
      name: "Descope",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#1c1c23" },
    },
    config,
  )
}
