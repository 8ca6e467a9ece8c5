/**
 * United Effects Core EOS (OpenID Connect). Register a client in your Auth Group with the
 * redirect URI `{origin}/api/auth/callback/united-effects`. `issuer` includes the Auth Group ID,
 * e.g. `https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3`. By design the ID token carries no
 * name or picture, only the subject and email.
 *
 * @see https://docs.unitedeffects.com/integrations/nextauthjs
 * @module united-effects
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a United Effects user. */
export interface UnitedEffectsProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  auth_time?: number
  email: string
  email_verified?: boolean
  [claim: string]: unknown
}

/** United Effects sign-in for one Auth Group. */
export default function UnitedEffects(
  config: OIDCUserConfig<UnitedEffectsProfile> = {},
): OIDCConfig<UnitedEffectsProfile> {
  const issuer = tenantIssuer(
    "united-effects",
    config,
    "your Auth Group URL, e.g. https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3",
  )
  return oauthProvider<OIDCConfig<UnitedEffectsProfile>>(
    {
      id: "united-effects",
      name: "United Effects",
      type: "oidc",
      issuer,
      // The Auth Group is also the resource (audience) the access token is issued for.
      authorization: { params: { scope: "openid email profile", resource: issuer } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#000000" },
    },
    config,
  )
}
