/**
 * Okta (OpenID Connect). Create an OIDC web app integration in your Okta admin console with the sign-in
 * redirect URI `{origin}/api/auth/callback/okta`, and set `issuer` to your authorization server: the org one
 * (`https://<domain>.okta.com`) or a custom one (`https://<domain>.okta.com/oauth2/default`).
 *
 * @see https://developer.okta.com/docs/reference/api/oidc/
 * @module okta
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of an Okta ID token with the `openid profile email` scopes. */
export interface OktaProfile {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  ver: number
  amr: string[]
  idp: string
  auth_time: number
  nonce?: string
  at_hash?: string
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string
  zoneinfo?: string
  updated_at?: number
  [claim: string]: unknown
}

/**
 * Okta sign-in.
 *
 * Without `issuer` (or `AUTH_OKTA_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function Okta(config: OIDCUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  const issuer = tenantIssuer(
    "okta",
    config,
    "your Okta authorization server URL, e.g. https://dev-123456.okta.com/oauth2/default",
  )
  return oauthProvider<OIDCConfig<OktaProfile>>(
    {
      id: "okta",
      name: "Okta",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#007dc1" },
    },
    config,
  )
}
