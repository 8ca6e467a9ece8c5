/**
 * OneLogin (OpenID Connect), one account. Add an "OpenId Connect (OIDC)" app in the OneLogin
 * admin portal, set its Redirect URI to `{origin}/api/auth/callback/onelogin` and its token
 * endpoint authentication to "Basic". `issuer` is `https://<subdomain>.onelogin.com/oidc/2`.
 *
 * @see https://developers.onelogin.com/openid-connect
 * @module onelogin
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a OneLogin user (`openid profile email` scopes). */
export interface OneLoginProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  /** The numeric user id, as a string. */
  sub: string
  sid?: string
  nonce?: string
  at_hash?: string
  email?: string
  preferred_username?: string
  name?: string
  given_name?: string
  family_name?: string
  updated_at?: number
  groups?: string[]
  params?: Record<string, string>
  [claim: string]: unknown
}

/** OneLogin sign-in for one account. */
export default function OneLogin(config: OIDCUserConfig<OneLoginProfile> = {}): OIDCConfig<OneLoginProfile> {
  const issuer = tenantIssuer("onelogin", config, "your account's OIDC URL, e.g. https://acme.onelogin.com/oidc/2")
  return oauthProvider<OIDCConfig<OneLoginProfile>>(
    {
      id: "onelogin",
      name: "OneLogin",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#1c1f2a" },
    },
    config,
  )
}
