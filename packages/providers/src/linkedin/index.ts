/**
 * LinkedIn, "Sign In with LinkedIn using OpenID Connect". Add that product to your app at
 * https://www.linkedin.com/developers/apps and the redirect URL `{origin}/api/auth/callback/linkedin`.
 * LinkedIn wants the client secret in the token request body and does not take PKCE from web apps.
 *
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 * @module linkedin
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a LinkedIn member. */
export interface LinkedInProfile {
  sub: string
  iss: string
  aud: string
  exp: number
  iat: number
  name: string
  given_name: string
  family_name: string
  picture?: string
  locale?: string | { country: string; language: string }
  email?: string
  email_verified?: boolean | string
  [claim: string]: unknown
}

/** LinkedIn sign-in. */
export default function LinkedIn(config: OIDCUserConfig<LinkedInProfile> = {}): OIDCConfig<LinkedInProfile> {
  return oauthProvider<OIDCConfig<LinkedInProfile>>(
    {
      id: "linkedin",
      name: "LinkedIn",
      type: "oidc",
      issuer: "https://www.linkedin.com/oauth",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#0a66c2" },
    },
    config,
  )
}
