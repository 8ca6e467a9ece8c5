/**
 * Passage by 1Password (OpenID Connect, passkeys). In the Passage Console create an app with a
 * "Regular Web App" OIDC client and the redirect URI `{origin}/api/auth/callback/passage`.
 * `issuer` is `https://auth.passage.id/v1/apps/<app id>`. Passage users have no name or picture,
 * only an email and/or phone number.
 *
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 * @module passage
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a Passage user. */
export interface PassageProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  auth_time?: number
  azp?: string
  client_id?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/** Passage sign-in for one app. */
export default function Passage(config: OIDCUserConfig<PassageProfile> = {}): OIDCConfig<PassageProfile> {
  const issuer = tenantIssuer("passage", config, "your app's issuer URL, e.g. https://auth.passage.id/v1/apps/<app id>")
  return oauthProvider<OIDCConfig<PassageProfile>>(
    {
      id: "passage",
      name: "Passage",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid email phone" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#0572ec" },
    },
    config,
  )
}
