/**
 * authentik (OpenID Connect), self-hosted. Create an OAuth2/OpenID provider and an application
 * in the admin interface, with the redirect URI `{origin}/api/auth/callback/authentik`.
 * `issuer` is the application's "OpenID Configuration Issuer", which ends with a slash, e.g.
 * `https://authentik.example.com/application/o/my-app/`.
 *
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 * @module authentik
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The ID token claims authentik's default `openid email profile` scope mappings produce. */
export interface AuthentikProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  auth_time?: number
  acr?: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  preferred_username?: string
  nickname?: string
  groups?: string[]
  [claim: string]: unknown
}

/** authentik sign-in for one application. */
export default function Authentik(config: OIDCUserConfig<AuthentikProfile> = {}): OIDCConfig<AuthentikProfile> {
  const issuer = tenantIssuer(
    "authentik",
    config,
    "your application's issuer URL, e.g. https://authentik.example.com/application/o/my-app/",
  )
  return oauthProvider<OIDCConfig<AuthentikProfile>>(
    {
      id: "authentik",
      name: "authentik",
      type: "oidc",
      issuer,
      // The issuer keeps its trailing slash (it must match `iss`); the discovery path must not double it.
      wellKnown: `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#fd4b2d" },
    },
    config,
  )
}
