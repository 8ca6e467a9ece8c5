/**
 * Salesforce (OpenID Connect). Create an External Client App (or Connected App) with OAuth enabled, the
 * callback URL `{origin}/api/auth/callback/salesforce` and the `openid`, `profile` and `email` scopes.
 * Sandboxes use `issuer: "https://test.salesforce.com"`; a My Domain login uses its own URL.
 *
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm
 * @module salesforce
 */
import { oauthProvider } from "@portcullis/core/oauth"
import type { OIDCConfig, OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of a Salesforce ID token with the `openid profile email` scopes. */
export interface SalesforceProfile {
  iss: string
  /** The identity URL, e.g. `https://login.salesforce.com/id/<org-id>/<user-id>`. */
  sub: string
  aud: string
  iat: number
  exp: number
  at_hash?: string
  nonce?: string
  name?: string
  preferred_username?: string
  nickname?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  profile?: string
  zoneinfo?: string
  locale?: string
  updated_at?: string
  [claim: string]: unknown
}

/** Salesforce sign-in. */
export default function Salesforce(config: OIDCUserConfig<SalesforceProfile> = {}): OIDCConfig<SalesforceProfile> {
  return oauthProvider<OIDCConfig<SalesforceProfile>>(
    {
      id: "salesforce",
      name: "Salesforce",
      type: "oidc",
      issuer: "https://login.salesforce.com",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#00a1e0" },
    },
    config,
  )
}
