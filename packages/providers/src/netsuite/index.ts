/**
 * NetSuite as OpenID Connect provider. Create an integration record with "NetSuite as OIDC Provider",
 * the redirect URI `{origin}/api/auth/callback/netsuite`, and set `issuer` to your account's SuiteTalk
 * host, `https://<accountID>.suitetalk.api.netsuite.com`, with the account id in domain form
 * (lowercase, `_` as `-`: `1234567_SB1` becomes `1234567-sb1`). NetSuite rejects `http://` redirects.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_160855370280.html
 * @module netsuite
 */
import { Configuration } from "@auth/core/errors"
import { mergeProviderConfig, type OIDCConfig, type OIDCUserConfig } from "@auth/core/providers"

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
 * @throws {Configuration} when `issuer` is missing.
 */
export default function NetSuite(config: OIDCUserConfig<NetSuiteProfile> = {}): OIDCConfig<NetSuiteProfile> {
  if (config.issuer === undefined || config.issuer === "") {
    throw new Configuration("NetSuite: set `issuer` to your account's SuiteTalk URL, e.g. https://1234567.suitetalk.api.netsuite.com")
  }
  return mergeProviderConfig<OIDCConfig<NetSuiteProfile>>(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oidc",
      issuer: config.issuer,
      authorization: { params: { scope: "openid email" } },
      idToken: false,
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#125580" },
    },
    config,
  )
}
