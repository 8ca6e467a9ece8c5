/**
 * Wikimedia (OAuth 2.0, one account across Wikipedia and its sister projects). Propose an
 * OAuth 2.0 consumer at https://meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration/propose
 * with the callback URL `{origin}/api/auth/callback/wikimedia`; grants are fixed at registration,
 * and `email` is only shared with the "access real name and email address" option. A consumer
 * works for its owner at once but needs approval before others can use it.
 *
 * @see https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2
 * @module wikimedia
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The record of `GET https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile`. */
export interface WikimediaProfile {
  /** The central (global) user id. */
  sub: number | string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  /** `YYYYMMDDHHMMSS`. */
  registered: string
  groups: string[]
  rights: string[]
  grants: string[]
  realname?: string
  email?: string
  [claim: string]: unknown
}

/** Wikimedia sign-in. */
export default function Wikimedia(config: OAuthUserConfig<WikimediaProfile> = {}): OAuth2Config<WikimediaProfile> {
  return oauthProvider<OAuth2Config<WikimediaProfile>>(
    {
      id: "wikimedia",
      name: "Wikimedia",
      type: "oauth",
      authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
      token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
      userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
      profile: (profile) => ({
        id: String(profile.sub),
        name: profile.username,
        email: profile.email || null,
        image: null,
      }),
      style: { brandColor: "#006699" },
    },
    config,
  )
}
