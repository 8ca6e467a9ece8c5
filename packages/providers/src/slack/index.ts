/**
 * Sign in with Slack (OpenID Connect). In your app at https://api.slack.com/apps add the user
 * scopes `openid profile email` and the redirect URL `{origin}/api/auth/callback/slack`; Slack
 * only accepts https redirect URLs, even for local development (use a tunnel).
 *
 * @see https://docs.slack.dev/authentication/sign-in-with-slack/
 * @module slack
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of Sign in with Slack. */
export interface SlackProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time: number
  nonce?: string
  at_hash?: string
  "https://slack.com/team_id": string
  "https://slack.com/user_id": string
  email: string
  email_verified: boolean
  date_email_verified: number
  locale: string
  name: string
  picture: string
  given_name: string
  family_name: string
  "https://slack.com/team_name": string
  "https://slack.com/team_domain": string
  "https://slack.com/team_image_230"?: string
  "https://slack.com/team_image_default"?: boolean
  [claim: string]: unknown
}

/** Slack sign-in. */
export default function Slack(config: OIDCUserConfig<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  return oauthProvider<OIDCConfig<SlackProfile>>(
    {
      id: "slack",
      name: "Slack",
      type: "oidc",
      issuer: "https://slack.com",
      authorization: { params: { scope: "openid profile email" } },
      // Slack's discovery document does not advertise PKCE; `nonce` binds the ID token instead.
      checks: ["nonce", "state"],
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#4a154b" },
    },
    config,
  )
}
