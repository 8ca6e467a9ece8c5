/**
 * VK (OAuth 2.0, the `oauth.vk.com` flow). Create a website app at https://vk.com/apps?act=manage
 * and add the trusted redirect URI `{origin}/api/auth/callback/vk`. VK's token response has no
 * `token_type` and carries the user's `email` (with the `email` scope), which `users.get` never
 * returns; the profile is the first entry of that method's `response` array.
 *
 * @see https://dev.vk.com/en/api/access-token/authcode-flow-user
 * @module vk
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** One user of the `users.get` method (with `fields=photo_200,screen_name`). */
export interface VkUser {
  id: number
  first_name: string
  last_name: string
  screen_name?: string
  photo_200?: string
  can_access_closed: boolean
  is_closed: boolean
  deactivated?: string
  [claim: string]: unknown
}

/** The response of `POST https://api.vk.com/method/users.get`. */
export interface VkProfile {
  response?: VkUser[]
  /** Sent instead of `response` when the call fails. */
  error?: { error_code: number; error_msg: string }
  [claim: string]: unknown
}

/** VK sign-in. */
export default function Vk(config: OAuthUserConfig<VkProfile> = {}): OAuth2Config<VkProfile> {
  return oauthProvider<OAuth2Config<VkProfile>>(
    {
      id: "vk",
      name: "VK",
      type: "oauth",
      authorization: { url: "https://oauth.vk.com/authorize", params: { scope: "email" } },
      token: {
        url: "https://oauth.vk.com/access_token",
        conform: conformTokenResponse({ tokenType: "bearer" }),
      },
      userinfo: {
        url: "https://api.vk.com/method/users.get",
        // The API documents the token as a method parameter, not as an Authorization header.
        async request({ tokens, url, fetch }) {
          const body = new URLSearchParams({
            access_token: tokens.access_token ?? "",
            fields: "photo_200,screen_name",
            v: "5.199",
          })
          const response = await fetch(url ?? "https://api.vk.com/method/users.get", { method: "POST", body })
          return (await response.json()) as VkProfile
        },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile, tokens) => {
        const user = profile.response?.[0]
        if (user === undefined) throw new TypeError(`VK: users.get returned no user (${profile.error?.error_msg ?? "empty"})`)
        return {
          id: String(user.id),
          name: `${user.first_name} ${user.last_name}`.trim() || user.screen_name || null,
          email: typeof tokens.email === "string" ? tokens.email : null,
          image: user.photo_200 ?? null,
        }
      },
      style: { logo, brandColor: "#0077ff" },
    },
    config,
  )
}
