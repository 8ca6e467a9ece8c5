/**
 * Patreon (OAuth 2.0). Register a client at https://www.patreon.com/portal/registration/register-clients
 * with the redirect URI `{origin}/api/auth/callback/patreon`. The v2 identity endpoint answers in JSON:API
 * form and returns only the attributes listed in `fields[user]`.
 *
 * @see https://docs.patreon.com/#oauth
 * @module patreon
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The answer of `GET https://www.patreon.com/api/oauth2/v2/identity`. */
export interface PatreonProfile {
  data: {
    id: string
    type: string
    attributes: {
      full_name: string
      first_name?: string
      last_name?: string | null
      email?: string
      is_email_verified?: boolean
      image_url: string
      thumb_url?: string
      url: string
      vanity?: string | null
      about?: string | null
      created?: string
    }
  }
  links: { self: string }
  [claim: string]: unknown
}

/** Patreon sign-in. */
export default function Patreon(config: OAuthUserConfig<PatreonProfile> = {}): OAuth2Config<PatreonProfile> {
  return oauthProvider<OAuth2Config<PatreonProfile>>(
    {
      id: "patreon",
      name: "Patreon",
      type: "oauth",
      authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
      token: "https://www.patreon.com/api/oauth2/token",
      userinfo: {
        url: "https://www.patreon.com/api/oauth2/v2/identity",
        params: { "fields[user]": "full_name,email,is_email_verified,image_url,url,vanity,created" },
      },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.data.id,
        name: profile.data.attributes.full_name,
        email: profile.data.attributes.email ?? null,
        image: profile.data.attributes.image_url,
      }),
      style: { logo, brandColor: "#ff424d" },
    },
    config,
  )
}
