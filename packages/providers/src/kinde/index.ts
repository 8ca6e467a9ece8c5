/**
 * Kinde (OpenID Connect). Add a back-end web application in your Kinde business with the callback URL
 * `{origin}/api/auth/callback/kinde`, and set `issuer` to your Kinde domain
 * (`https://<business>.kinde.com`, or your custom domain).
 *
 * @see https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 * @module kinde
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of a Kinde ID token. */
export interface KindeProfile {
  iss: string
  sub: string
  aud: string | string[]
  azp?: string
  iat: number
  exp: number
  jti: string
  auth_time: number
  at_hash?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string | null
  org_codes?: string[]
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Kinde sign-in.
 *
 * Without `issuer` (or `AUTH_KINDE_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function Kinde(config: OIDCUserConfig<KindeProfile> = {}): OIDCConfig<KindeProfile> {
  const issuer = tenantIssuer("kinde", config, "your Kinde domain URL, e.g. https://your-business.kinde.com")
  return oauthProvider<OIDCConfig<KindeProfile>>(
    {
      id: "kinde",
      name: "Kinde",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email offline" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#000000" },
    },
    config,
  )
}
