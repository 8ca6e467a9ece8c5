/**
 * Notion (OAuth 2.0, public integrations). Create a public integration at
 * https://www.notion.so/profile/integrations with the redirect URI `{origin}/api/auth/callback/notion`.
 * The token belongs to a bot: the signed-in person is the bot's owner, read from `GET /v1/users/me`
 * with the required `Notion-Version` header.
 *
 * @see https://developers.notion.com/docs/authorization
 * @module notion
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { Configuration, conformTokenResponse, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

const API = "https://api.notion.com/v1"
const NOTION_VERSION = "2022-06-28"

/** A Notion person user: the owner of the integration's bot, from `GET /v1/users/me`. */
export interface NotionProfile {
  object: string
  id: string
  type?: string
  name?: string | null
  avatar_url: string | null
  person?: { email?: string }
  [claim: string]: unknown
}

interface NotionBotUser {
  bot?: { owner?: { type: string; user?: NotionProfile } }
}

/** Notion's own option. */
export interface NotionOptions {
  /**
   * The redirect URI registered with the integration. Core always sends its own callback URL,
   * `{AUTH_URL}{basePath}/callback/notion`, in both the authorization request and the code
   * exchange (the two must agree), so this must be that URL: another is refused at start.
   */
  redirectUri?: string
}

/** Notion sign-in. */
export default function Notion(options: OAuthUserConfig<NotionProfile> & NotionOptions = {}): OAuth2Config<NotionProfile> {
  const { redirectUri, ...config } = options
  if (redirectUri !== undefined && !(URL.canParse(redirectUri) && new URL(redirectUri).pathname.endsWith("/callback/notion"))) {
    throw new Configuration('Provider "notion": `redirectUri` must be this app\'s callback URL, {AUTH_URL}{basePath}/callback/notion, which is what core sends.')
  }
  return oauthProvider<OAuth2Config<NotionProfile>>(
    {
      id: "notion",
      name: "Notion",
      type: "oauth",
      authorization: { url: `${API}/oauth/authorize`, params: { owner: "user" } },
      token: {
        url: `${API}/oauth/token`,
        // Notion sends `"refresh_token": null` for integrations without refresh; a token set has none or a string.
        conform: conformTokenResponse({ drop: ["refresh_token"] }),
      },
      userinfo: {
        url: `${API}/users/me`,
        async request({ tokens, url, fetch }) {
          const response = await fetch(url ?? `${API}/users/me`, {
            headers: { Authorization: `Bearer ${tokens.access_token ?? ""}`, "Notion-Version": NOTION_VERSION },
          })
          const bot = (await response.json()) as NotionBotUser
          return bot.bot?.owner?.user ?? bot
        },
      },
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? null,
        email: profile.person?.email ?? null,
        image: profile.avatar_url,
      }),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
