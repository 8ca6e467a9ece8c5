/**
 * Zoom (OAuth 2.0). Create a "General App" (user-managed) in the Zoom App Marketplace with the
 * OAuth redirect URL `{origin}/api/auth/callback/zoom`, add it to the allow list, and grant the
 * scope to view the user's profile (`user:read:user`). Scopes are set on the app, not requested
 * at sign-in.
 *
 * @see https://developers.zoom.us/docs/integrations/oauth/
 * @module zoom
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.zoom.us/v2/users/me`. */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name: string
  email: string
  /** 1 basic, 2 licensed, 4 unassigned without Meetings, 99 none. */
  type: number
  role_name: string
  pmi: number
  use_pmi: boolean
  personal_meeting_url: string
  timezone: string
  verified: number
  dept: string
  created_at: string
  user_created_at: string
  last_login_time: string
  last_client_version?: string
  pic_url?: string
  language: string
  phone_number: string
  status: string
  role_id: string
  account_id: string
  account_number: number
  cluster: string
  [claim: string]: unknown
}

/** Zoom sign-in. */
export default function Zoom(config: OAuthUserConfig<ZoomProfile> = {}): OAuth2Config<ZoomProfile> {
  return oauthProvider<OAuth2Config<ZoomProfile>>(
    {
      id: "zoom",
      name: "Zoom",
      type: "oauth",
      authorization: "https://zoom.us/oauth/authorize",
      token: "https://zoom.us/oauth/token",
      userinfo: "https://api.zoom.us/v2/users/me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name || `${profile.first_name} ${profile.last_name}`.trim(),
        email: profile.email,
        image: profile.pic_url ?? null,
      }),
      style: { logo, brandColor: "#0b5cff" },
    },
    config,
  )
}
