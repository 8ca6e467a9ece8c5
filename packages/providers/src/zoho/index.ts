/**
 * Zoho Accounts (OAuth 2.0). Register a server-based client at https://api-console.zoho.com with the
 * redirect URI `{origin}/api/auth/callback/zoho`. The endpoints are those of the US data centre; accounts
 * in another one (EU, IN, AU, JP...) must override them with their own domain, e.g. `accounts.zoho.eu`.
 *
 * @see https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html
 * @module zoho
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://accounts.zoho.com/oauth/user/info`. */
export interface ZohoProfile {
  ZUID: number
  Email: string
  Display_Name: string
  First_Name: string
  Last_Name: string
  [claim: string]: unknown
}

/** Zoho sign-in. */
export default function Zoho(config: OAuthUserConfig<ZohoProfile> = {}): OAuth2Config<ZohoProfile> {
  return oauthProvider<OAuth2Config<ZohoProfile>>(
    {
      id: "zoho",
      name: "Zoho",
      type: "oauth",
      authorization: { url: "https://accounts.zoho.com/oauth/v2/auth", params: { scope: "AaaServer.profile.Read" } },
      token: "https://accounts.zoho.com/oauth/v2/token",
      userinfo: "https://accounts.zoho.com/oauth/user/info",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.ZUID),
        name: profile.Display_Name,
        email: profile.Email,
        image: null,
      }),
      style: { logo, brandColor: "#e42527" },
    },
    config,
  )
}
