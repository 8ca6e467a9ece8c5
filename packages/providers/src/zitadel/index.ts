/**
 * ZITADEL (OpenID Connect). In the Console create a "Web" application with the "Code" flow in a
 * project, and add the redirect URI `{origin}/api/auth/callback/zitadel` (enable "Development
 * Mode" for http localhost). `issuer` is your instance domain, e.g.
 * `https://acme-a1b2c3.zitadel.cloud` or your own domain when self-hosting.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 * @module zitadel
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a ZITADEL user (standard claims plus `urn:zitadel:iam:*` extras). */
export interface ZitadelProfile {
  sub: string
  iss: string
  aud: string | string[]
  azp?: string
  exp: number
  iat: number
  auth_time?: number
  amr?: string[]
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  gender?: string
  locale?: string | null
  picture?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  "urn:zitadel:iam:user:resourceowner:id"?: string
  "urn:zitadel:iam:user:resourceowner:name"?: string
  "urn:zitadel:iam:org:project:roles"?: Record<string, Record<string, string>>
  [claim: string]: unknown
}

/** ZITADEL sign-in for one instance. */
export default function Zitadel(config: OIDCUserConfig<ZitadelProfile> = {}): OIDCConfig<ZitadelProfile> {
  const issuer = tenantIssuer("zitadel", config, "your instance URL, e.g. https://acme-a1b2c3.zitadel.cloud")
  return oauthProvider<OIDCConfig<ZitadelProfile>>(
    {
      id: "zitadel",
      name: "ZITADEL",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#ff2069" },
    },
    config,
  )
}
