/**
 * Roblox (OpenID Connect). Create an OAuth 2.0 app in the Creator Dashboard (Credentials > OAuth
 * 2.0 Apps) with the `openid profile` scopes and the redirect URL `{origin}/api/auth/callback/roblox`.
 * Roblox never shares an email address, and `picture` is null until the avatar headshot is generated.
 *
 * @see https://create.roblox.com/docs/cloud/reference/oauth2
 * @module roblox
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The ID token claims of a Roblox user with the `profile` scope. */
export interface RobloxProfile {
  sub: string
  iss: string
  aud: string
  exp: number
  iat: number
  nonce?: string
  jti?: string
  /** Display name. */
  name: string
  nickname: string
  /** Username. */
  preferred_username: string
  /** Account creation time, seconds since the epoch. */
  created_at: number
  profile: string
  picture: string | null
  [claim: string]: unknown
}

/** Roblox sign-in. */
export default function Roblox(config: OIDCUserConfig<RobloxProfile> = {}): OIDCConfig<RobloxProfile> {
  return oauthProvider<OIDCConfig<RobloxProfile>>(
    {
      id: "roblox",
      name: "Roblox",
      type: "oidc",
      // The trailing slash is part of the issuer Roblox puts in `iss`.
      issuer: "https://apis.roblox.com/oauth/",
      wellKnown: "https://apis.roblox.com/oauth/.well-known/openid-configuration",
      authorization: { params: { scope: "openid profile" } },
      checks: ["pkce", "state"],
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#000000" },
    },
    config,
  )
}
