/**
 * Todoist (OAuth 2.0). Create an app in the App Management Console
 * (https://developer.todoist.com/appconsole.html) with the OAuth redirect URL
 * `{origin}/api/auth/callback/todoist`. Todoist requires `state` and has no PKCE.
 *
 * @see https://developer.todoist.com/api/v1/#tag/Authorization
 * @module todoist
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.todoist.com/api/v1/user`. */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_s640?: string | null
  avatar_small?: string | null
  business_account_id: string | null
  inbox_project_id: string
  is_premium: boolean
  premium_status: string
  lang: string
  tz_info: { gmt_string: string; hours: number; is_dst: number; minutes: number; timezone: string }
  start_day: number
  start_page: string
  karma: number
  karma_trend: string
  completed_count: number
  completed_today: number
  daily_goal: number
  weekly_goal: number
  [claim: string]: unknown
}

/** Todoist sign-in. */
export default function Todoist(config: OAuthUserConfig<TodoistProfile> = {}): OAuth2Config<TodoistProfile> {
  return oauthProvider<OAuth2Config<TodoistProfile>>(
    {
      id: "todoist",
      name: "Todoist",
      type: "oauth",
      authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
      token: "https://todoist.com/oauth/access_token",
      userinfo: "https://api.todoist.com/api/v1/user",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.full_name,
        email: profile.email,
        image: profile.avatar_big ?? null,
      }),
      style: { logo, brandColor: "#e44332" },
    },
    config,
  )
}
