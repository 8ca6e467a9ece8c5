/**
 * Mail.ru (OAuth 2.0). Create an app at https://o2.mail.ru/app/ with the redirect URI
 * `{origin}/api/auth/callback/mailru`. The userinfo endpoint reads the access token from the
 * `access_token` query parameter, not from an Authorization header. Since July 2025 new sites
 * are pointed to VK ID instead; existing Mail.ru apps keep working.
 *
 * @see https://help.mail.ru/developers/oauth/about
 * @module mailru
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

const USERINFO_URL = "https://oauth.mail.ru/userinfo"

/** The record of `GET https://oauth.mail.ru/userinfo`. */
export interface MailRuProfile {
  id: string
  client_id: string
  email: string
  name: string
  first_name: string
  last_name: string
  nickname: string
  gender?: string
  birthday?: string
  locale?: string
  image?: string
  [claim: string]: unknown
}

/** Mail.ru sign-in. */
export default function MailRu(config: OAuthUserConfig<MailRuProfile> = {}): OAuth2Config<MailRuProfile> {
  return oauthProvider<OAuth2Config<MailRuProfile>>(
    {
      id: "mailru",
      name: "Mail.ru",
      type: "oauth",
      authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
      token: "https://oauth.mail.ru/token",
      userinfo: {
        url: USERINFO_URL,
        async request({ tokens, url, fetch }) {
          const target = new URL(url ?? USERINFO_URL)
          target.searchParams.set("access_token", tokens.access_token ?? "")
          const response = await fetch(target)
          return (await response.json()) as MailRuProfile
        },
      },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name || [profile.first_name, profile.last_name].filter(Boolean).join(" ") || profile.nickname,
        email: profile.email,
        image: profile.image ?? null,
      }),
      style: { logo, brandColor: "#005ff9" },
    },
    config,
  )
}
