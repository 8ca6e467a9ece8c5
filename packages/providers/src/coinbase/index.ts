/**
 * Coinbase (OAuth 2.0). Create an OAuth client in the Coinbase Developer Platform portal with the redirect
 * URI `{origin}/api/auth/callback/coinbase`. The profile of `/v2/user` is wrapped in a `data` object.
 *
 * @see https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations
 * @module coinbase
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://api.coinbase.com/v2/user`. */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string | null
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string
    resource: string
    resource_path: string
    /** Present with the `wallet:user:email` scope. */
    email?: string
    time_zone?: string
    native_currency?: string
    country?: { code: string; name: string }
    created_at?: string
    [field: string]: unknown
  }
  [claim: string]: unknown
}

/** Coinbase sign-in. */
export default function Coinbase(config: OAuthUserConfig<CoinbaseProfile> = {}): OAuth2Config<CoinbaseProfile> {
  return oauthProvider<OAuth2Config<CoinbaseProfile>>(
    {
      id: "coinbase",
      name: "Coinbase",
      type: "oauth",
      authorization: {
        url: "https://login.coinbase.com/oauth2/auth",
        params: { scope: "wallet:user:read wallet:user:email" },
      },
      token: "https://login.coinbase.com/oauth2/token",
      userinfo: "https://api.coinbase.com/v2/user",
      profile: (profile) => ({
        id: profile.data.id,
        name: profile.data.name,
        email: profile.data.email ?? null,
        image: profile.data.avatar_url,
      }),
      style: { logo, brandColor: "#0052ff" },
    },
    config,
  )
}
