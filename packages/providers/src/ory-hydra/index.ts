/**
 * Ory Hydra / Ory Network OAuth2 (OpenID Connect). Create an OAuth2 client with the
 * `authorization_code` grant, the `openid profile email` scopes and the redirect URI
 * `{origin}/api/auth/callback/ory-hydra`. `issuer` is your Hydra public URL or Ory Network
 * project URL, e.g. `https://my-project.projects.oryapis.com`.
 *
 * @see https://www.ory.sh/docs/hydra/guides/oauth2-clients
 * @module ory-hydra
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The ID token claims Hydra issues; identity claims come from the login/consent app's session. */
export interface OryHydraProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  rat?: number
  auth_time?: number
  acr?: string
  amr?: string[]
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** Ory Hydra sign-in. */
export default function OryHydra(config: OIDCUserConfig<OryHydraProfile> = {}): OIDCConfig<OryHydraProfile> {
  const issuer = tenantIssuer("ory-hydra", config, "your Hydra public URL, e.g. https://my-project.projects.oryapis.com")
  return oauthProvider<OIDCConfig<OryHydraProfile>>(
    {
      id: "ory-hydra",
      name: "Ory Hydra",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#5528ff" },
    },
    config,
  )
}
