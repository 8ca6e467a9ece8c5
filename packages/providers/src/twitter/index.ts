/**
 * X (formerly Twitter). OAuth 2.0 with PKCE by default: in the developer portal
 * (https://developer.x.com/en/portal/dashboard) turn on OAuth 2.0 for the app as a Web App, with
 * the callback URL `{origin}/api/auth/callback/twitter`. Under OAuth 2.0 `email` is `null` unless
 * the app asks for it: add the `users.email` scope and the `confirmed_email` user field
 * (`authorization: { params: { scope: "users.read tweet.read users.email", "user.fields": "confirmed_email" } }`).
 * More user fields: `authorization: { params: { "user.fields": "description,location" } }`.
 *
 * `version: "1.0A"` signs in with OAuth 1.0a ("Sign in with X") instead, which returns the email
 * when the app has "Request email from users" on. The account then holds `oauth_token` and
 * `oauth_token_secret` instead of `access_token` and `refresh_token`.
 *
 * @see https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 * @see https://docs.x.com/fundamentals/authentication/oauth-1-0a/obtaining-user-access-tokens
 * @module twitter
 */
import { Configuration } from "@portcullis/core/providers"
import type { OAuth1Config } from "@portcullis/core/oauth1"
import { oauthProvider } from "@portcullis/core/oauth"
import { ACCOUNT_SIGN_IN_METHODS, FLOW, lazyFlow, type OAuth2Config, type OAuthUserConfig, type SignInFlow } from "@portcullis/core/providers"
import logo from "./logo.js"

/** A user as `GET /2/users/me` describes one. */
export interface TwitterUser {
  id: string
  name: string
  username: string
  created_at?: string
  description?: string
  /** Only with the `users.email` scope and `user.fields=confirmed_email`. */
  confirmed_email?: string
  email?: string
  entities?: {
    description?: { hashtags?: { start: number; end: number; tag: string }[] }
    url?: { urls?: { start: number; end: number; url: string; expanded_url: string; display_url: string }[] }
  }
  location?: string
  pinned_post_id?: string
  profile_image_url?: string
  protected?: boolean
  url?: string
  verified?: boolean
}

/**
 * The answer of `GET https://api.x.com/2/users/me`: the user in `data` (the mapping reads it
 * there), expansions in `includes`; the user fields may also appear at the top level.
 */
export interface TwitterProfile extends Partial<TwitterUser> {
  data: TwitterUser
  includes?: { posts?: { id: string; text: string }[] }
  [claim: string]: unknown
}

/** The answer of `GET https://api.x.com/1.1/account/verify_credentials.json` (OAuth 1.0a). */
export interface TwitterLegacyProfile {
  id: number
  id_str: string
  name: string
  screen_name: string
  /** Only with `include_email=true` and the app's "Request email from users" permission. */
  email?: string
  location?: string | null
  description?: string | null
  url?: string | null
  protected?: boolean
  verified?: boolean
  followers_count?: number
  friends_count?: number
  created_at?: string
  profile_image_url_https?: string
  [claim: string]: unknown
}

/** The options of the X provider under OAuth 2.0 (the default). */
export interface TwitterUserConfig extends OAuthUserConfig<TwitterProfile> {
  version?: "2.0"
}

/** The options of the X provider under OAuth 1.0a, in next-auth v4's words. */
export interface TwitterLegacyUserConfig extends Omit<Partial<OAuth1Config<TwitterLegacyProfile>>, "type" | "version"> {
  version: "1.0A"
  style?: OAuth2Config["style"]
}

/** The OAuth 1.0a provider configuration `Twitter({ version: "1.0A" })` returns. */
export type TwitterLegacyConfig = OAuth2Config<TwitterLegacyProfile> &
  Pick<OAuth1Config<TwitterLegacyProfile>, "version" | "requestTokenUrl" | "accessTokenUrl" | "profileUrl"> & { [FLOW]: SignInFlow }

/**
 * The OAuth 1.0a flow, fetched on first use: an app that signs in with X over OAuth 2.0 (the
 * default) loads none of its code.
 */
