/**
 * Strava (OAuth 2.0). Create an API application at https://www.strava.com/settings/api and set
 * its "Authorization Callback Domain" to your host (Strava checks the domain, not the path
 * `{origin}/api/auth/callback/strava`). Strava shares no email address, has no PKCE, and
 * separates scopes with commas.
 *
 * @see https://developers.strava.com/docs/authentication/
 * @module strava
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The athlete record of `GET https://www.strava.com/api/v3/athlete`. */
export interface StravaProfile {
  id: number
  username: string | null
  resource_state: number
  firstname: string
  lastname: string
  bio: string | null
  city: string | null
  state: string | null
  country: string | null
  /** `M`, `F` or `null`. */
  sex: string | null
  premium: boolean
  summit: boolean
  created_at: string
  updated_at: string
  badge_type_id: number
  weight: number | null
  /** 124×124 avatar. */
  profile_medium: string
  /** Large avatar. */
  profile: string
  follower_count?: number
  friend_count?: number
  /** `feet` or `meters`. */
  measurement_preference?: string
  [claim: string]: unknown
}

/** Strava sign-in. */
export default function Strava(config: OAuthUserConfig<StravaProfile> = {}): OAuth2Config<StravaProfile> {
  return oauthProvider<OAuth2Config<StravaProfile>>(
    {
      id: "strava",
      name: "Strava",
      type: "oauth",
      authorization: {
        url: "https://www.strava.com/oauth/authorize",
        params: { scope: "read", approval_prompt: "auto" },
      },
      token: "https://www.strava.com/oauth/token",
      userinfo: "https://www.strava.com/api/v3/athlete",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: `${profile.firstname} ${profile.lastname}`.trim() || profile.username,
        email: null,
        image: profile.profile,
      }),
      style: { logo, brandColor: "#fc4c02" },
    },
    config,
  )
}
