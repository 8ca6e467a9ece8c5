/**
 * Mailchimp (OAuth 2.0). Register an app under Account → Extras → Registered apps with the
 * redirect URI `{origin}/api/auth/callback/mailchimp` (use `127.0.0.1`, not `localhost`, in
 * development). Mailchimp has no scopes and no PKCE; its tokens never expire (`expires_in: 0`),
 * and its metadata endpoint wants `Authorization: OAuth <token>`.
 *
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 * @module mailchimp
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The response of `GET https://login.mailchimp.com/oauth2/metadata`. */
export interface MailchimpProfile {
  /** The data center, e.g. `us21`: the API host is `https://<dc>.api.mailchimp.com`. */
  dc: string
  role: string
  accountname: string
  user_id: number
  login: {
    email: string
    avatar: string | null
    login_id: number
    login_name: string
    login_email: string
  }
  login_url: string
  api_endpoint: string
  [claim: string]: unknown
}

/** Mailchimp sign-in. */
export default function Mailchimp(config: OAuthUserConfig<MailchimpProfile> = {}): OAuth2Config<MailchimpProfile> {
  return oauthProvider<OAuth2Config<MailchimpProfile>>(
    {
      id: "mailchimp",
      name: "Mailchimp",
      type: "oauth",
      authorization: "https://login.mailchimp.com/oauth2/authorize",
      token: {
        url: "https://login.mailchimp.com/oauth2/token",
        // `{ access_token, expires_in: 0, scope: null }`: no `token_type`, and 0 means "never".
        conform: conformTokenResponse({ tokenType: "bearer", drop: ["expires_in", "scope"] }),
      },
      userinfo: {
        url: "https://login.mailchimp.com/oauth2/metadata",
        async request({ tokens, url, fetch }) {
          const response = await fetch(url ?? "https://login.mailchimp.com/oauth2/metadata", {
            headers: { Authorization: `OAuth ${tokens.access_token ?? ""}`, Accept: "application/json" },
          })
          return (await response.json()) as MailchimpProfile
        },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.login.login_id),
        name: profile.login.login_name || profile.accountname,
        email: profile.login.email,
        image: profile.login.avatar,
      }),
      style: { logo, brandColor: "#ffe01b" },
    },
    config,
  )
}
