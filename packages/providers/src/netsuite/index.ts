/**
 * NetSuite as OpenID Connect provider. Create an integration record with "NetSuite as OIDC Provider",
 * the redirect URI `{origin}/api/auth/callback/netsuite`, and set `issuer` to your account's SuiteTalk
 * host, `https://<accountID>.suitetalk.api.netsuite.com`, with the account id in domain form
 * (lowercase, `_` as `-`: `1234567_SB1` becomes `1234567-sb1`). NetSuite rejects `http://` redirects.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_160855370280.html
 * @module netsuite
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The userinfo claims of NetSuite for the `openid email` scopes. */
export interface NetSuiteProfile {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  [claim: string]: unknown
}

/**
 * NetSuite sign-in.
 *
 * Without `issuer` (or `AUTH_NETSUITE_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function NetSuite(config: OIDCUserConfig<NetSuiteProfile> = {}): OIDCConfig<NetSuiteProfile> {
  const issuer = tenantIssuer("netsuite", config, "your account's SuiteTalk URL, e.g. https://1234567.suitetalk.api.netsuite.com")
  return oauthProvider<OIDCConfig<NetSuiteProfile>>(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oidc",
      issuer,
      authorization: { params: { scope: "openid email" } },
      idToken: false,
      profile: (profile) => userFromClaims(profile),
      style: { brandColor: "#125580" },
    },
    config,
  )
}
