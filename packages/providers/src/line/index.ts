/**
 * LINE Login (OpenID Connect). Create a LINE Login channel in the LINE Developers Console, set the
 * callback URL `{origin}/api/auth/callback/line`, and apply for "Email address permission" to
 * receive `email`. The channel ID is the `clientId`, the channel secret the `clientSecret`.
 *
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 * @module line
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of LINE's ID token. */
export interface LineProfile {
  iss: string
  /** The LINE user id, `U` followed by 32 hex characters. */
  sub: string
  /** The channel ID. */
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  amr?: string[]
  name?: string
  picture?: string
  email?: string
  [claim: string]: unknown
}

/** LINE sign-in. */
export default function Line(config: OIDCUserConfig<LineProfile> = {}): OIDCConfig<LineProfile> {
  return oauthProvider<OIDCConfig<LineProfile>>(
    {
      id: "line",
      name: "LINE",
      type: "oidc",
      issuer: "https://access.line.me",
      authorization: { params: { scope: "openid profile email" } },
      // Without `id_token_key_type=JWK` LINE signs web ID tokens with HS256 and the channel secret;
      // with it, ES256 with the keys its discovery document publishes.
      token: { params: { id_token_key_type: "JWK" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#06c755" },
    },
    config,
  )
}
