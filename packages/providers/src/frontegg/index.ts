/**
 * Frontegg (OpenID Connect hosted login). In the Frontegg portal select "Hosted login" under
 * Authentication > Login method and add the redirect URL `{origin}/api/auth/callback/frontegg`.
 * `issuer` is your environment's login domain, e.g. `https://acme.frontegg.com`; Frontegg serves
 * its discovery document under `/oauth`, which this provider points to.
 *
 * @see https://developers.frontegg.com/guides/management/frontegg-idp/native-hosted
 * @module frontegg
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The ID token claims of a Frontegg user. */
export interface FronteggProfile {
  sub: string
  iss: string
  aud: string | string[]
  exp: number
  iat: number
  name?: string
  email: string
  email_verified?: boolean
  profilePictureUrl?: string | null
  tenantId?: string
  tenantIds?: string[]
  roles?: string[]
  permissions?: string[]
  metadata?: Record<string, unknown>
  [claim: string]: unknown
}

/** Frontegg sign-in for one environment. */
export default function Frontegg(config: OIDCUserConfig<FronteggProfile> = {}): OIDCConfig<FronteggProfile> {
  const issuer = tenantIssuer("frontegg", config, "your login domain URL, e.g. https://acme.frontegg.com")
  return oauthProvider<OIDCConfig<FronteggProfile>>(
    {
      id: "frontegg",
      name: "Frontegg",
      type: "oidc",
      issuer,
      wellKnown: `${issuer.replace(/\/+$/, "")}/oauth/.well-known/openid-configuration`,
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email,
        image: profile.profilePictureUrl ?? null,
      }),
      style: { brandColor: "#4461f2" },
    },
    config,
  )
}
