/**
 * Threads by Meta (OAuth 2.0). Create a Meta app with the "Access the Threads API" use case and
 * add `{origin}/api/auth/callback/threads` to its redirect callback URLs (https only, even
 * locally). Threads shares no email address, and its token response omits `token_type`.
 *
 * @see https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 * @module threads
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://graph.threads.net/v1.0/me` with the fields requested here. */
export interface ThreadsProfile {
  id: string
  username: string
  name?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  [claim: string]: unknown
}

/** Threads sign-in. */
export default function Threads(config: OAuthUserConfig<ThreadsProfile> = {}): OAuth2Config<ThreadsProfile> {
  return oauthProvider<OAuth2Config<ThreadsProfile>>(
    {
      id: "threads",
      name: "Threads",
      type: "oauth",
      authorization: { url: "https://threads.com/oauth/authorize", params: { scope: "threads_basic" } },
      token: {
        url: "https://graph.threads.net/oauth/access_token",
        // The answer is `{ access_token, user_id }`; the token is a bearer token.
        conform: conformTokenResponse({ tokenType: "bearer" }),
      },
      userinfo: {
        url: "https://graph.threads.net/v1.0/me",
        params: { fields: "id,username,name,threads_profile_picture_url,threads_biography" },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name || profile.username,
        email: null,
        image: profile.threads_profile_picture_url ?? null,
      }),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
