/**
 * Keycloak (OpenID Connect), self-hosted. Create an OpenID Connect client with "Client
 * authentication" on in your realm and add the redirect URI `{origin}/api/auth/callback/keycloak`.
 * `issuer` is the realm URL, e.g. `https://sso.example.com/realms/acme` (Keycloak before 17 puts
 * `/auth` in front of `/realms`).
 *
 * @see https://www.keycloak.org/docs/latest/server_admin/#_oidc_clients
 * @module keycloak
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import logo from "./logo.js"

/** The ID token claims of a realm user (standard `profile` and `email` scope mappers). */
export interface KeycloakProfile {
  sub: string
  iss: string
  aud: string | string[]
  azp?: string
  exp: number
  iat: number
  auth_time?: number
  sid?: string
  email_verified?: boolean
  name?: string
  preferred_username: string
  given_name?: string
  family_name?: string
  email?: string
  picture?: string
  locale?: string
  [claim: string]: unknown
}

/** Keycloak sign-in for one realm. */
export default function Keycloak(config: OIDCUserConfig<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  const issuer = tenantIssuer("keycloak", config, "your realm URL, e.g. https://sso.example.com/realms/acme")
  return oauthProvider<OIDCConfig<KeycloakProfile>>(
    {
      id: "keycloak",
      name: "Keycloak",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { logo, brandColor: "#008aaa" },
    },
    config,
  )
}
