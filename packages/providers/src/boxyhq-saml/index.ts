/**
 * BoxyHQ SAML Jackson: enterprise SAML SSO exposed as an OAuth 2.0 flow. Deploy Jackson (or use
 * Ory Polis), set `issuer` to its URL, e.g. `https://jackson.example.com`, and register
 * `{origin}/api/auth/callback/boxyhq-saml` as a redirect URL of each SAML connection. Pass the
 * tenant and product to sign-in as authorization params, e.g. `signIn("boxyhq-saml", {}, { tenant, product })`.
 *
 * @see https://boxyhq.com/docs/jackson/sso-flow
 * @module boxyhq-saml
 */
import { oauthProvider } from "@portcullis/core/oauth"
import { tenantIssuer, type OAuth2Config, type OAuthUserConfig } from "@portcullis/core/providers"

/** The record of Jackson's `GET /api/oauth/userinfo`, built from the SAML assertion. */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  requested?: { tenant?: string; product?: string; client_id?: string; state?: string }
  raw?: Record<string, unknown>
  [claim: string]: unknown
}

/** BoxyHQ SAML Jackson sign-in. */
export default function BoxyHQSAML(config: OAuthUserConfig<BoxyHQSAMLProfile> = {}): OAuth2Config<BoxyHQSAMLProfile> {
  const issuer = tenantIssuer("boxyhq-saml", config, "your SAML Jackson service URL, e.g. https://jackson.example.com")
  const base = issuer.replace(/\/+$/, "")
  return oauthProvider<OAuth2Config<BoxyHQSAMLProfile>>(
    {
      id: "boxyhq-saml",
      name: "BoxyHQ SAML",
      type: "oauth",
      issuer,
      authorization: { url: `${base}/api/oauth/authorize`, params: { provider: "saml" } },
      token: `${base}/api/oauth/token`,
      userinfo: `${base}/api/oauth/userinfo`,
      // Jackson rejects an authorization request without `state`.
      checks: ["pkce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.id,
        name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || null,
        email: profile.email,
        image: null,
      }),
      style: { brandColor: "#25c2a0" },
    },
    config,
  )
}
