/**
 * Atlassian (OAuth 2.0 "3LO"). Create an app at https://developer.atlassian.com/console/myapps/, enable
 * the User Identity API and set the callback URL `{origin}/api/auth/callback/atlassian`. The authorization
 * request must carry `audience=api.atlassian.com`; add product scopes (and `offline_access`) as you need them.
 *
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 * @module atlassian
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The account record of `GET https://api.atlassian.com/me`. */
export interface AtlassianProfile {
  account_id: string
  account_type: string
  account_status: string
  email: string
  email_verified?: boolean
  name: string
  nickname: string
  picture: string
  zoneinfo?: string
  locale?: string
  last_updated?: string
  extended_profile?: {
    job_title?: string
    organization?: string
    department?: string
    location?: string
  }
  [claim: string]: unknown
}

/** Atlassian sign-in. */
export default function Atlassian(config: OAuthUserConfig<AtlassianProfile> = {}): OAuth2Config<AtlassianProfile> {
  return oauthProvider<OAuth2Config<AtlassianProfile>>(
    {
      id: "atlassian",
      name: "Atlassian",
      type: "oauth",
      authorization: {
        url: "https://auth.atlassian.com/authorize",
        params: { scope: "read:me", audience: "api.atlassian.com", prompt: "consent" },
      },
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
      // The 3LO docs require `state` and document no PKCE support.
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.account_id,
        name: profile.name,
        email: profile.email,
        image: profile.picture,
      }),
      style: { logo, brandColor: "#0052cc" },
    },
    config,
  )
}
