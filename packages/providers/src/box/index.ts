/**
 * Box (OAuth 2.0). Create a "Custom App" with "User Authentication (OAuth 2.0)" at
 * https://app.box.com/developers/console and add the redirect URI
 * `{origin}/api/auth/callback/box`. Scopes are chosen in the app's configuration, not requested
 * at sign-in. Box does not support PKCE.
 *
 * @see https://developer.box.com/guides/authentication/oauth2/
 * @module box
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.box.com/2.0/users/me`. */
export interface BoxProfile {
  /** `"user"`. */
  type: string
  /** Numeric, but sent as a string. */
  id: string
  name: string
  /** The primary email address. */
  login: string
  created_at: string
  modified_at: string
  language: string
  timezone: string
  space_amount: number
  space_used: number
  max_upload_size: number
  /** `active`, `inactive`, `cannot_delete_edit` or `cannot_delete_edit_upload`. */
  status: string
  job_title: string
  phone: string
  address: string
  avatar_url: string
  notification_email?: { email: string; is_confirmed: boolean } | null
  [claim: string]: unknown
}

/** Box sign-in. */
export default function Box(config: OAuthUserConfig<BoxProfile> = {}): OAuth2Config<BoxProfile> {
  return oauthProvider<OAuth2Config<BoxProfile>>(
    {
      id: "box",
      name: "Box",
      type: "oauth",
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: "https://api.box.com/oauth2/token",
      userinfo: "https://api.box.com/2.0/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: profile.login,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#0061d5" },
    },
    config,
  )
}
