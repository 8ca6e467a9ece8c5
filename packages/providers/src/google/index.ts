/**
 * Google (OpenID Connect). Create an OAuth client ID of type "Web application" at
 * https://console.cloud.google.com/apis/credentials with the redirect URI
 * `{origin}/api/auth/callback/google`. Google issues a refresh token only with
 * `access_type: "offline"` (and, after the first consent, `prompt: "consent"`) in the authorization
 * params. The `hd` param only hints at a Workspace domain: check `profile.hd` to enforce one.
 *
 * @see https://developers.google.com/identity/openid-connect/openid-connect
 * @module google
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of Google's ID token (`name`, `picture`... need the `profile` scope, `email` the `email` one). */
export interface GoogleProfile {
  iss: string
  azp: string
  aud: string
  sub: string
  iat: number
  exp: number
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  /** The Google Workspace domain of the account; absent for consumer accounts. */
  hd?: string
  at_hash?: string
  nonce?: string
  [claim: string]: unknown
}

/** Google sign-in. */
export default function Google(config: OIDCUserConfig<GoogleProfile> = {}): OIDCConfig<GoogleProfile> {
  return oauthProvider<OIDCConfig<GoogleProfile>>(
    {
      id: "google",
      name: "Google",
      type: "oidc",
      issuer: "https://accounts.google.com",
      authorization: { params: { scope: "openid email profile" } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#4285f4" },
    },
    config,
  )
}
