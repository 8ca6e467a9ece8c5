/**
 * Sign in with Apple (OpenID Connect). Register a Services ID at
 * https://developer.apple.com/account/resources/identifiers with the return URL
 * `{origin}/api/auth/callback/apple` (https only, no localhost). `clientSecret` is not a fixed
 * string: it is a JWT you sign with your Sign in with Apple private key, and it expires after at
 * most six months. Apple posts the callback (`response_mode=form_post`), and sends the user's name
 * only once, outside the ID token, so `name` is `null` here.
 *
 * @see https://developer.apple.com/documentation/signinwithapple
 * @module apple
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The claims of Apple's ID token. */
export interface AppleProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  sub: string
  nonce?: string
  nonce_supported?: boolean
  c_hash?: string
  at_hash?: string
  auth_time?: number
  email?: string
  /** A boolean in current tokens; older tokens carry the strings `"true"` / `"false"`. */
  email_verified?: boolean | "true" | "false"
  /** `true` when `email` is a private relay address (`@privaterelay.appleid.com`). */
  is_private_email?: boolean | "true" | "false"
  /** 0 unsupported, 1 unknown, 2 likely real (native apps only). */
  real_user_status?: 0 | 1 | 2
  transfer_sub?: string
  [claim: string]: unknown
}

/** Sign in with Apple. */
export default function Apple(config: OIDCUserConfig<AppleProfile> = {}): OIDCConfig<AppleProfile> {
  return oauthProvider<OIDCConfig<AppleProfile>>(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      // Apple returns `email` (and the one-time `user` field) only with form_post.
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      checks: ["nonce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
