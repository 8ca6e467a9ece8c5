/**
 * FusionAuth (OpenID Connect). Enable OAuth on an application with the authorized redirect URL
 * `{origin}/api/auth/callback/fusionauth`, and set `issuer` to the tenant's issuer (Tenants > General).
 * Several tenants on one instance: append `?tenantId=<id>` to `wellKnown` so discovery picks the right one.
 *
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 * @module fusionauth
 */
import { Configuration } from "@auth/core/errors"
import { mergeProviderConfig, type OIDCConfig, type OIDCUserConfig } from "@auth/core/providers"

/** The claims of a FusionAuth ID token. */
export interface FusionAuthProfile {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  auth_time: number
  at_hash?: string
  c_hash?: string
  nonce?: string
  /** The application the user signed in to. */
  applicationId?: string
  authenticationType: string
  /** The tenant id. */
  tid: string
  sid?: string
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  roles?: string[]
  [claim: string]: unknown
}

/**
 * FusionAuth sign-in.
 *
 * @throws {Configuration} when `issuer` is missing.
 */
export default function FusionAuth(config: OIDCUserConfig<FusionAuthProfile> = {}): OIDCConfig<FusionAuthProfile> {
  if (config.issuer === undefined || config.issuer === "") {
    throw new Configuration("FusionAuth: set `issuer` to your FusionAuth tenant's issuer URL, e.g. https://auth.example.com")
  }
  return mergeProviderConfig<OIDCConfig<FusionAuthProfile>>(
    {
      id: "fusionauth",
      name: "FusionAuth",
      type: "oidc",
      issuer: config.issuer,
      authorization: { params: { scope: "openid offline_access email profile" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#f58320" },
    },
    config,
  )
}
