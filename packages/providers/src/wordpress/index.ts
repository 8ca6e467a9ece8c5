/**
 * WordPress.com (OAuth 2.0), also for Jetpack-connected sites. Create an application at
 * https://developer.wordpress.com/apps/ with the redirect URL `{origin}/api/auth/callback/wordpress`.
 * The default `auth` scope reads the signed-in user's profile at `/rest/v1.1/me`.
 *
 * @see https://developer.wordpress.com/docs/oauth2/
 * @module wordpress
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://public-api.wordpress.com/rest/v1.1/me`. */
export interface WordPressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  primary_blog: number
  primary_blog_url: string
  language: string
  locale_variant?: string
  token_site_id?: number | boolean
  token_scope?: string[]
  avatar_URL: string
  profile_URL: string
  verified: boolean
  email_verified: boolean
  date: string
  site_count: number
  visible_site_count: number
  has_unseen_notes: boolean
  newest_note_type: string
  phone_account: boolean
  is_valid_google_apps_country: boolean
  logout_URL: string
  [claim: string]: unknown
}

/** WordPress.com sign-in. */
export default function WordPress(config: OAuthUserConfig<WordPressProfile> = {}): OAuth2Config<WordPressProfile> {
  return oauthProvider<OAuth2Config<WordPressProfile>>(
    {
      id: "wordpress",
      name: "WordPress.com",
      type: "oauth",
      authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
      token: "https://public-api.wordpress.com/oauth2/token",
      userinfo: "https://public-api.wordpress.com/rest/v1.1/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.ID),
        name: profile.display_name || profile.username,
        email: profile.email,
        image: profile.avatar_URL,
      }),
      style: { logo, brandColor: "#3858e9" },
    },
    config,
  )
}
