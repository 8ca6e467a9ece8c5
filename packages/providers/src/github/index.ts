/**
 * GitHub (OAuth 2.0). Create an OAuth app at https://github.com/settings/developers with the
 * callback URL `{origin}/api/auth/callback/github`. A user who hides their email has `email: null`
 * in `GET /user`; the default scope asks for `user:email` so the provider can still read it.
 *
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * @module github
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { baseUrlOption, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://api.github.com/user`. */
export interface GitHubProfile {
  id: number
  login: string
  node_id: string
  avatar_url: string
  html_url: string
  name: string | null
  email: string | null
  company: string | null
  blog: string | null
  location: string | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  [claim: string]: unknown
}

interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
}

/** GitHub's own option. */
export interface GitHubOptions {
  /** A GitHub Enterprise Server: sign-in at `{baseUrl}/login/oauth`, the API at `{baseUrl}/api/v3`. */
  enterprise?: {
    /** The server's URL, e.g. `https://github.acme.example`. Default: github.com. */
    baseUrl?: string
  }
}

/** GitHub sign-in. */
export default function GitHub(options: OAuthUserConfig<GitHubProfile> & GitHubOptions = {}): OAuth2Config<GitHubProfile> {
  const { enterprise, ...config } = options
  const server = baseUrlOption("github", "enterprise.baseUrl", enterprise?.baseUrl)
  const site = server ?? "https://github.com"
  const api = server === undefined ? "https://api.github.com" : `${server}/api/v3`
  return oauthProvider<OAuth2Config<GitHubProfile>>(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      authorization: { url: `${site}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
      token: `${site}/login/oauth/access_token`,
      userinfo: {
        url: `${api}/user`,
        // A hidden email is absent from /user; the primary verified one is in /user/emails.
        async request({ tokens, url, fetch }) {
          const headers = { Authorization: `Bearer ${tokens.access_token ?? ""}`, "User-Agent": "auth-core" }
          const profile = (await (await fetch(url ?? `${api}/user`, { headers })).json()) as GitHubProfile
          if (profile.email === null) {
            const response = await fetch(`${api}/user/emails`, { headers })
            if (response.ok) {
              const emails = (await response.json()) as GitHubEmail[]
              profile.email = emails.find((entry) => entry.primary && entry.verified)?.email ?? null
            }
          }
          return profile
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#24292f" },
    },
    config,
  )
}
