/**
 * Microsoft Entra ID (OpenID Connect, v2.0 endpoints). Register an app with the web redirect URI
 * `{origin}/api/auth/callback/microsoft-entra-id`, and set `issuer` to `https://login.microsoftonline.com/<tenant-id>/v2.0`.
 * The multi-tenant `common` / `organizations` endpoints are not supported: their ID tokens carry each user's tenant as `iss`.
 * `email` is only present for accounts that have one; `preferred_username` is not a verified email.
 *
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 * @module microsoft-entra-id
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, userFromClaims, type OIDCConfig, type OIDCUserConfig } from "@portcullis/core/providers"
import { graphPhoto, photoSize, type ProfilePhotoSize } from "./photo.js"

/** The claims of a Microsoft identity platform v2.0 ID token. */
export interface MicrosoftEntraIDProfile {
  iss: string
  sub: string
  aud: string
  iat: number
  nbf: number
  exp: number
  ver: string
  /** The user's object id, the same in every app of the tenant. */
  oid: string
  /** The tenant id. */
  tid: string
  nonce?: string
  aio?: string
  rh?: string
  uti?: string
  name?: string
  preferred_username?: string
  email?: string
  login_hint?: string
  [claim: string]: unknown
}

/**
 * Microsoft Entra ID sign-in.
 *
 * Without `issuer` (or `AUTH_MICROSOFT_ENTRA_ID_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function MicrosoftEntraID(
  options: OIDCUserConfig<MicrosoftEntraIDProfile> & { profilePhotoSize?: ProfilePhotoSize } = {},
): OIDCConfig<MicrosoftEntraIDProfile> {
  const { profilePhotoSize, ...config } = options
  // Graph photos at a size, as Auth.js fetches them; without the option the ID token's claims only.
  const size = photoSize("microsoft-entra-id", profilePhotoSize)
  const issuer = tenantIssuer(
    "microsoft-entra-id",
    config,
    "your tenant's v2.0 issuer URL, e.g. https://login.microsoftonline.com/<tenant-id>/v2.0",
  )
  return oauthProvider<OIDCConfig<MicrosoftEntraIDProfile>>(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
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
