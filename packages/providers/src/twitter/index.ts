/**
 * X (formerly Twitter), OAuth 2.0 with PKCE. In the developer portal
 * (https://developer.x.com/en/portal/dashboard) turn on OAuth 2.0 for the app as a Web App, with
 * the callback URL `{origin}/api/auth/callback/twitter`. X returns no email under OAuth 2.0
 * unless the app is granted email access, so `email` is usually `null`. More user fields:
 * `authorization: { params: { "user.fields": "description,location" } }`.
 *
 * @see https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 * @module twitter
 */
import { Configuration } from "@auth/core/errors"
import { mergeProviderConfig, type OAuth2Config, type OAuthUserConfig } from "@auth/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://api.x.com/2/users/me`: the user in `data`, expansions in `includes`. */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    created_at?: string
    description?: string
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
  includes?: { posts?: { id: string; text: string }[] }
  [claim: string]: unknown
}

/** The options of the X provider. */
export interface TwitterUserConfig extends OAuthUserConfig<TwitterProfile> {
  /** The X API auth flavour: OAuth 2.0, the default and the only one served (OAuth 1.0a is not). */
  version?: "2.0"
}

const USERINFO = "https://api.x.com/2/users/me"

function fieldList(value: string | null | undefined): string[] {
  return (value ?? "").split(",").map((field) => field.trim()).filter((field) => field !== "")
}

/** X sign-in. */
export default function Twitter(config: TwitterUserConfig = {}): OAuth2Config<TwitterProfile> {
  const { version, ...options } = config
  // Checked as a plain value: JavaScript callers (and old configs) may still pass "1.0A".
  const requested: unknown = version
  if (requested !== undefined && requested !== "2.0") {
    throw new Configuration(`Twitter: version ${JSON.stringify(requested)} is not supported; omit \`version\` or set it to "2.0"`)
  }
  return mergeProviderConfig<OAuth2Config<TwitterProfile>>(
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
            ...fieldList(typeof authorization === "object" ? authorization.params?.["user.fields"] : undefined),
            ...fieldList(typeof userinfo === "object" ? userinfo.params?.["user.fields"] : undefined),
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
        email: data.email ?? null,
        image: data.profile_image_url ?? null,
      }),
      style: { logo, brandColor: "#000000" },
    },
    options,
  )
}
