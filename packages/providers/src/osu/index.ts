/**
 * osu! (OAuth 2.0). Register an OAuth application at https://osu.ppy.sh/home/account/edit
 * (section "OAuth") with the callback URL `{origin}/api/auth/callback/osu`. osu! shares no email
 * address; the `identify` scope is enough to read the user.
 *
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 * @module osu
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://osu.ppy.sh/api/v2/me`. */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  default_group: string
  is_active: boolean
  is_bot: boolean
  is_deleted: boolean
  is_online: boolean
  is_supporter: boolean
  last_visit: string | null
  pm_friends_only: boolean
  profile_colour: string | null
  cover_url?: string
  join_date?: string
  location?: string | null
  occupation?: string | null
  interests?: string | null
  playmode?: string
  title?: string | null
  twitter?: string | null
  discord?: string | null
  website?: string | null
  country?: { code: string; name: string }
  [claim: string]: unknown
}

/** osu! sign-in. */
export default function Osu(config: OAuthUserConfig<OsuProfile> = {}): OAuth2Config<OsuProfile> {
  return oauthProvider<OAuth2Config<OsuProfile>>(
    {
      id: "osu",
      name: "osu!",
      type: "oauth",
      authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
      token: "https://osu.ppy.sh/oauth/token",
      userinfo: "https://osu.ppy.sh/api/v2/me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.username,
        email: null,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#ff66aa" },
    },
    config,
  )
}
