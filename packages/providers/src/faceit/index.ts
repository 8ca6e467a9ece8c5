/**
 * FACEIT Connect (OAuth 2.0). Create an OAuth2 client in the App Studio of
 * https://developers.faceit.com with the redirect URL `{origin}/api/auth/callback/faceit`.
 * FACEIT authenticates the client with HTTP Basic at the token endpoint.
 *
 * @see https://docs.faceit.com/getting-started/authentication/oauth2
 * @module faceit
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://api.faceit.com/auth/v1/resources/userinfo`. */
export interface FaceitProfile {
  /** The FACEIT player id (a UUID). */
  guid: string
  nickname: string
  email?: string
  picture?: string
  given_name?: string
  family_name?: string
  locale?: string
  birthdate?: string
  membership?: string
  memberships?: string[]
  [claim: string]: unknown
}

/** FACEIT sign-in. */
export default function Faceit(config: OAuthUserConfig<FaceitProfile> = {}): OAuth2Config<FaceitProfile> {
  return oauthProvider<OAuth2Config<FaceitProfile>>(
    {
      id: "faceit",
      name: "FACEIT",
      type: "oauth",
      authorization: {
        url: "https://accounts.faceit.com/accounts?redirect_popup=true",
        params: { scope: "openid email profile" },
      },
      token: "https://api.faceit.com/auth/v1/oauth/token",
      userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
      profile: (profile) => ({
        id: profile.guid,
        name: profile.nickname,
        email: profile.email ?? null,
        image: profile.picture || null,
      }),
      style: { logo, brandColor: "#ff5500" },
    },
    config,
  )
}
