/**
 * Beyond Identity (OpenID Connect, passkeys). In the Admin Console create an application with the
 * redirect URI `{origin}/api/auth/callback/beyondidentity`. `issuer` is the application's issuer,
 * e.g. `https://auth-us.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`
 * (EU tenants use `auth-eu`).
 *
 * @see https://developer.beyondidentity.com/docs/
 * @module beyondidentity
 */
import { Configuration } from "@auth/core/errors"
import { mergeProviderConfig, type OIDCConfig, type OIDCUserConfig } from "@auth/core/providers"

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
  if (!config.issuer) {
    throw new Configuration(
      "BeyondIdentity: set `issuer` to your application's issuer URL, e.g. https://auth-us.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>",
    )
  }
  return mergeProviderConfig<OIDCConfig<BeyondIdentityProfile>>(
    {
      id: "beyondidentity",
      name: "Beyond Identity",
      type: "oidc",
      issuer: config.issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#5077c5" },
    },
    config,
  )
}
