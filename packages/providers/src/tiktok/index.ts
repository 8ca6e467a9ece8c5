/**
 * TikTok Login Kit for Web (OAuth 2.0). Add Login Kit to an app at https://developers.tiktok.com with the
 * redirect URI `{origin}/api/auth/callback/tiktok`. TikTok calls the client id `client_key`, both when
 * authorizing and when exchanging the code, so pass `clientId` to the factory. TikTok shares no email.
 *
 * @see https://developers.tiktok.com/doc/login-kit-web
 * @module tiktok
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://open.tiktokapis.com/v2/user/info/` with the fields this provider asks for. */
export interface TikTokProfile {
  data: {
    user: {
      /** The user's id for this app. */
      open_id: string
      /** The user's id across the developer's apps. */
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name: string
      username?: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
    }
  }
  error: { code: string; message: string; log_id: string }
  [claim: string]: unknown
}

/** TikTok sign-in. */
export default function TikTok(config: OAuthUserConfig<TikTokProfile> = {}): OAuth2Config<TikTokProfile> {
  return oauthProvider<OAuth2Config<TikTokProfile>>(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      authorization: {
        url: "https://www.tiktok.com/v2/auth/authorize/",
        params: { scope: "user.info.basic", client_key: config.clientId },
      },
      token: {
        url: "https://open.tiktokapis.com/v2/oauth/token/",
        async request({ params, url, fetch, provider }) {
          const body = new URLSearchParams({
            client_key: provider.clientId ?? "",
            client_secret: provider.clientSecret ?? "",
            code: params.code,
            grant_type: "authorization_code",
            redirect_uri: params.redirect_uri,
          })
          const response = await fetch(url ?? "https://open.tiktokapis.com/v2/oauth/token/", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body,
          })
          return { tokens: (await response.json()) as TokenSet }
        },
      },
      userinfo: {
        url: "https://open.tiktokapis.com/v2/user/info/",
        params: { fields: "open_id,union_id,avatar_url,display_name" },
      },
      // PKCE is for TikTok's desktop and mobile kits; the web flow relies on `state`.
      checks: ["state"],
      profile: (profile) => ({
        id: profile.data.user.open_id,
        name: profile.data.user.display_name,
        email: null,
        image: profile.data.user.avatar_url ?? null,
      }),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
