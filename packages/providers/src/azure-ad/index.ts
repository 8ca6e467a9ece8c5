/**
 * Azure Active Directory, now Microsoft Entra ID (OpenID Connect, v2.0 endpoints), one tenant.
 * Register an app under "App registrations" in the Azure portal with the Web redirect URI
 * `{origin}/api/auth/callback/azure-ad`. `issuer` is your tenant's v2.0 issuer,
 * `https://login.microsoftonline.com/<tenant id>/v2.0`; `common` and `organizations` do not
 * work here because the ID token's `iss` always names the user's own tenant. `email` is an
 * optional claim: add it under "Token configuration" or it may be missing.
 *
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 * @module azure-ad
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import { graphPhoto, photoSize, type ProfilePhotoSize } from "../microsoft-entra-id/photo.js"

/** The claims of a v2.0 ID token. */
export interface AzureADProfile {
  iss: string
  aud: string
  exp: number
  iat: number
  nbf: number
  /** Pairwise: unique per user and application. */
  sub: string
  /** The user's object id, the same for every application in the tenant. */
  oid: string
  tid: string
  /** `"2.0"`. */
  ver: string
  name?: string
  preferred_username?: string
  email?: string
  nonce?: string
  login_hint?: string
  sid?: string
  rh?: string
  uti?: string
  [claim: string]: unknown
}

/** Azure AD / Microsoft Entra ID sign-in for one tenant. */
export default function AzureAD(options: OIDCUserConfig<AzureADProfile> & { profilePhotoSize?: ProfilePhotoSize } = {}): OIDCConfig<AzureADProfile> {
  const { profilePhotoSize, ...config } = options
  // Graph photos at a size, as Auth.js fetches them; without the option the ID token's claims only.
  const size = photoSize("azure-ad", profilePhotoSize)
  const issuer = tenantIssuer(
    "azure-ad",
    config,
    "your tenant's v2.0 issuer URL, e.g. https://login.microsoftonline.com/<tenant id>/v2.0",
  )
  return oauthProvider<OIDCConfig<AzureADProfile>>(
    {
      id: "azure-ad",
      name: "Azure Active Directory",
      type: "oidc",
      issuer,
      authorization: { params: { scope: size === undefined ? "openid profile email" : "openid profile email User.Read" } },
      profile:
        size === undefined
          ? (profile) => userFromClaims(profile)
          : async (profile, tokens) => ({ ...userFromClaims(profile), image: await graphPhoto(size, tokens.access_token) }),
      style: { brandColor: "#0078d4" },
    },
    config,
  )
}
