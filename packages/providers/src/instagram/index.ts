/**
 * Instagram API with Instagram Login (OAuth 2.0, professional accounts only: the Basic Display API is gone).
 * Set up Business Login in your Meta app and add the redirect URI `{origin}/api/auth/callback/instagram`.
 * The token answer lacks `token_type` and is sometimes wrapped in a `data` array; Instagram shares no email.
 *
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 * @module instagram
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user node of `GET https://graph.instagram.com/me` with the fields this provider asks for. */
export interface InstagramProfile {
  /** The app-scoped id of the user. */
  id: string
  /** The id of the professional account itself. */
  user_id: string
  username: string
  name?: string
  account_type: string
  profile_picture_url?: string
  [claim: string]: unknown
}

/** Instagram sign-in. */
export default function Instagram(config: OAuthUserConfig<InstagramProfile> = {}): OAuth2Config<InstagramProfile> {
  return oauthProvider<OAuth2Config<InstagramProfile>>(
    {
      id: "instagram",
      name: "Instagram",
      type: "oauth",
      authorization: { url: "https://www.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
      token: {
        url: "https://api.instagram.com/oauth/access_token",
        conform: conformTokenResponse({ nestedIn: "data", tokenType: "bearer" }),
      },
      userinfo: {
        url: "https://graph.instagram.com/me",
        params: { fields: "id,user_id,username,name,account_type,profile_picture_url" },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? profile.username,
        email: null,
        image: profile.profile_picture_url ?? null,
      }),
      style: { logo, brandColor: "#e1306c" },
    },
    config,
  )
}
