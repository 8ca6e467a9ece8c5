/**
 * Bitbucket Cloud (OAuth 2.0). Add an OAuth consumer under your workspace settings with the callback URL
 * `{origin}/api/auth/callback/bitbucket` and the Account (email, read) permissions. `/2.0/user` never
 * carries an email, so the provider reads the primary confirmed one from `/2.0/user/emails`.
 *
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 * @module bitbucket
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

interface BitbucketLink {
  href: string
}

/** The user record of `GET https://api.bitbucket.org/2.0/user`, plus the primary email found. */
export interface BitbucketProfile {
  type: string
  uuid: string
  account_id: string
  username: string
  nickname: string
  display_name: string
  account_status: string
  created_on: string
  is_staff: boolean
  has_2fa_enabled: boolean | null
  location: string | null
  links: { avatar: BitbucketLink; html: BitbucketLink; self: BitbucketLink; [name: string]: BitbucketLink }
  /** Not part of `/2.0/user`: the primary confirmed address from `/2.0/user/emails`. */
  email?: string | null
  [claim: string]: unknown
}

interface BitbucketEmails {
  values: { email: string; is_primary: boolean; is_confirmed: boolean }[]
}

/** Bitbucket sign-in. */
export default function Bitbucket(config: OAuthUserConfig<BitbucketProfile> = {}): OAuth2Config<BitbucketProfile> {
  return oauthProvider<OAuth2Config<BitbucketProfile>>(
    {
      id: "bitbucket",
      name: "Bitbucket",
      type: "oauth",
      authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
      token: "https://bitbucket.org/site/oauth2/access_token",
      userinfo: {
        url: "https://api.bitbucket.org/2.0/user",
        async request({ tokens, url, fetch }) {
          const headers = { Authorization: `Bearer ${tokens.access_token ?? ""}` }
          const profile = (await (await fetch(url ?? "https://api.bitbucket.org/2.0/user", { headers })).json()) as BitbucketProfile
          const response = await fetch("https://api.bitbucket.org/2.0/user/emails", { headers })
          if (response.ok) {
            const emails = (await response.json()) as BitbucketEmails
            profile.email = emails.values.find((entry) => entry.is_primary && entry.is_confirmed)?.email ?? null
          }
          return profile
        },
      },
      // Bitbucket Cloud does not support PKCE.
      checks: ["state"],
      profile: (profile) => ({
        id: profile.uuid,
        name: profile.display_name,
        email: profile.email ?? null,
        image: profile.links.avatar.href,
      }),
      style: { logo, brandColor: "#2684ff" },
    },
    config,
  )
}
