/**
 * Discord (OAuth 2.0). Create an application at https://discord.com/developers/applications and add the
 * redirect `{origin}/api/auth/callback/discord`. A user without an avatar gets Discord's default one,
 * chosen the way the Discord client does.
 *
 * @see https://discord.com/developers/docs/topics/oauth2
 * @module discord
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The user record of `GET https://discord.com/api/users/@me`. */
export interface DiscordProfile {
  id: string
  username: string
  /** `"0"` for accounts migrated to unique usernames. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  verified?: boolean
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  [claim: string]: unknown
}

function avatarUrl(profile: DiscordProfile): string {
  if (profile.avatar !== null) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const index = profile.discriminator === "0" ? Number((BigInt(profile.id) >> 22n) % 6n) : Number(profile.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/** Discord sign-in. */
export default function Discord(config: OAuthUserConfig<DiscordProfile> = {}): OAuth2Config<DiscordProfile> {
  return oauthProvider<OAuth2Config<DiscordProfile>>(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: avatarUrl(profile),
      }),
      style: { logo, brandColor: "#5865f2" },
    },
    config,
  )
}
