/**
 * Auth0 (OpenID Connect), one tenant. Create a "Regular Web Application" in the Auth0 dashboard
 * and add `{origin}/api/auth/callback/auth0` to its Allowed Callback URLs. `issuer` is your tenant
 * domain (or custom domain) as a URL, e.g. `https://dev-abc123.us.auth0.com`.
 *
 * @see https://auth0.com/docs/authenticate/protocols/openid-connect-protocol
 * @module auth0
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The ID token claims of an Auth0 user (`openid profile email` scopes). */
export interface Auth0Profile {
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  /** `<connection>|<user id>`, e.g. `auth0|65f0...` or `google-oauth2|1098...`. */
  sub: string
  sid?: string
  nonce?: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  picture?: string
  updated_at?: string
  email?: string
  email_verified?: boolean
  locale?: string
  [claim: string]: unknown
}

/** Auth0 sign-in for one tenant. */
export default function Auth0(config: OIDCUserConfig<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  const issuer = tenantIssuer("auth0", config, "your tenant domain URL, e.g. https://dev-abc123.us.auth0.com")
  return oauthProvider<OIDCConfig<Auth0Profile>>(
    {
      id: "auth0",
      name: "Auth0",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { logo, brandColor: "#eb5424" },
    },
    config,
  )
}
