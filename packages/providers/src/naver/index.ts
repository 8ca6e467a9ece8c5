/**
 * Naver (OAuth 2.0). Register an application at https://developers.naver.com/apps with "네이버
 * 로그인" and the callback URL `{origin}/api/auth/callback/naver`; the fields shared (email,
 * name, profile image...) are chosen there. Naver requires `state` and has no PKCE.
 *
 * @see https://developers.naver.com/docs/login/devguide/devguide.md
 * @module naver
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The member record inside `GET https://openapi.naver.com/v1/nid/me`. */
export interface NaverUser {
  /** Unique per application. */
  id: string
  nickname?: string
  name?: string
  email?: string
  /** `F`, `M` or `U`. */
  gender?: string
  age?: string
  birthday?: string
  birthyear?: string
  profile_image?: string
  mobile?: string
  mobile_e164?: string
  [claim: string]: unknown
}

/** The response of `GET https://openapi.naver.com/v1/nid/me`. */
export interface NaverProfile {
  resultcode: string
  message: string
  response: NaverUser
  [claim: string]: unknown
}

/** Naver sign-in. */
export default function Naver(config: OAuthUserConfig<NaverProfile> = {}): OAuth2Config<NaverProfile> {
  return oauthProvider<OAuth2Config<NaverProfile>>(
    {
      id: "naver",
      name: "Naver",
      type: "oauth",
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: "https://nid.naver.com/oauth2.0/token",
      userinfo: "https://openapi.naver.com/v1/nid/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ response }) => ({
        id: response.id,
        name: response.name ?? response.nickname ?? null,
        email: response.email ?? null,
        image: response.profile_image ?? null,
      }),
      style: { logo, brandColor: "#03c75a" },
    },
    config,
  )
}
