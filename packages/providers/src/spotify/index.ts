/**
 * Spotify (OAuth 2.0). Create an app at https://developer.spotify.com/dashboard with the redirect URI
 * `{origin}/api/auth/callback/spotify`. Spotify no longer accepts `localhost` redirects: use 127.0.0.1.
 *
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-pkce-flow
 * @module spotify
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.spotify.com/v1/me`. */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  /** Present with the `user-read-email` scope. */
  email?: string
  images: { url: string; height: number | null; width: number | null }[]
  country?: string
  product?: string
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  external_urls: { spotify: string }
  followers: { href: string | null; total: number }
  href: string
  type: string
  uri: string
  [claim: string]: unknown
}

/** Spotify sign-in. */
export default function Spotify(config: OAuthUserConfig<SpotifyProfile> = {}): OAuth2Config<SpotifyProfile> {
  return oauthProvider<OAuth2Config<SpotifyProfile>>(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name,
        email: profile.email ?? null,
        image: profile.images[0]?.url ?? null,
      }),
      style: { logo, brandColor: "#1db954" },
    },
    config,
  )
}
