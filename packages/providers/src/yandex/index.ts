/**
 * Yandex ID (OAuth 2.0). Register a web-service app at https://oauth.yandex.com/client/new with
 * the Redirect URI `{origin}/api/auth/callback/yandex` and the API Yandex ID permissions the
 * default scope asks for (login info, email, avatar). The userinfo call authenticates with the
 * `OAuth <token>` scheme, not `Bearer`.
 *
 * @see https://yandex.com/dev/id/doc/en/user-information
 * @module yandex
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The record of `GET https://login.yandex.ru/info?format=json`; most fields need their permission. */
export interface YandexProfile {
  id: string
  login: string
  /** The app the token was issued to. */
  client_id: string
  /** The user's id as seen by this app (stable per app, unlike `id` across apps). */
  psuid: string
  /** `YYYY-MM-DD`, unknown parts as zeros (`0000-12-23`); `null` when not given. */
  birthday?: string | null
  default_avatar_id?: string
  default_email?: string
  default_phone?: { id: number; number: string }
  display_name?: string
  emails?: string[]
  first_name?: string
  last_name?: string
  real_name?: string
  sex?: "female" | "male" | null
  is_avatar_empty?: boolean
  [claim: string]: unknown
}

/** The avatar sizes Yandex serves, with their width (and height) in pixels. */
export const yandexAvatarSizes = {
  "islands-small": 28,
  "islands-34": 34,
  "islands-middle": 42,
  "islands-50": 50,
  "islands-retina-small": 56,
  "islands-68": 68,
  "islands-75": 75,
  "islands-retina-middle": 84,
  "islands-retina-50": 100,
  "islands-200": 200,
} as const

/** An avatar size name; `YandexAvatarSizes[size]` is its width in pixels. */
export type YandexAvatarSize = keyof typeof yandexAvatarSizes
/** Each avatar size name mapped to its width in pixels. */
export type YandexAvatarSizes = typeof yandexAvatarSizes

/** The URL of a user's avatar (`default_avatar_id`) at one of the served sizes. */
export function yandexAvatarUrl(avatarId: string, size: YandexAvatarSize = "islands-200"): string {
  return `https://avatars.yandex.net/get-yapic/${avatarId}/${size}`
}

const USERINFO = "https://login.yandex.ru/info?format=json"

/** Yandex sign-in. */
export default function Yandex(config: OAuthUserConfig<YandexProfile> = {}): OAuth2Config<YandexProfile> {
  return oauthProvider<OAuth2Config<YandexProfile>>(
    {
      id: "yandex",
      name: "Yandex",
      type: "oauth",
      authorization: {
        url: "https://oauth.yandex.ru/authorize",
        params: { scope: "login:info login:email login:avatar" },
      },
      token: "https://oauth.yandex.ru/token",
      userinfo: {
        url: USERINFO,
        async request({ tokens, url, fetch }) {
          const headers = { Authorization: `OAuth ${tokens.access_token ?? ""}` }
          return (await (await fetch(url ?? USERINFO, { headers })).json()) as unknown
        },
      },
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? null,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image:
          profile.is_avatar_empty === true || profile.default_avatar_id === undefined
            ? null
            : yandexAvatarUrl(profile.default_avatar_id, "islands-200"),
      }),
      style: { brandColor: "#fc3f1d" },
    },
    config,
  )
}
