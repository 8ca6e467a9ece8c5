/**
 * Vipps MobilePay Login (OpenID Connect). Activate Login on your sales unit in the business portal, add the
 * redirect URI `{origin}/api/auth/callback/vipps`, and for the test environment override `issuer` with
 * `https://apitest.vipps.no/access-management-1.0/access/`. The ID token holds only `sub`: the profile comes from userinfo.
 *
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/
 * @module vipps
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

interface VippsAddress {
  address_type: string
  country: string
  formatted: string
  postal_code: string
  region: string
  street_address: string
}

/** The userinfo claims of Vipps MobilePay for the scopes granted. */
export interface VippsProfile {
  sub: string
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  birthdate?: string
  nin?: string
  address?: VippsAddress
  other_addresses?: VippsAddress[]
  [claim: string]: unknown
}

/** Vipps MobilePay sign-in. */
export default function Vipps(config: OIDCUserConfig<VippsProfile> = {}): OIDCConfig<VippsProfile> {
  return oauthProvider<OIDCConfig<VippsProfile>>(
    {
      id: "vipps",
      name: "Vipps",
      type: "oidc",
      issuer: "https://api.vipps.no/access-management-1.0/access/",
      authorization: { params: { scope: "openid name email" } },
      idToken: false,
      checks: ["pkce", "state"],
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#ff5b24" },
    },
    config,
  )
}
