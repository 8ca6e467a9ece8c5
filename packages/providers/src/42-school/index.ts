/**
 * 42 School intranet (OAuth 2.0). Register an application at https://profile.intra.42.fr/oauth/applications
 * with the redirect URI `{origin}/api/auth/callback/42-school`. The `public` scope is enough to read `/v2/me`.
 *
 * @see https://api.intra.42.fr/apidoc/guides/web_application_flow
 * @module 42-school
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.intra.42.fr/v2/me` (its most used fields). */
export interface FortyTwoProfile {
  id: number
  login: string
  email: string
  first_name: string
  last_name: string
  usual_full_name: string | null
  usual_first_name: string | null
  displayname: string
  url: string
  kind: string
  image: {
    link: string | null
    versions: { large: string | null; medium: string | null; small: string | null; micro: string | null }
  }
  "staff?": boolean
  pool_month: string | null
  pool_year: string | null
  location: string | null
  wallet: number
  correction_point: number
  created_at: string
  updated_at: string
  [claim: string]: unknown
}

/** 42 School sign-in. */
export default function FortyTwo(config: OAuthUserConfig<FortyTwoProfile> = {}): OAuth2Config<FortyTwoProfile> {
  return oauthProvider<OAuth2Config<FortyTwoProfile>>(
    {
      id: "42-school",
      name: "42 School",
      type: "oauth",
      authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
      token: "https://api.intra.42.fr/oauth/token",
      userinfo: "https://api.intra.42.fr/v2/me",
      checks: ["state"],
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.usual_full_name ?? profile.displayname,
        email: profile.email,
        image: profile.image.link,
      }),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
