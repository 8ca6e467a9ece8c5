/**
 * Pipedrive (OAuth 2.0). Create an app in the Pipedrive Developer Hub with the callback URL
 * `{origin}/api/auth/callback/pipedrive`. Scopes are chosen on the app, not in the request, and
 * `/v1/users/me` wraps the user in `data`.
 *
 * @see https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 * @module pipedrive
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The answer of `GET https://api.pipedrive.com/v1/users/me`. */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    phone: string | null
    icon_url: string | null
    lang: number
    locale: string
    default_currency: string
    timezone_name: string
    timezone_offset: string
    active_flag: boolean
    is_admin: number
    role_id: number
    company_id: number
    company_name: string
    company_domain: string
    company_country: string
    created: string
    modified: string | null
    last_login: string
    [field: string]: unknown
  }
  [claim: string]: unknown
}

/** Pipedrive sign-in. */
export default function Pipedrive(config: OAuthUserConfig<PipedriveProfile> = {}): OAuth2Config<PipedriveProfile> {
  return oauthProvider<OAuth2Config<PipedriveProfile>>(
    {
      id: "pipedrive",
      name: "Pipedrive",
      type: "oauth",
      authorization: "https://oauth.pipedrive.com/oauth/authorize",
      token: "https://oauth.pipedrive.com/oauth/token",
      userinfo: "https://api.pipedrive.com/v1/users/me",
      checks: ["state"],
      profile: (profile) => ({
        id: String(profile.data.id),
        name: profile.data.name,
        email: profile.data.email,
        image: profile.data.icon_url,
      }),
      style: { brandColor: "#017737" },
    },
    config,
  )
}
