/**
 * Kinde (OpenID Connect). Add a back-end web application in your Kinde business with the callback URL
 * `{origin}/api/auth/callback/kinde`, and set `issuer` to your Kinde domain
 * (`https://<business>.kinde.com`, or your custom domain).
 *
 * @see https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 * @module kinde
 */
import { Configuration } from "@auth/core/errors"
import { mergeProviderConfig, type OIDCConfig, type OIDCUserConfig } from "@auth/core/providers"

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
 * @throws {Configuration} when `issuer` is missing.
 */
export default function Kinde(config: OIDCUserConfig<KindeProfile> = {}): OIDCConfig<KindeProfile> {
  if (config.issuer === undefined || config.issuer === "") {
    throw new Configuration("Kinde: set `issuer` to your Kinde domain URL, e.g. https://your-business.kinde.com")
  }
  return mergeProviderConfig<OIDCConfig<KindeProfile>>(
    {
      id: "kinde",
      name: "Kinde",
      type: "oidc",
      issuer: config.issuer,
      authorization: { params: { scope: "openid profile email offline" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#000000" },
    },
    config,
  )
}
