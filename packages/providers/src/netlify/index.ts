/**
 * Netlify (OAuth 2.0). Create an OAuth application under User settings > Applications at
 * https://app.netlify.com/user/applications with the redirect URI `{origin}/api/auth/callback/netlify`.
 *
 * @see https://docs.netlify.com/api/get-started/#authentication
 * @module netlify
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://api.netlify.com/api/v1/user`. */
export interface NetlifyProfile {
  id: string
  uid?: string | null
  full_name: string | null
  avatar_url: string | null
  email: string
  affiliate_id?: string
  site_count: number
  created_at: string
  last_login: string
  login_providers: string[]
  [claim: string]: unknown
}

/** Netlify sign-in. */
export default function Netlify(config: OAuthUserConfig<NetlifyProfile> = {}): OAuth2Config<NetlifyProfile> {
  return oauthProvider<OAuth2Config<NetlifyProfile>>(
    {
      id: "netlify",
      name: "Netlify",
      type: "oauth",
      authorization: "https://app.netlify.com/authorize",
      token: "https://api.netlify.com/oauth/token",
      userinfo: "https://api.netlify.com/api/v1/user",
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.full_name,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#05bdba" },
    },
    config,
  )
}
