/**
 * Mattermost (OAuth 2.0), self-hosted. With "Enable OAuth 2.0 Service Provider" on, add an OAuth
 * app under Integrations → OAuth 2.0 Applications with the callback URL
 * `{origin}/api/auth/callback/mattermost`. `issuer` is your server URL, e.g.
 * `https://chat.example.com`; the endpoints are derived from it.
 *
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 * @module mattermost
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET {issuer}/api/v4/users/me`. */
export interface MattermostProfile {
  /** 26 lowercase alphanumeric characters. */
  id: string
  create_at: number
  update_at: number
  delete_at: number
  username: string
  auth_service: string
  email: string
  email_verified: boolean
  nickname: string
  first_name: string
  last_name: string
  position: string
  roles: string
  locale: string
  timezone?: { automaticTimezone: string; manualTimezone: string; useAutomaticTimezone: string }
  last_picture_update?: number
  is_bot?: boolean
  disable_welcome_email?: boolean
  [claim: string]: unknown
}

/** Mattermost sign-in for one server. */
export default function Mattermost(config: OAuthUserConfig<MattermostProfile> = {}): OAuth2Config<MattermostProfile> {
  const issuer = tenantIssuer("mattermost", config, "your Mattermost server URL, e.g. https://chat.example.com")
  const server = issuer.replace(/\/+$/, "")
  return oauthProvider<OAuth2Config<MattermostProfile>>(
    {
      id: "mattermost",
      name: "Mattermost",
      type: "oauth",
      authorization: `${server}/oauth/authorize`,
      token: `${server}/oauth/access_token`,
      userinfo: `${server}/api/v4/users/me`,
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: `${profile.first_name} ${profile.last_name}`.trim() || profile.nickname || profile.username,
        email: profile.email,
        // The picture endpoint needs the user's session, so it cannot be used as an image URL.
        image: null,
      }),
      style: { logo, brandColor: "#1e325c" },
    },
    config,
  )
}
