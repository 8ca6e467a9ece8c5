/**
 * Osso (OAuth 2.0 in front of your customers' SAML identity providers), self-hosted. Create an OAuth client
 * in the Osso admin UI with the redirect URI `{origin}/api/auth/callback/osso`, and set `issuer` to your
 * Osso deployment's URL. Pass the customer's `domain` (or `email`) as an authorization parameter to skip
 * Osso's own domain prompt.
 *
 * @see https://ossoapp.com/docs/integration/oauth-consumption
 * @module osso
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"

/** The answer of `GET /oauth/me`. */
export interface OssoProfile {
  id: string
  email: string
  /** The identity provider the user signed in with, e.g. `OKTA` or `AZURE`. */
  idp: string
  /** What the sign-in was started with. */
  requested: { domain?: string | null; email?: string | null }
  [claim: string]: unknown
}

/**
 * Osso sign-in.
 *
 * Without `issuer` (or `AUTH_OSSO_ISSUER`) it is left out of sign-in, and `Auth()` logs what to set.
 */
export default function Osso(config: OAuthUserConfig<OssoProfile> = {}): OAuth2Config<OssoProfile> {
  const issuer = tenantIssuer("osso", config, "your Osso deployment's URL, e.g. https://osso.example.com")
  const deployment = issuer.replace(/\/+$/, "")
  return oauthProvider<OAuth2Config<OssoProfile>>(
    {
      id: "osso",
      name: "Osso",
      type: "oauth",
      authorization: `${deployment}/oauth/authorize`,
      token: `${deployment}/oauth/token`,
      userinfo: `${deployment}/oauth/me`,
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: null,
        email: profile.email,
        image: null,
      }),
      style: { brandColor: "#000000" },
    },
    config,
  )
}
