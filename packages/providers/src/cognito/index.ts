/**
 * Amazon Cognito user pools (OpenID Connect). Create an app client with a client secret and a
 * managed login domain, allow the `openid profile email` scopes and add the callback URL
 * `{origin}/api/auth/callback/cognito`. `issuer` is the user pool URL, e.g.
 * `https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC123xYz` (not the login domain).
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 * @module cognito
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of a Cognito user pool ID token. */
export interface CognitoProfile {
  sub: string
  iss: string
  aud: string
  exp: number
  iat: number
  auth_time: number
  token_use: string
  "cognito:username": string
  "cognito:groups"?: string[]
  origin_jti?: string
  event_id?: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  [claim: string]: unknown
}

/** Amazon Cognito sign-in for one user pool. */
export default function Cognito(config: OIDCUserConfig<CognitoProfile> = {}): OIDCConfig<CognitoProfile> {
  const issuer = tenantIssuer(
    "cognito",
    config,
    "your user pool URL, e.g. https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC123xYz",
  )
  return oauthProvider<OIDCConfig<CognitoProfile>>(
    {
      id: "cognito",
      name: "Cognito",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile["cognito:username"],
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#dd344c" },
    },
    config,
  )
}
