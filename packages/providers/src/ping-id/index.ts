/**
 * Ping Identity PingOne (OpenID Connect), one environment. Add an "OIDC Web App" application in
 * the PingOne admin console with the redirect URI `{origin}/api/auth/callback/ping-id`.
 * `issuer` is `https://auth.pingone.<region>/<environment id>/as`, the region being `com`, `eu`,
 * `ca` or `asia`.
 *
 * @see https://docs.pingidentity.com/r/en-us/pingone/p1_c_add_oidc_app
 * @module ping-id
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The record of the environment's userinfo endpoint (`openid profile email` scopes). */
export interface PingProfile {
  /** The user id (a UUID). */
  sub: string
  /** The environment id. */
  env?: string
  /** The organization id. */
  org?: string
  "p1.region"?: string
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  locale?: string
  zoneinfo?: string
  updated_at?: number
  [claim: string]: unknown
}

/** PingOne sign-in for one environment. */
export default function PingId(config: OIDCUserConfig<PingProfile> = {}): OIDCConfig<PingProfile> {
  const issuer = tenantIssuer(
    "ping-id",
    config,
    "your environment's issuer URL, e.g. https://auth.pingone.com/<environment id>/as",
  )
  return oauthProvider<OIDCConfig<PingProfile>>(
    {
      id: "ping-id",
      name: "Ping Identity",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      // PingOne maps profile attributes into userinfo; its ID token may carry little beyond `sub`.
      idToken: false,
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#b3282d" },
    },
    config,
  )
}
