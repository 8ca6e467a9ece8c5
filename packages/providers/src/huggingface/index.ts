/**
 * Hugging Face (OpenID Connect). Create a connected application at
 * https://huggingface.co/settings/connected-applications with the redirect URL
 * `{origin}/api/auth/callback/huggingface`. `email` is only shared with the `email` scope, which
 * the app must also allow.
 *
 * @see https://huggingface.co/docs/hub/oauth
 * @module huggingface
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The record of `GET https://huggingface.co/oauth/userinfo`. */
export interface HuggingFaceProfile {
  /** The user id (24 hex characters). */
  sub: string
  name: string
  /** The username, as in `https://huggingface.co/<preferred_username>`. */
  preferred_username: string
  profile: string
  picture: string
  website?: string
  email?: string
  email_verified?: boolean
  isPro?: boolean
  canPay?: boolean
  orgs?: { sub: string; name: string; preferred_username: string; picture: string; isEnterprise: boolean }[]
  [claim: string]: unknown
}

/** Hugging Face sign-in. */
export default function HuggingFace(
  config: OIDCUserConfig<HuggingFaceProfile> = {},
): OIDCConfig<HuggingFaceProfile> {
  return oauthProvider<OIDCConfig<HuggingFaceProfile>>(
    {
      id: "huggingface",
      name: "Hugging Face",
      type: "oidc",
      issuer: "https://huggingface.co",
      authorization: { params: { scope: "openid profile email" } },
      // The profile claims are documented for userinfo, not for the ID token.
      idToken: false,
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#ffd21e" },
    },
    config,
  )
}
