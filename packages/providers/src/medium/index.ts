/**
 * Medium (OAuth 2.0). Medium no longer registers new API integrations; existing ones register
 * the callback URL `{origin}/api/auth/callback/medium`. Medium returns no email address, and its
 * token response lists scopes as an array and expiry as a millisecond timestamp, which are
 * rewritten to the standard form.
 *
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 * @module medium
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://api.medium.com/v1/me`. */
export interface MediumProfile {
  data: {
    id: string
    username: string
    name: string
    url: string
    imageUrl: string
  }
  [claim: string]: unknown
}

/** Medium sign-in. */
export default function Medium(config: OAuthUserConfig<MediumProfile> = {}): OAuth2Config<MediumProfile> {
  return oauthProvider<OAuth2Config<MediumProfile>>(
    {
      id: "medium",
      name: "Medium",
      type: "oauth",
      authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
      token: {
        url: "https://api.medium.com/v1/tokens",
        conform: conformTokenResponse({ joinScope: true, expiresAtMilliseconds: true }),
      },
      userinfo: "https://api.medium.com/v1/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ data }) => ({
        id: data.id,
        name: data.name || data.username,
        email: null,
        image: data.imageUrl || null,
      }),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
