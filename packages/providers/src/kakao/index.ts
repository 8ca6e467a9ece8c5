/**
 * Kakao (OAuth 2.0). Register an app at https://developers.kakao.com, enable Kakao Login, add the
 * redirect URI `{origin}/api/auth/callback/kakao`, and turn on "Client Secret" (Kakao then
 * requires it in the token request body). Which fields are shared is set by the consent items
 * of the app; `account_email` needs an app with business verification.
 *
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 * @module kakao
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The `kakao_account` block; each field is present only with the matching consent. */
export interface KakaoAccount {
  profile_needs_agreement?: boolean
  profile_nickname_needs_agreement?: boolean
  profile_image_needs_agreement?: boolean
  profile?: {
    nickname?: string
    thumbnail_image_url?: string
    profile_image_url?: string
    is_default_image?: boolean
    is_default_nickname?: boolean
  }
  name_needs_agreement?: boolean
  name?: string
  has_email?: boolean
  email_needs_agreement?: boolean
  is_email_valid?: boolean
  is_email_verified?: boolean
  email?: string
  age_range?: string
  birthyear?: string
  birthday?: string
  /** `female` or `male`. */
  gender?: string
  [field: string]: unknown
}

/** The user record of `GET https://kapi.kakao.com/v2/user/me`. */
export interface KakaoProfile {
  id: number
  connected_at?: string
  synched_at?: string
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string; [key: string]: string | undefined }
  kakao_account?: KakaoAccount
  [claim: string]: unknown
}

/** Kakao sign-in. */
export default function Kakao(config: OAuthUserConfig<KakaoProfile> = {}): OAuth2Config<KakaoProfile> {
  return oauthProvider<OAuth2Config<KakaoProfile>>(
    {
      id: "kakao",
      name: "Kakao",
      type: "oauth",
      authorization: "https://kauth.kakao.com/oauth/authorize",
      token: "https://kauth.kakao.com/oauth/token",
      userinfo: "https://kapi.kakao.com/v2/user/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => {
        const account = profile.kakao_account
        return {
          id: String(profile.id),
          name: account?.profile?.nickname ?? profile.properties?.nickname ?? null,
          email: account?.email ?? null,
          image: account?.profile?.profile_image_url ?? profile.properties?.profile_image ?? null,
        }
      },
      style: { logo, brandColor: "#fee500" },
    },
    config,
  )
}
