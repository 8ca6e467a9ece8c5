/**
 * GitLab (OAuth 2.0). Add an application under User settings → Applications on
 * https://gitlab.com/-/user_settings/applications with the redirect URI
 * `{origin}/api/auth/callback/gitlab` and the `read_user` scope. For a self-managed instance,
 * override `authorization`, `token` and `userinfo` with your host.
 *
 * @see https://docs.gitlab.com/ee/api/oauth2.html
 * @module gitlab
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { baseUrlOption, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://gitlab.com/api/v4/user`. */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  state: string
  locked: boolean
  avatar_url: string | null
  web_url: string
  created_at: string
  bio: string
  location: string
  public_email: string | null
  /** The primary email; only on the authenticated user's own record. */
  email: string
  commit_email?: string
  website_url: string
  organization: string
  job_title: string
  pronouns: string | null
  bot: boolean
  last_sign_in_at: string | null
  confirmed_at: string | null
  last_activity_on: string | null
  two_factor_enabled: boolean
  external: boolean
  private_profile: boolean
  [claim: string]: unknown
}

/** GitLab's own option. */
export interface GitLabOptions {
  /** A self-managed GitLab's URL, e.g. `https://gitlab.acme.example`. Default `https://gitlab.com`. */
  baseUrl?: URL | string
}

/** GitLab sign-in. */
export default function GitLab(options: OAuthUserConfig<GitLabProfile> & GitLabOptions = {}): OAuth2Config<GitLabProfile> {
  const { baseUrl, ...config } = options
  const site = baseUrlOption("gitlab", "baseUrl", baseUrl) ?? "https://gitlab.com"
  return oauthProvider<OAuth2Config<GitLabProfile>>(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oauth",
      authorization: { url: `${site}/oauth/authorize`, params: { scope: "read_user" } },
      token: `${site}/oauth/token`,
      userinfo: `${site}/api/v4/user`,
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name || profile.username,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#fc6d26" },
    },
    config,
  )
}
