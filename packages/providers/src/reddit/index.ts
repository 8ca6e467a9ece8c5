/**
 * Reddit (OAuth 2.0). Create a "web app" at https://www.reddit.com/prefs/apps with the redirect
 * URI `{origin}/api/auth/callback/reddit`. Reddit has no PKCE and shares no email address. Its
 * API rejects requests without a descriptive `User-Agent`, and escapes `&` as `&amp;` in
 * `icon_img`, which the mapping undoes.
 *
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 * @module reddit
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The account record of `GET https://oauth.reddit.com/api/v1/me` (`identity` scope). */
export interface RedditProfile {
  /** Base-36 account id, without the `t2_` prefix. */
  id: string
  name: string
  icon_img: string
  snoovatar_img: string
  created: number
  created_utc: number
  verified: boolean
  has_verified_email: boolean
  is_gold: boolean
  is_mod: boolean
  is_employee: boolean
  is_suspended: boolean
  over_18: boolean
  link_karma: number
  comment_karma: number
  total_karma: number
  subreddit?: { display_name: string; title: string; public_description: string; url: string; [key: string]: unknown }
  [claim: string]: unknown
}

/** Reddit sign-in. */
export default function Reddit(config: OAuthUserConfig<RedditProfile> = {}): OAuth2Config<RedditProfile> {
  return oauthProvider<OAuth2Config<RedditProfile>>(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity" } },
      token: "https://www.reddit.com/api/v1/access_token",
      userinfo: {
        url: "https://oauth.reddit.com/api/v1/me",
        async request({ tokens, url, fetch, provider }) {
          const response = await fetch(url ?? "https://oauth.reddit.com/api/v1/me", {
            headers: {
              Authorization: `Bearer ${tokens.access_token ?? ""}`,
              "User-Agent": `web:${provider.clientId ?? "auth"}:v1 (sign-in)`,
            },
          })
          return (await response.json()) as RedditProfile
        },
      },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: null,
        image: profile.icon_img ? profile.icon_img.replaceAll("&amp;", "&") : null,
      }),
      style: { logo, brandColor: "#ff4500" },
    },
    config,
  )
}
