/**
 * Eventbrite (OAuth 2.0). Create an API key at https://www.eventbrite.com/platform/api-keys and
 * set its OAuth Redirect URI to `{origin}/api/auth/callback/eventbrite`; the key is the
 * `clientId`, the client secret the `clientSecret`. Eventbrite has no scopes and no PKCE.
 *
 * @see https://www.eventbrite.com/platform/docs/authentication
 * @module eventbrite
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OAuth2Config, OAuthUserConfig } from "@portcullis/core/providers"

/** The user record of `GET https://www.eventbriteapi.com/v3/users/me/`. */
export interface EventbriteProfile {
  /** Numeric, but sent as a string. */
  id: string
  name: string
  first_name: string
  last_name: string
  emails: { email: string; verified: boolean; primary: boolean }[]
  is_public: boolean
  image_id: string | null
  [claim: string]: unknown
}

/** Eventbrite sign-in. */
export default function Eventbrite(config: OAuthUserConfig<EventbriteProfile> = {}): OAuth2Config<EventbriteProfile> {
  return oauthProvider<OAuth2Config<EventbriteProfile>>(
    {
      id: "eventbrite",
      name: "Eventbrite",
      type: "oauth",
      authorization: "https://www.eventbrite.com/oauth/authorize",
      token: "https://www.eventbrite.com/oauth/token",
      userinfo: "https://www.eventbriteapi.com/v3/users/me/",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: (profile.emails.find((entry) => entry.primary) ?? profile.emails[0])?.email ?? null,
        // Only an `image_id` is returned; the image URL takes a further media call.
        image: null,
      }),
      style: { brandColor: "#f05537" },
    },
    config,
  )
}
