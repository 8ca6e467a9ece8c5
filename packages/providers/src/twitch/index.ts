/**
 * Twitch (OpenID Connect). Register an application at https://dev.twitch.tv/console/apps with the OAuth
 * redirect URL `{origin}/api/auth/callback/twitch`. Twitch puts email and picture in the ID token only when
 * asked through the `claims` parameter, and answers the token request with `scope` as an array.
 *
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 * @module twitch
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of a Twitch ID token with the claims this provider requests. */
export interface TwitchProfile {
  iss: string
  sub: string
  aud: string
  azp: string
  iat: number
  exp: number
  nonce?: string
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture?: string
  updated_at?: string
  [claim: string]: unknown
}

/** Twitch sign-in. */
export default function Twitch(config: OIDCUserConfig<TwitchProfile> = {}): OIDCConfig<TwitchProfile> {
  return oauthProvider<OIDCConfig<TwitchProfile>>(
    {
      id: "twitch",
      name: "Twitch",
      type: "oidc",
      issuer: "https://id.twitch.tv/oauth2",
      authorization: {
        params: {
          scope: "openid user:read:email",
          claims: JSON.stringify({ id_token: { email: null, email_verified: null, picture: null, preferred_username: null } }),
        },
      },
      token: {
        conform: conformTokenResponse({ joinScope: true }),
      },
      // Twitch documents no PKCE; it recommends both `state` and `nonce`.
      checks: ["nonce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.preferred_username,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { logo, brandColor: "#9146ff" },
    },
    config,
  )
}