const oauth1 = lazyFlow({
  name: "OAuth 1.0a",
  load: () => import("@portcullis/core/oauth1").then((module) => module.oauth1 as unknown as SignInFlow<never>),
  adapterMethods: ACCOUNT_SIGN_IN_METHODS,
})

const USERINFO = "https://api.x.com/2/users/me"

/** A parameter's value when it is text: params may now hold numbers and lists too (Auth.js's). */
function textParam(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined
}

function fieldList(value: string | null | undefined): string[] {
  return (value ?? "").split(",").map((field) => field.trim()).filter((field) => field !== "")
}

function legacy(options: Omit<TwitterLegacyUserConfig, "version">): TwitterLegacyConfig {
  return oauthProvider<TwitterLegacyConfig>(
    {
      id: "twitter",
      name: "X",
      type: "oauth",
      version: "1.0A",
      requestTokenUrl: "https://api.x.com/oauth/request_token",
      authorization: "https://api.x.com/oauth/authenticate",
      accessTokenUrl: "https://api.x.com/oauth/access_token",
      profileUrl: "https://api.x.com/1.1/account/verify_credentials.json?include_email=true",
      profile: (profile) => ({
        id: profile.id_str,
        name: profile.name,
        email: profile.email ?? null,
        // The `_normal` avatar is 48x48; without the suffix X serves the original upload.
        image: profile.profile_image_url_https?.replace(/_normal\.(jpe?g|png|gif|webp)$/i, ".$1") ?? null,
      }),
      style: { logo, brandColor: "#000000" },
      [FLOW]: oauth1 as SignInFlow,
    },
    options,
  )
}

/** X sign-in over OAuth 2.0 (the default) or, with `version: "1.0A"`, OAuth 1.0a. */
function Twitter(config: TwitterLegacyUserConfig): TwitterLegacyConfig
function Twitter(config?: TwitterUserConfig): OAuth2Config<TwitterProfile>
function Twitter(config: TwitterUserConfig | TwitterLegacyUserConfig = {}): OAuth2Config<TwitterProfile> | TwitterLegacyConfig {
  const { version, ...options } = config
  // Checked as a plain value: JavaScript callers may pass anything.
  const requested: unknown = version
  if (requested === "1.0A") return legacy(options as Omit<TwitterLegacyUserConfig, "version">)
  if (requested !== undefined && requested !== "2.0") {
    throw new Configuration(`Twitter: version ${JSON.stringify(requested)} is not supported; omit \`version\` (OAuth 2.0), or set it to "2.0" or "1.0A".`)
  }
  return oauthProvider<OAuth2Config<TwitterProfile>>(
    {
      id: "twitter",
      name: "X",
      type: "oauth",
      authorization: {
        url: "https://x.com/i/oauth2/authorize",
        params: { scope: "users.read tweet.read offline.access" },
      },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: {
        url: USERINFO,
        // `/2/users/me` answers only id, name and username unless asked for more `user.fields`:
        // always the avatar, plus whatever fields the app lists in its params.
        async request({ tokens, url, provider, fetch }) {
          const target = new URL(url ?? USERINFO)
          const { authorization, userinfo } = provider
          const fields = new Set([
            "profile_image_url",
            ...fieldList(target.searchParams.get("user.fields")),
            ...fieldList(typeof authorization === "object" ? textParam(authorization.params?.["user.fields"]) : undefined),
            ...fieldList(typeof userinfo === "object" ? textParam(userinfo.params?.["user.fields"]) : undefined),
          ])
          target.searchParams.set("user.fields", [...fields].join(","))
          const response = await fetch(target, { headers: { Authorization: `Bearer ${tokens.access_token ?? ""}` } })
          return (await response.json()) as unknown
        },
      },
      checks: ["pkce", "state"],
      profile: ({ data }) => ({
        id: data.id,
        name: data.name,
        email: data.confirmed_email ?? data.email ?? null,
        image: data.profile_image_url ?? null,
      }),
      style: { logo, brandColor: "#000000" },
    },
    options as TwitterUserConfig,
  )
}

export default Twitter
