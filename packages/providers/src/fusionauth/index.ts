/**
 * FusionAuth (OpenID Connect). Enable OAuth on an application with the authorized redirect URL
 * `{origin}/api/auth/callback/fusionauth`, and set `issuer` to the tenant's issuer (Tenants > General).
 * Several tenants on one instance: append `?tenantId=<id>` to `wellKnown` so discovery picks the right one.
 *
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 * @module fusionauth
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

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

/** FusionAuth's own option. */
export interface FusionAuthOptions {
  /** The tenant, when the instance has several: sent with discovery and as an authorization parameter. */
  tenantId?: string
}

/**
 * FusionAuth sign-in.
 *
 * Without `issuer` (or `AUTH_FUSIONAUTH_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function FusionAuth(options: OIDCUserConfig<FusionAuthProfile> & FusionAuthOptions = {}): OIDCConfig<FusionAuthProfile> {
  const { tenantId, ...config } = options
  const issuer = tenantIssuer("fusionauth", config, "your FusionAuth tenant's issuer URL, e.g. https://auth.example.com")
  return oauthProvider<OIDCConfig<FusionAuthProfile>>(
    {
      id: "fusionauth",
      name: "FusionAuth",
      type: "oidc",
      issuer,
      // FusionAuth picks the tenant's keys and metadata by this parameter when several tenants share a host.
      ...(tenantId ? { wellKnown: `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration?tenantId=${encodeURIComponent(tenantId)}` } : {}),
      authorization: { params: { scope: "openid offline_access email profile", ...(tenantId ? { tenantId } : {}) } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#f58320" },
    },
    config,
  )
}
