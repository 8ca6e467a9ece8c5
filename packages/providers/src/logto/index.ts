/**
 * Logto (OpenID Connect). Create a traditional web application in the Logto console with the redirect URI
 * `{origin}/api/auth/callback/logto`, and set `issuer` to the tenant's OIDC endpoint
 * (`https://<tenant-id>.logto.app/oidc`, or `<your-logto-url>/oidc` when self-hosted).
 *
 * @see https://docs.logto.io/integrate-logto/third-party-applications/oidc
 * @module logto
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of a Logto ID token with the `openid profile email` scopes. */
export interface LogtoProfile {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  at_hash?: string
  nonce?: string
  name: string | null
  username: string | null
  picture: string | null
  email?: string | null
  email_verified?: boolean
  phone_number?: string | null
  phone_number_verified?: boolean
  created_at?: number
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Logto sign-in.
 *
 * Without `issuer` (or `AUTH_LOGTO_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function Logto(config: OIDCUserConfig<LogtoProfile> = {}): OIDCConfig<LogtoProfile> {
  const issuer = tenantIssuer("logto", config, "your tenant's OIDC endpoint, e.g. https://abc123.logto.app/oidc")
  return oauthProvider<OIDCConfig<LogtoProfile>>(
    {
      id: "logto",
      name: "Logto",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid offline_access profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.username,
        email: profile.email ?? null,
        image: profile.picture,
      }),
      style: { brandColor: "#5d34f2" },
    },
    config,
  )
}
