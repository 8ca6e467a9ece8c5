/**
 * Webex (OAuth 2.0 integration). Create an integration at
 * https://developer.webex.com/my-apps/new/integration with the `spark:people_read` scope and the
 * redirect URI `{origin}/api/auth/callback/webex`. A person can have several emails; the first
 * one is used. FedRAMP tenants use another API host: override the three endpoint URLs.
 *
 * @see https://developer.webex.com/docs/integrations
 * @module webex
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { baseUrlOption, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://webexapis.com/v1/people/me`. */
export interface WebexProfile {
  id: string
  emails: string[]
  phoneNumbers?: { type: string; value: string; primary?: boolean }[]
  displayName: string
  nickName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId: string
  created: string
  lastModified?: string
  lastActivity?: string
  status?: string
  type: string
  [claim: string]: unknown
}

/** Webex's own option. */
export interface WebexOptions {
  /** The API's base URL, for another Webex environment. Default `https://webexapis.com/v1`. */
  apiBaseUrl?: string
}

/** Webex sign-in. */
export default function Webex(options: OAuthUserConfig<WebexProfile> & WebexOptions = {}): OAuth2Config<WebexProfile> {
  const { apiBaseUrl, ...config } = options
  const api = baseUrlOption("webex", "apiBaseUrl", apiBaseUrl) ?? "https://webexapis.com/v1"
  return oauthProvider<OAuth2Config<WebexProfile>>(
    {
      id: "webex",
      name: "Webex",
      type: "oauth",
      authorization: { url: `${api}/authorize`, params: { scope: "spark:kms spark:people_read" } },
      token: `${api}/access_token`,
      userinfo: `${api}/people/me`,
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.displayName,
        email: profile.emails[0] ?? null,
        image: profile.avatar ?? null,
      }),
      style: { logo, brandColor: "#07c1e4" },
    },
    config,
  )
}
