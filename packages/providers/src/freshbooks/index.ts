/**
 * FreshBooks (OAuth 2.0). Create an app on https://my.freshbooks.com/#/developer with the
 * redirect URI `{origin}/api/auth/callback/freshbooks` (https only) and the `user:profile:read`
 * scope ticked: scopes requested here must also be enabled on the app.
 *
 * @see https://www.freshbooks.com/api/authentication
 * @module freshbooks
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The identity record inside `GET https://api.freshbooks.com/auth/api/v1/users/me`. */
export interface FreshBooksIdentity {
  id: number
  identity_id: number
  first_name: string
  last_name: string
  email: string
  language: string | null
  confirmed_at: string | null
  created_at: string
  unconfirmed_email: string | null
  setup_complete: boolean
  phone_numbers: { title: string | null; phone_number: string }[]
  addresses: Record<string, unknown>[]
  business_memberships: { id: number; role: string; business: Record<string, unknown> }[]
  roles: Record<string, unknown>[]
  [claim: string]: unknown
}

/** The response of `GET https://api.freshbooks.com/auth/api/v1/users/me`. */
export interface FreshBooksProfile {
  response: FreshBooksIdentity
  [claim: string]: unknown
}

/** FreshBooks sign-in. */
export default function FreshBooks(config: OAuthUserConfig<FreshBooksProfile> = {}): OAuth2Config<FreshBooksProfile> {
  return oauthProvider<OAuth2Config<FreshBooksProfile>>(
    {
      id: "freshbooks",
      name: "FreshBooks",
      type: "oauth",
      authorization: {
        url: "https://auth.freshbooks.com/oauth/authorize",
        params: { scope: "user:profile:read" },
      },
      token: "https://api.freshbooks.com/auth/oauth/token",
      userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: ({ response }) => ({
        id: String(response.id),
        name: `${response.first_name} ${response.last_name}`.trim() || null,
        email: response.email,
        image: null,
      }),
      style: { brandColor: "#0075dd" },
    },
    config,
  )
}
