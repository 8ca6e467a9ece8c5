/**
 * Concept2 Logbook (OAuth 2.0). Request API access at https://log.concept2.com/developers and set
 * the redirect URI `{origin}/api/auth/callback/concept2`. Scopes are comma-separated; the default
 * asks only to read the user and their results.
 *
 * @see https://log.concept2.com/developers/documentation/
 * @module concept2
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The user record inside `GET https://log.concept2.com/api/users/me`. */
export interface Concept2User {
  id: number
  username: string
  first_name: string
  last_name: string
  gender: string
  dob: string | null
  email: string
  country: string | null
  profile_image: string | null
  age_restricted: boolean
  email_permission: boolean | null
  max_heart_rate: number | null
  weight: number | null
  logbook_privacy: string | null
  [claim: string]: unknown
}

/** The response of `GET https://log.concept2.com/api/users/me`. */
export interface Concept2Profile {
  data: Concept2User
  [claim: string]: unknown
}

/** Concept2 Logbook sign-in. */
export default function Concept2(config: OAuthUserConfig<Concept2Profile> = {}): OAuth2Config<Concept2Profile> {
  return oauthProvider<OAuth2Config<Concept2Profile>>(
    {
      id: "concept2",
      name: "Concept2",
      type: "oauth",
      authorization: {
        url: "https://log.concept2.com/oauth/authorize",
        params: { scope: "user:read,results:read" },
      },
      token: "https://log.concept2.com/oauth/access_token",
      userinfo: "https://log.concept2.com/api/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ data }) => ({
        id: String(data.id),
        name: [data.first_name, data.last_name].filter(Boolean).join(" ") || data.username,
        email: data.email,
        image: data.profile_image,
      }),
      style: { brandColor: "#003a70" },
    },
    config,
  )
}
