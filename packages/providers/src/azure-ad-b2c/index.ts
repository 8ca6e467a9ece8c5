/**
 * Azure AD B2C (OpenID Connect). Register a web app with the redirect URI `{origin}/api/auth/callback/azure-ad-b2c`.
 * A B2C issuer (`https://<tenant>.b2clogin.com/<tenant-id>/v2.0/`) is shared by every user flow, so discovery
 * cannot start from it: set `wellKnown` to your user flow's metadata URL as well. B2C issues an access token
 * only for a resource scope, hence the client id in the default scope (pass `clientId` to the factory).
 *
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 * @module azure-ad-b2c
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { incompleteProvider, tenantIssuer, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"

/** The claims of an Azure AD B2C ID token (user flow defaults; your flow may add more). */
export interface AzureADB2CProfile {
  iss: string
  sub: string
  aud: string
  iat: number
  nbf: number
  exp: number
  ver: string
  auth_time: number
  nonce?: string
  /** The user flow that issued the token. */
  tfp?: string
  /** The user's object id. */
  oid?: string
  name?: string
  given_name?: string
  family_name?: string
  /** Sign-in email addresses (the "Email Addresses" application claim). */
  emails?: string[]
  email?: string
  /** The identity provider for social accounts, e.g. `google.com`. */
  idp?: string
  [claim: string]: unknown
}

/**
 * Azure AD B2C sign-in. Without `issuer` or `wellKnown` it is left out of sign-in, and `Auth()` logs which to set.
 */
export default function AzureADB2C(config: OIDCUserConfig<AzureADB2CProfile> = {}): OIDCConfig<AzureADB2CProfile> {
  const issuer = tenantIssuer(
    "azure-ad-b2c",
    config,
    "the issuer of your user flow's metadata, e.g. https://contoso.b2clogin.com/<tenant-id>/v2.0/",
  )
  const scope = ["openid", "offline_access", config.clientId].filter(Boolean).join(" ")
  const provider = oauthProvider<OIDCConfig<AzureADB2CProfile>>(
    {
      id: "azure-ad-b2c",
      name: "Azure AD B2C",
      type: "oidc",
      issuer,
      wellKnown: config.wellKnown,
      authorization: { params: { scope } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || null),
        email: profile.emails?.[0] ?? profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#0072c6" },
    },
    config,
  )
  if (config.wellKnown !== undefined && config.wellKnown !== "") return provider
  return incompleteProvider(
    provider,
    "set `wellKnown` (your user flow's metadata URL, e.g. https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration)",
  )
}
