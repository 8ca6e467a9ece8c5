/**
 * Mastodon (OAuth 2.0), on one instance. Create an application on that instance (Preferences >
 * Development, or `POST /api/v1/apps`) with the redirect URI `{origin}/api/auth/callback/mastodon`, and set
 * `issuer` to the instance's URL. Mastodon does not share an email address with applications.
 *
 * @see https://docs.joinmastodon.org/spec/oauth/
 * @module mastodon
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The CredentialAccount of `GET /api/v1/accounts/verify_credentials`. */
export interface MastodonProfile {
  id: string
  username: string
  /** `username` on the local instance, `username@domain` for remote ones. */
  acct: string
  display_name: string
  locked: boolean
  bot: boolean
  discoverable?: boolean | null
  group: boolean
  created_at: string
  note: string
  url: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  followers_count: number
  following_count: number
  statuses_count: number
  last_status_at: string | null
  source?: { privacy: string; sensitive: boolean; language: string | null; note: string; [field: string]: unknown }
  [claim: string]: unknown
}

/**
 * Mastodon sign-in.
 *
 * Without `issuer` (or `AUTH_MASTODON_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function Mastodon(config: OAuthUserConfig<MastodonProfile> = {}): OAuth2Config<MastodonProfile> {
  const issuer = tenantIssuer("mastodon", config, "your Mastodon instance's URL, e.g. https://mastodon.social")
  const instance = issuer.replace(/\/+$/, "")
  return oauthProvider<OAuth2Config<MastodonProfile>>(
    {
      id: "mastodon",
      name: "Mastodon",
      type: "oauth",
      authorization: { url: `${instance}/oauth/authorize`, params: { scope: "read:accounts" } },
      token: `${instance}/oauth/token`,
      userinfo: `${instance}/api/v1/accounts/verify_credentials`,
      // PKCE arrived in Mastodon 4.3; `state` still protects older instances.
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name === "" ? profile.username : profile.display_name,
        email: null,
        image: profile.avatar_static,
      }),
      style: { logo, brandColor: "#6364ff" },
    },
    config,
  )
}
