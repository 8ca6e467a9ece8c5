/**
 * ClickUp (OAuth 2.0). A Workspace owner or admin creates an app under Settings → Apps → "Create
 * new app" with the redirect URL `{origin}/api/auth/callback/click-up`. ClickUp has no scopes and
 * no PKCE; its token response carries only `access_token`, and its API takes that token as the
 * bare `Authorization` header value, without `Bearer`.
 *
 * @see https://developer.clickup.com/docs/authentication
 * @module click-up
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record inside `GET https://api.clickup.com/api/v2/user`. */
export interface ClickUpUser {
  id: number
  username: string
  email: string
  color: string | null
  profilePicture: string | null
  initials: string
  week_start_day: number | null
  global_font_support: boolean | null
  timezone: string
  [claim: string]: unknown
}

/** The response of `GET https://api.clickup.com/api/v2/user`. */
export interface ClickUpProfile {
  user: ClickUpUser
  [claim: string]: unknown
}

/** ClickUp sign-in. */
export default function ClickUp(config: OAuthUserConfig<ClickUpProfile> = {}): OAuth2Config<ClickUpProfile> {
  return oauthProvider<OAuth2Config<ClickUpProfile>>(
    {
      id: "click-up",
      name: "ClickUp",
      type: "oauth",
      authorization: "https://app.clickup.com/api",
      token: {
        url: "https://api.clickup.com/api/v2/oauth/token",
        // The answer is `{ "access_token": "..." }`: no `token_type`.
        conform: conformTokenResponse({ tokenType: "bearer" }),
      },
      userinfo: {
        url: "https://api.clickup.com/api/v2/user",
        async request({ tokens, url, fetch }) {
          const response = await fetch(url ?? "https://api.clickup.com/api/v2/user", {
            headers: { Authorization: tokens.access_token ?? "" },
          })
          return (await response.json()) as ClickUpProfile
        },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ user }) => ({
        id: String(user.id),
        name: user.username,
        email: user.email,
        image: user.profilePicture,
      }),
      style: { logo, brandColor: "#7b68ee" },
    },
    config,
  )
}
