/**
 * HubSpot (OAuth 2.0). Create an app in a HubSpot developer account with the redirect URL
 * `{origin}/api/auth/callback/hubspot`. HubSpot has no userinfo endpoint: the signed-in user is read from
 * the access token's metadata, which gives an email and numeric ids but no name or picture.
 *
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 * @module hubspot
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://api.hubapi.com/oauth/v1/access-tokens/{token}`. */
export interface HubSpotProfile {
  token: string
  /** The email address of the user who granted access. */
  user: string
  user_id: number
  hub_id: number
  hub_domain: string
  app_id: number
  scopes: string[]
  token_type: string
  expires_in: number
  is_private_distribution?: boolean
  [claim: string]: unknown
}

/** HubSpot sign-in. */
export default function HubSpot(config: OAuthUserConfig<HubSpotProfile> = {}): OAuth2Config<HubSpotProfile> {
  return oauthProvider<OAuth2Config<HubSpotProfile>>(
    {
      id: "hubspot",
      name: "HubSpot",
      type: "oauth",
      authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
      token: "https://api.hubapi.com/oauth/v1/token",
      userinfo: {
        url: "https://api.hubapi.com/oauth/v1/access-tokens",
        // The token is a path segment here, not a header.
        async request({ tokens, url, fetch }) {
          const base = url ?? "https://api.hubapi.com/oauth/v1/access-tokens"
          const response = await fetch(`${base}/${encodeURIComponent(tokens.access_token ?? "")}`)
          // An error body is JSON too; mapped as a profile it would yield a user with no id.
          if (!response.ok) throw new Error(`HubSpot answered the token metadata request with HTTP ${response.status}`)
          return (await response.json()) as HubSpotProfile
        },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        // A missing user_id must stay missing (core then rejects the profile), never become "undefined".
        id: typeof profile.user_id === "number" || typeof profile.user_id === "string" ? String(profile.user_id) : undefined,
        name: null,
        email: profile.user,
        image: null,
      }),
      style: { logo, brandColor: "#ff7a59" },
    },
    config,
  )
}
