/**
 * Dropbox (OAuth 2.0). Create an app at https://www.dropbox.com/developers/apps, enable the
 * `account_info.read` permission and add the redirect URI `{origin}/api/auth/callback/dropbox`.
 * The account endpoint is an RPC call: a POST without a body, not a GET.
 *
 * @see https://developers.dropbox.com/oauth-guide
 * @module dropbox
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

const ACCOUNT_URL = "https://api.dropboxapi.com/2/users/get_current_account"

/** The record of `POST /2/users/get_current_account`. */
export interface DropboxProfile {
  account_id: string
  name: {
    given_name: string
    surname: string
    familiar_name: string
    display_name: string
    abbreviated_name: string
  }
  email: string
  email_verified: boolean
  disabled: boolean
  country?: string
  locale: string
  referral_link: string
  is_paired: boolean
  account_type: { ".tag": string }
  root_info: { ".tag": string; root_namespace_id: string; home_namespace_id: string }
  profile_photo_url?: string
  [claim: string]: unknown
}

/** Dropbox sign-in. */
export default function Dropbox(config: OAuthUserConfig<DropboxProfile> = {}): OAuth2Config<DropboxProfile> {
  return oauthProvider<OAuth2Config<DropboxProfile>>(
    {
      id: "dropbox",
      name: "Dropbox",
      type: "oauth",
      authorization: {
        url: "https://www.dropbox.com/oauth2/authorize",
        params: { scope: "account_info.read", token_access_type: "offline" },
      },
      token: "https://api.dropboxapi.com/oauth2/token",
      userinfo: {
        url: ACCOUNT_URL,
        async request({ tokens, url, fetch }) {
          const response = await fetch(url ?? ACCOUNT_URL, {
            method: "POST",
            headers: { Authorization: `Bearer ${tokens.access_token ?? ""}` },
          })
          return (await response.json()) as DropboxProfile
        },
      },
      profile: (profile) => ({
        id: profile.account_id,
        name: profile.name.display_name,
        email: profile.email,
        image: profile.profile_photo_url ?? null,
      }),
      style: { logo, brandColor: "#0061fe" },
    },
    config,
  )
}
