/**
 * Trakt (OAuth 2.0). Create an application at https://trakt.tv/oauth/applications with the
 * redirect URI `{origin}/api/auth/callback/trakt`. Every API call needs the client ID in a
 * `trakt-api-key` header. Trakt shares no email address and forbids hotlinking its avatars; use
 * `api-staging.trakt.tv` URLs for the sandbox.
 *
 * @see https://trakt.docs.apiary.io/#reference/authentication-oauth
 * @module trakt
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

const USER_URL = "https://api.trakt.tv/users/me?extended=full"

/** The record of `GET https://api.trakt.tv/users/me?extended=full`. */
export interface TraktProfile {
  username: string
  private: boolean
  name: string | null
  vip: boolean
  vip_ep: boolean
  ids: { slug: string; uuid?: string }
  joined_at: string
  location: string | null
  about: string | null
  gender: string | null
  age: number | null
  images?: { avatar: { full: string } }
  vip_og?: boolean
  vip_years?: number
  [claim: string]: unknown
}

/** Trakt sign-in. */
export default function Trakt(config: OAuthUserConfig<TraktProfile> = {}): OAuth2Config<TraktProfile> {
  return oauthProvider<OAuth2Config<TraktProfile>>(
    {
      id: "trakt",
      name: "Trakt",
      type: "oauth",
      authorization: "https://trakt.tv/oauth/authorize",
      token: "https://api.trakt.tv/oauth/token",
      userinfo: {
        url: USER_URL,
        async request({ tokens, url, fetch, provider }) {
          const response = await fetch(url ?? USER_URL, {
            headers: {
              Authorization: `Bearer ${tokens.access_token ?? ""}`,
              "trakt-api-version": "2",
              "trakt-api-key": provider.clientId ?? "",
            },
          })
          return (await response.json()) as TraktProfile
        },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.ids.slug,
        name: profile.name || profile.username,
        email: null,
        image: profile.images?.avatar.full ?? null,
      }),
      style: { logo, brandColor: "#ed1c24" },
    },
    config,
  )
}
