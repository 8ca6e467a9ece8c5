/**
 * Dribbble (OAuth 2.0). Register an application at https://dribbble.com/account/applications
 * with the callback URL `{origin}/api/auth/callback/dribbble`. The API shares no email address,
 * so `email` is `null` unless Dribbble sends one.
 *
 * @see https://developer.dribbble.com/v2/oauth/
 * @module dribbble
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.dribbble.com/v2/user`. */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  html_url: string
  avatar_url: string
  bio: string
  location: string | null
  links: { web?: string; twitter?: string; [site: string]: string | undefined }
  can_upload_shot: boolean
  pro: boolean
  followers_count: number
  created_at: string
  type: string
  teams: { id: number; name: string; login: string; html_url: string; avatar_url: string }[]
  email?: string | null
  [claim: string]: unknown
}

/** Dribbble's own option. */
export interface DribbbleOptions {
  /** The scopes asked for. Default `"public"`. */
  scope?: "public" | "public upload"
}

/** Dribbble sign-in. */
export default function Dribbble(options: OAuthUserConfig<DribbbleProfile> & DribbbleOptions = {}): OAuth2Config<DribbbleProfile> {
  const { scope = "public", ...config } = options
  return oauthProvider<OAuth2Config<DribbbleProfile>>(
    {
      id: "dribbble",
      name: "Dribbble",
      type: "oauth",
      authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope } },
      token: "https://dribbble.com/oauth/token",
      userinfo: "https://api.dribbble.com/v2/user",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name || profile.login,
        email: profile.email ?? null,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#ea4c89" },
    },
    config,
  )
}
