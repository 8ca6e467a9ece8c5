/**
 * Pinterest (OAuth 2.0, API v5). Create an app at https://developers.pinterest.com/apps/ with the
 * redirect URI `{origin}/api/auth/callback/pinterest`. Pinterest shares no email address; apps
 * with trial access can only sign in their own collaborators.
 *
 * @see https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 * @module pinterest
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://api.pinterest.com/v5/user_account`. */
export interface PinterestProfile {
  id: string
  username: string
  account_type: string
  profile_image: string
  website_url: string
  about?: string
  business_name?: string | null
  board_count?: number
  pin_count?: number
  follower_count?: number
  following_count?: number
  monthly_views?: number
  [claim: string]: unknown
}

/** Pinterest sign-in. */
export default function Pinterest(config: OAuthUserConfig<PinterestProfile> = {}): OAuth2Config<PinterestProfile> {
  return oauthProvider<OAuth2Config<PinterestProfile>>(
    {
      id: "pinterest",
      name: "Pinterest",
      type: "oauth",
      authorization: { url: "https://www.pinterest.com/oauth/", params: { scope: "user_accounts:read" } },
      token: "https://api.pinterest.com/v5/oauth/token",
      userinfo: "https://api.pinterest.com/v5/user_account",
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.business_name ?? profile.username,
        email: null,
        image: profile.profile_image,
      }),
      style: { logo, brandColor: "#e60023" },
    },
    config,
  )
}
