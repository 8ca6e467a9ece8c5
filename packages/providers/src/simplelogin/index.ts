/**
 * Sign in with SimpleLogin (OpenID Connect). Create a website at https://app.simplelogin.io/developer
 * and add the redirect URI `{origin}/api/auth/callback/simplelogin` (https, localhost excepted).
 * The claims shared (name, email, avatar) are chosen on the website's settings, not by scope;
 * `email` may be a SimpleLogin alias.
 *
 * @see https://simplelogin.io/docs/siwsl/intro/
 * @module simplelogin
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OIDCConfig, OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of SimpleLogin's ID token. */
export interface SimpleLoginProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  /** The user id for this website, as a string. */
  sub: string
  /** The same id, as a number. */
  id: number
  /** The website's name. */
  client: string
  email_verified: boolean
  email?: string
  name?: string
  avatar_url?: string | null
  [claim: string]: unknown
}

/** SimpleLogin sign-in. */
export default function SimpleLogin(
  config: OIDCUserConfig<SimpleLoginProfile> = {},
): OIDCConfig<SimpleLoginProfile> {
  return oauthProvider<OIDCConfig<SimpleLoginProfile>>(
    {
      id: "simplelogin",
      name: "SimpleLogin",
      type: "oidc",
      issuer: "https://app.simplelogin.io",
      // SimpleLogin fails on unknown scopes such as `profile`, ignores PKCE, and puts the `nonce`
      // into the ID token only when the scope is exactly `openid`: keep it so.
      authorization: { params: { scope: "openid" } },
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name || null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { logo, brandColor: "#e3156a" },
    },
    config,
  )
}
